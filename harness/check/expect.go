package check

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"wink.dev/wink/harness/config"
	"wink.dev/wink/harness/config/v1alpha1"
	"wink.dev/wink/simnode/facts"
)

// ExpectKind is the kind of an --expect file.
const ExpectKind = "CheckExpectations"

// Expectations is an --expect file: the placement a chart's authors intend,
// so that deliberate choices are not findings.
//
//	apiVersion: wink.dev/v1alpha1
//	kind: CheckExpectations
//	workloads:
//	- {kind: DaemonSet, name: log-agent, os: linux}           # linux only
//	- {kind: Deployment, name: web, notOn: [windows-2019]}    # not on Windows Server 2019
//	- {kind: Job, name: migrate, allow: [crash-loop]}         # a finding accepted
type Expectations struct {
	APIVersion string        `json:"apiVersion"`
	Kind       string        `json:"kind"`
	Workloads  []Expectation `json:"workloads"`
}

// Expectation is the intended placement of one workload.
type Expectation struct {
	// Kind and Name of the workload (Deployment, DaemonSet, StatefulSet,
	// Job, CronJob, Pod); Namespace is optional.
	Kind      string `json:"kind"`
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
	// OS the workload is meant for: linux, windows, or any (osAny: runs
	// on both). A linux workload with no pod on Windows nodes, or a
	// windows one with none on Linux nodes, is as intended.
	OS facts.OS `json:"os,omitempty"`
	// NotOn are node groups where the workload is meant not to run:
	// windows, linux, windows-2019, windows-2022, windows-2025. No pod
	// there is as intended.
	NotOn []string `json:"notOn,omitempty"`
	// Allow lists finding codes accepted for this workload (reported as
	// warnings, not errors).
	Allow []string `json:"allow,omitempty"`
}

// osAny is an expectation's OS for a workload meant for both.
const osAny facts.OS = "any"

// Groups of nodes an expectation names.
var nodeGroups = map[string]string{
	string(facts.Windows): string(facts.Windows), string(facts.Linux): string(facts.Linux),
	"windows-2019": windowsGroup + v1alpha1.WindowsServer2019,
	"windows-2022": windowsGroup + v1alpha1.WindowsServer2022,
	"windows-2025": windowsGroup + v1alpha1.WindowsServer2025,
}

var workloadKinds = []string{"Deployment", "DaemonSet", "StatefulSet", "Job", "CronJob", "Pod", "ReplicaSet"}

// Finding codes (reports.Finding.Code).
const (
	CodePending          = "pending-untolerated-taint"
	CodePendingSelector  = "pending-no-matching-node"
	CodePendingOther     = "pending"
	CodeDaemonSetNoPods  = "daemonset-no-windows-pods"
	CodeLinuxOnWindows   = "linux-pod-on-windows"
	CodeNoImageForBuild  = "no-image-for-build"
	CodeImagePull        = "image-pull-failed"
	CodeCrashLoop        = "crash-loop"
	CodeContainerFailed  = "container-failed"
	CodeHookFailed       = "hook-failed"
	CodeInstallFailed    = "install-failed"
	CodeRefusedAPIServer = "refused-by-apiserver"
	CodeRefusedKubelet   = "refused-by-kubelet"
	CodeNotReady         = "not-ready"
	CodeLinuxOnlyFields  = "linux-only-fields-ignored"
	CodeHostProcessNet   = "hostprocess-without-hostnetwork"
	CodeHostNetwork      = "hostnetwork-without-hostprocess"
	CodeUnexpectedPods   = "pods-where-not-expected"
	// CodeNotSimulated is a warning only: a container ran something wink
	// does not simulate (issue 18), whose effect is not judged.
	CodeNotSimulated = "not-simulated"
)

// Codes are every finding code Run reports.
var Codes = []string{
	CodePending, CodePendingSelector, CodePendingOther, CodeDaemonSetNoPods, CodeLinuxOnWindows,
	CodeNoImageForBuild, CodeImagePull, CodeCrashLoop, CodeContainerFailed, CodeHookFailed, CodeInstallFailed,
	CodeRefusedAPIServer, CodeRefusedKubelet, CodeNotReady, CodeLinuxOnlyFields, CodeHostProcessNet,
	CodeHostNetwork, CodeUnexpectedPods, CodeNotSimulated,
}

// LoadExpectations reads and validates an --expect file; every problem
// names the file, line, field and fix.
func LoadExpectations(path string) (*Expectations, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--expect: %w", err)
	}
	return ParseExpectations(data, path)
}

// ParseExpectations is LoadExpectations of data; source names it in errors.
func ParseExpectations(data []byte, source string) (*Expectations, error) {
	doc, err := config.ParseDocument(data, source)
	if err != nil {
		return nil, err
	}
	var e Expectations
	if err := doc.Decode(&e); err != nil {
		return nil, err
	}
	var errs []error
	add := func(path string, typ v1alpha1.ErrorType, value any, msg, fix string) {
		errs = append(errs, &v1alpha1.FieldError{Path: path, Type: typ, Value: value, Message: msg, Fix: fix})
	}
	if e.APIVersion != v1alpha1.APIVersion {
		add("apiVersion", v1alpha1.ErrorTypeInvalid, e.APIVersion, "must be "+v1alpha1.APIVersion, "write apiVersion: "+v1alpha1.APIVersion)
	}
	if e.Kind != ExpectKind {
		add("kind", v1alpha1.ErrorTypeInvalid, e.Kind, "must be "+ExpectKind, "write kind: "+ExpectKind)
	}
	groups := make([]string, 0, len(nodeGroups))
	for g := range nodeGroups {
		groups = append(groups, g)
	}
	slices.Sort(groups)
	for i, w := range e.Workloads {
		p := fmt.Sprintf("workloads[%d]", i)
		if !slices.Contains(workloadKinds, w.Kind) {
			add(p+".kind", v1alpha1.ErrorTypeNotSupported, w.Kind, "supported values: "+strings.Join(workloadKinds, ", "), "write the workload's kind as in its manifest")
		}
		if w.Name == "" {
			add(p+".name", v1alpha1.ErrorTypeRequired, nil, "", "write the workload's metadata.name as the chart renders it")
		}
		if w.OS != "" && !w.OS.Valid() && w.OS != osAny {
			add(p+".os", v1alpha1.ErrorTypeNotSupported, w.OS, "supported values: linux, windows, any", "write the OS the workload is meant for")
		}
		for j, g := range w.NotOn {
			if _, ok := nodeGroups[g]; !ok {
				add(fmt.Sprintf("%s.notOn[%d]", p, j), v1alpha1.ErrorTypeNotSupported, g, "supported values: "+strings.Join(groups, ", "), "name a node group, e.g. windows-2019")
			}
		}
		for j, c := range w.Allow {
			if !slices.Contains(Codes, c) {
				add(fmt.Sprintf("%s.allow[%d]", p, j), v1alpha1.ErrorTypeNotSupported, c, "supported values: "+strings.Join(Codes, ", "), "write a finding code as results.json reports it")
			}
		}
	}
	if len(errs) > 0 {
		return nil, doc.Locate(errors.Join(errs...), "")
	}
	return &e, nil
}

// For returns the expectation of a workload, nil when there is none.
func (e *Expectations) For(kind, namespace, name string) *Expectation {
	if e == nil {
		return nil
	}
	for i, w := range e.Workloads {
		if w.Kind == kind && w.Name == name && (w.Namespace == "" || w.Namespace == namespace) {
			return &e.Workloads[i]
		}
	}
	return nil
}

// String is the expectation as reports show it, e.g. "os linux; not on windows-2019".
func (w *Expectation) String() string {
	if w == nil {
		return ""
	}
	var parts []string
	if w.OS != "" {
		parts = append(parts, "os "+string(w.OS))
	}
	if len(w.NotOn) > 0 {
		parts = append(parts, "not on "+strings.Join(w.NotOn, ", "))
	}
	if len(w.Allow) > 0 {
		parts = append(parts, "allows "+strings.Join(w.Allow, ", "))
	}
	return strings.Join(parts, "; ")
}

// notOn reports whether the expectation excludes the node group g
// ("windows/10.0.17763", "linux").
func (w *Expectation) notOn(g string) bool {
	if w == nil {
		return false
	}
	for _, n := range w.NotOn {
		ng := nodeGroups[n]
		if ng == g || ng == string(facts.Windows) && strings.HasPrefix(g, windowsGroup) {
			return true
		}
	}
	return false
}

func (w *Expectation) allows(code string) bool { return w != nil && slices.Contains(w.Allow, code) }
