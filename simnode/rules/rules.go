package rules

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"text/template"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/version"
	"sigs.k8s.io/yaml"
	"wink.dev/wink/simnode/facts"
)

//go:embed nodes.yaml conditions.yaml admission.yaml events.yaml runtime.yaml http.yaml shutdown.yaml
var files embed.FS

// MinKubeletVersion is the oldest kubelet version the tables describe.
const MinKubeletVersion = "v1.24.0"

// Range is a half-open kubelet version range [Since, Until). An empty Until
// means "up to and including the newest version".
type Range struct {
	Since string `json:"since"`
	Until string `json:"until,omitempty"`

	since, until *version.Version
}

func (r *Range) compile() error {
	var err error
	if r.since, err = version.ParseSemantic(r.Since); err != nil {
		return fmt.Errorf("since %q: %w", r.Since, err)
	}
	if r.Until != "" {
		if r.until, err = version.ParseSemantic(r.Until); err != nil {
			return fmt.Errorf("until %q: %w", r.Until, err)
		}
		if !r.since.LessThan(r.until) {
			return fmt.Errorf("empty range [%s, %s)", r.Since, r.Until)
		}
	}
	return nil
}

// Contains reports whether v is in the range.
func (r Range) Contains(v *version.Version) bool {
	if r.since == nil || v.LessThan(r.since) {
		return false
	}
	return r.until == nil || v.LessThan(r.until)
}

func (r Range) String() string {
	if r.Until == "" {
		return ">= " + r.Since
	}
	return fmt.Sprintf("[%s, %s)", r.Since, r.Until)
}

// LabelSet is a group of labels the kubelet puts on its Node (N1, N2).
type LabelSet struct {
	ID              string            `json:"id"`
	Cites           []string          `json:"cites"`
	OS              []facts.OS        `json:"os"`
	KubeletVersions Range             `json:"kubeletVersions"`
	Labels          map[string]string `json:"labels"`

	templates map[string]*template.Template
}

// Profile is the nodeInfo of one OS image (N3).
type Profile struct {
	ID                      string   `json:"id"`
	Cites                   []string `json:"cites"`
	OS                      facts.OS `json:"os"`
	Build                   string   `json:"build,omitempty"`
	OSImage                 string   `json:"osImage"`
	KernelVersion           string   `json:"kernelVersion"`
	ContainerRuntimeVersion string   `json:"containerRuntimeVersion"`
	MachineID               string   `json:"machineID"`
}

// ConditionSet is the set of node conditions a kubelet reports (N6, N7) and
// whether its eviction manager evicts (B6); the evictionHard defaults that
// go with it are facts.OS.EvictionHardDefault (N5).
type ConditionSet struct {
	ID                    string                 `json:"id"`
	Cites                 []string               `json:"cites"`
	OS                    facts.OS               `json:"os"`
	KubeletVersions       Range                  `json:"kubeletVersions"`
	PressureCanBecomeTrue bool                   `json:"pressureCanBecomeTrue"`
	Evicts                bool                   `json:"evicts"`
	Conditions            []corev1.NodeCondition `json:"conditions"`
}

// AdmissionRule is one kubelet admission check (B1-B3).
type AdmissionRule struct {
	ID              string   `json:"id"`
	Cites           []string `json:"cites"`
	Check           string   `json:"check"`
	Reason          string   `json:"reason"`
	Message         string   `json:"message"`
	KubeletVersions Range    `json:"kubeletVersions"`
}

// EventVariant is the message of an event for a kubelet version range.
type EventVariant struct {
	KubeletVersions Range  `json:"kubeletVersions"`
	Message         string `json:"message"`

	tmpl *template.Template
}

// EventRule is one pod event the simulated kubelet records.
type EventRule struct {
	ID       string         `json:"id"`
	Cites    []string       `json:"cites"`
	Reason   string         `json:"reason"`
	Type     string         `json:"type"`
	Variants []EventVariant `json:"variants"`
}

// Rules is the whole set of tables.
type Rules struct {
	LabelSets       []LabelSet                       `json:"labelSets"`
	Profiles        []Profile                        `json:"profiles"`
	DefaultCapacity map[facts.OS]corev1.ResourceList `json:"defaultCapacity"`

	ConditionSets []ConditionSet `json:"conditionSets"`
	// MemoryPressureTrue is the MemoryPressure condition of a node under
	// memory pressure (N7, B6); the False form is in each condition set.
	MemoryPressureTrue corev1.NodeCondition `json:"memoryPressureTrue"`
	// DiskPressureTrue is the DiskPressure condition of a Linux node
	// under nodefs pressure (issue 22); the False form is in each set.
	DiskPressureTrue corev1.NodeCondition `json:"diskPressureTrue"`

	Admission           []AdmissionRule `json:"rules"`
	StatusMessagePrefix string          `json:"statusMessagePrefix"`

	Events         []EventRule        `json:"events"`
	KilledExitCode map[facts.OS]int32 `json:"killedExitCode"`
	PodStatus      PodStatusRules     `json:"podStatus"`
	NodeEvents     []NodeEvent        `json:"nodeEvents"`

	Runtime       RuntimeRules   `json:"runtime"`
	HTTPResponses []HTTPResponse `json:"httpResponses"`

	// NodeShutdown and Reboot are shutdown.yaml (B15, N3).
	NodeShutdown NodeShutdown `json:"nodeShutdown"`
	Reboot       Reboot       `json:"reboot"`
}

// NodeEvent is an event the kubelet records about its Node.
type NodeEvent struct {
	ID      string     `json:"id"`
	Cites   []string   `json:"cites"`
	OS      []facts.OS `json:"os"`
	When    string     `json:"when"` // start | registered
	Reason  string     `json:"reason"`
	Message string     `json:"message"`

	tmpl *template.Template
}

// Feature is a behaviour that a kubelet has from some version on.
type Feature struct {
	Cites           []string `json:"cites"`
	KubeletVersions Range    `json:"kubeletVersions"`
}

// PodStatusRules are the version-dependent parts of the pod status.
type PodStatusRules struct {
	ReadyToStartContainersCondition Feature `json:"readyToStartContainersCondition"`
	ObservedGeneration              Feature `json:"observedGeneration"`
	TerminalPhaseOnDeletion         Feature `json:"terminalPhaseOnDeletion"`
}

var defaultRules = func() *Rules {
	r, err := Load(files)
	if err != nil {
		panic(fmt.Sprintf("simnode/rules: embedded tables are invalid: %v", err))
	}
	return r
}()

// Default returns the embedded tables, loaded and validated at init.
func Default() *Rules { return defaultRules }

// FS is what Load reads the tables from.
type FS interface {
	ReadFile(name string) ([]byte, error)
}

// Files are the tables Load reads, in order.
var Files = []string{"nodes.yaml", "conditions.yaml", "admission.yaml", "events.yaml", "runtime.yaml", "http.yaml", "shutdown.yaml"}

// Load reads the tables (Files) from fsys and validates them.
func Load(fsys FS) (*Rules, error) {
	r := &Rules{}
	for _, name := range Files {
		data, err := fsys.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", name, err)
		}
		if err := yaml.UnmarshalStrict(data, r); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	if err := r.validate(); err != nil {
		return nil, err
	}
	return r, nil
}

// checkCites: every rule cites at least one row, and only rows of the
// behaviour catalog (simnode/facts).
func checkCites(what string, cites []string) error {
	if len(cites) == 0 {
		return fmt.Errorf("%s: cites no spec row", what)
	}
	if err := facts.CheckCites(cites); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// versionsToCheck are the versions at which overlap and coverage of the
// versioned tables is checked: every boundary of every range plus the
// supported minimum.
func (r *Rules) boundaries() []*version.Version {
	seen := map[string]bool{MinKubeletVersion: true}
	add := func(rg Range) {
		seen[rg.Since] = true
		if rg.Until != "" {
			seen[rg.Until] = true
		}
	}
	for _, s := range r.LabelSets {
		add(s.KubeletVersions)
	}
	for _, c := range r.ConditionSets {
		add(c.KubeletVersions)
	}
	for _, a := range r.Admission {
		add(a.KubeletVersions)
	}
	for _, e := range r.Events {
		for _, v := range e.Variants {
			add(v.KubeletVersions)
		}
	}
	var out []*version.Version
	for s := range seen {
		out = append(out, version.MustParseSemantic(s))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].LessThan(out[j]) })
	return out
}

func (r *Rules) validate() error {
	// Every problem of every table is reported, not only the first.
	var errs []error
	for _, table := range [][]error{
		r.validateLabels(),
		r.validateProfiles(),
		r.validateConditions(),
		r.validateAdmission(),
		r.validateEvents(),
		r.validateOthers(),
	} {
		errs = append(errs, table...)
	}
	if len(errs) > 0 {
		// Coverage needs every version range compiled.
		return errors.Join(errs...)
	}
	return errors.Join(r.validateCoverage()...)
}

// validateLabels checks the kubelet's own node labels (N1, N2).
func (r *Rules) validateLabels() []error {
	var errs []error
	// Labels.
	sample := LabelData{OS: facts.Windows, Arch: "amd64", Hostname: "h", Build: "10.0.1"}
	for i := range r.LabelSets {
		s := &r.LabelSets[i]
		what := fmt.Sprintf("labelSets[%d] %s", i, s.ID)
		if err := checkCites(what, s.Cites); err != nil {
			errs = append(errs, err)
			continue
		}
		if err := s.KubeletVersions.compile(); err != nil {
			errs = append(errs, fmt.Errorf("%s: kubeletVersions: %w", what, err))
			continue
		}
		if len(s.OS) == 0 || len(s.Labels) == 0 {
			errs = append(errs, fmt.Errorf("%s: needs os and labels", what))
			continue
		}
		for _, o := range s.OS {
			if err := o.Check(); err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", what, err))
				continue
			}
		}
		s.templates = map[string]*template.Template{}
		for k, v := range s.Labels {
			t, err := template.New(k).Option("missingkey=error").Parse(v)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: label %s: %w", what, k, err))
				continue
			}
			if err := t.Execute(&bytes.Buffer{}, sample); err != nil {
				errs = append(errs, fmt.Errorf("%s: label %s: %w", what, k, err))
				continue
			}
			s.templates[k] = t
		}
	}
	return errs
}

// validateProfiles checks the node profiles (N3) and default capacities.
func (r *Rules) validateProfiles() []error {
	var errs []error
	// Profiles.
	ids := map[string]bool{}
	builds := map[string]bool{}
	for i, p := range r.Profiles {
		what := fmt.Sprintf("profiles[%d] %s", i, p.ID)
		if err := checkCites(what, p.Cites); err != nil {
			errs = append(errs, err)
			continue
		}
		if ids[p.ID] {
			errs = append(errs, fmt.Errorf("%s: duplicate id", what))
			continue
		}
		ids[p.ID] = true
		if err := p.OS.Check(); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", what, err))
			continue
		}
		if p.ContainerRuntimeVersion == "" {
			// N3: the OS's containerd unless the profile names another.
			p.ContainerRuntimeVersion = p.OS.ContainerRuntimeVersion()
			r.Profiles[i].ContainerRuntimeVersion = p.ContainerRuntimeVersion
		}
		if p.OSImage == "" || p.KernelVersion == "" {
			errs = append(errs, fmt.Errorf("%s: osImage and kernelVersion are required", what))
			continue
		}
		if p.MachineID != "hostname" && p.MachineID != "hash" {
			errs = append(errs, fmt.Errorf("%s: machineID must be hostname or hash, not %q", what, p.MachineID))
			continue
		}
		if p.OS.IsWindows() {
			// N3: kernelVersion is <build>.<UBR>.
			if p.Build == "" || !strings.HasPrefix(p.KernelVersion, p.Build+".") {
				errs = append(errs, fmt.Errorf("%s: kernelVersion %q must be <build>.<UBR> of build %q (N3)", what, p.KernelVersion, p.Build))
				continue
			}
			if builds[p.Build] {
				errs = append(errs, fmt.Errorf("%s: duplicate build %s", what, p.Build))
				continue
			}
			builds[p.Build] = true
		}
	}
	for _, os := range facts.OSes {
		if _, err := r.Profile(os, ""); os.IsLinux() && err != nil {
			errs = append(errs, err)
			continue
		}
		c, ok := r.DefaultCapacity[os]
		if !ok {
			errs = append(errs, fmt.Errorf("defaultCapacity: missing %s", os))
			continue
		}
		for _, res := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourcePods, corev1.ResourceEphemeralStorage} {
			if _, ok := c[res]; !ok {
				errs = append(errs, fmt.Errorf("defaultCapacity.%s: missing %s", os, res))
				continue
			}
		}
	}
	return errs
}

// validateConditions checks the node condition sets (N6, N7).
func (r *Rules) validateConditions() []error {
	var errs []error
	// Conditions.
	for i := range r.ConditionSets {
		c := &r.ConditionSets[i]
		what := fmt.Sprintf("conditionSets[%d] %s", i, c.ID)
		if err := checkCites(what, c.Cites); err != nil {
			errs = append(errs, err)
			continue
		}
		if err := c.OS.Check(); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", what, err))
			continue
		}
		if err := c.KubeletVersions.compile(); err != nil {
			errs = append(errs, fmt.Errorf("%s: kubeletVersions: %w", what, err))
			continue
		}
		if len(c.Conditions) == 0 || c.Conditions[len(c.Conditions)-1].Type != corev1.NodeReady {
			errs = append(errs, fmt.Errorf("%s: Ready must be the last condition (setters.go ReadyCondition)", what))
			continue
		}
		for _, cond := range c.Conditions {
			if cond.Type == "" || cond.Status == "" || cond.Reason == "" || cond.Message == "" {
				errs = append(errs, fmt.Errorf("%s: condition %q needs type, status, reason and message", what, cond.Type))
				continue
			}
		}
	}
	if c := r.MemoryPressureTrue; c.Type != corev1.NodeMemoryPressure || c.Status != corev1.ConditionTrue || c.Reason == "" || c.Message == "" {
		errs = append(errs, fmt.Errorf("conditions.yaml: memoryPressureTrue must be a MemoryPressure condition with status True, reason and message"))
	}
	if c := r.DiskPressureTrue; c.Type != corev1.NodeDiskPressure || c.Status != corev1.ConditionTrue || c.Reason == "" || c.Message == "" {
		errs = append(errs, fmt.Errorf("conditions.yaml: diskPressureTrue must be a DiskPressure condition with status True, reason and message"))
	}
	return errs
}

// validateAdmission checks the kubelet admission rules (B1-B3).
func (r *Rules) validateAdmission() []error {
	var errs []error
	// Admission.
	for i := range r.Admission {
		a := &r.Admission[i]
		what := fmt.Sprintf("admission rules[%d] %s", i, a.ID)
		if err := checkCites(what, a.Cites); err != nil {
			errs = append(errs, err)
			continue
		}
		if _, ok := admissionChecks[a.Check]; !ok {
			errs = append(errs, fmt.Errorf("%s: unknown check %q", what, a.Check))
			continue
		}
		if a.Reason == "" || a.Message == "" {
			errs = append(errs, fmt.Errorf("%s: reason and message are required", what))
			continue
		}
		if err := a.KubeletVersions.compile(); err != nil {
			errs = append(errs, fmt.Errorf("%s: kubeletVersions: %w", what, err))
			continue
		}
	}
	if r.StatusMessagePrefix == "" {
		errs = append(errs, fmt.Errorf("admission.yaml: statusMessagePrefix is required"))
	}
	return errs
}

// validateEvents checks the pod and node events and pod status features.
func (r *Rules) validateEvents() []error {
	var errs []error
	// Events.
	evIDs := map[string]bool{}
	sampleEv := EventData{Container: "c", Image: "i", PullDuration: "1s", TotalDuration: "1s", ImageSize: 1, Message: "m", Pod: "p_ns(u)", Probe: "Liveness"}
	for i := range r.Events {
		e := &r.Events[i]
		what := fmt.Sprintf("events[%d] %s", i, e.ID)
		if err := checkCites(what, e.Cites); err != nil {
			errs = append(errs, err)
			continue
		}
		if evIDs[e.ID] {
			errs = append(errs, fmt.Errorf("%s: duplicate id", what))
			continue
		}
		evIDs[e.ID] = true
		if e.Type != corev1.EventTypeNormal && e.Type != corev1.EventTypeWarning {
			errs = append(errs, fmt.Errorf("%s: type must be Normal or Warning", what))
			continue
		}
		if e.Reason == "" || len(e.Variants) == 0 {
			errs = append(errs, fmt.Errorf("%s: reason and variants are required", what))
			continue
		}
		for j := range e.Variants {
			v := &e.Variants[j]
			if err := v.KubeletVersions.compile(); err != nil {
				errs = append(errs, fmt.Errorf("%s: variants[%d]: %w", what, j, err))
				continue
			}
			t, err := template.New(e.ID).Option("missingkey=error").Parse(v.Message)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: variants[%d]: %w", what, j, err))
				continue
			}
			if err := t.Execute(&bytes.Buffer{}, sampleEv); err != nil {
				errs = append(errs, fmt.Errorf("%s: variants[%d]: %w", what, j, err))
				continue
			}
			v.tmpl = t
		}
	}
	for _, id := range []string{EventPulling, EventPulled, EventAlreadyPresent, EventCreated, EventStarted, EventKilling,
		EventFailedPull, EventError, EventPullBackOff, EventNeverPull, EventBackOff, EventSandboxFailed, EventFailedMount,
		EventUnhealthy, EventProbeWarning, EventKillingBecause, EventPostStartFailed, EventPreStopFailed, EventImageFallback} {
		if !evIDs[id] {
			errs = append(errs, fmt.Errorf("events.yaml: missing event %q", id))
		}
	}
	for name, f := range map[string]*Feature{
		"readyToStartContainersCondition": &r.PodStatus.ReadyToStartContainersCondition,
		"observedGeneration":              &r.PodStatus.ObservedGeneration,
		"terminalPhaseOnDeletion":         &r.PodStatus.TerminalPhaseOnDeletion,
	} {
		if err := checkCites("podStatus."+name, f.Cites); err != nil {
			errs = append(errs, err)
		}
		if err := f.KubeletVersions.compile(); err != nil {
			errs = append(errs, fmt.Errorf("podStatus.%s: %w", name, err))
		}
	}
	for i := range r.NodeEvents {
		e := &r.NodeEvents[i]
		what := fmt.Sprintf("nodeEvents[%d] %s", i, e.ID)
		if err := checkCites(what, e.Cites); err != nil {
			errs = append(errs, err)
			continue
		}
		if e.When != "start" && e.When != "registered" {
			errs = append(errs, fmt.Errorf("%s: when must be start or registered, not %q", what, e.When))
			continue
		}
		if e.Reason == "" || e.Message == "" || len(e.OS) == 0 {
			errs = append(errs, fmt.Errorf("%s: os, reason and message are required", what))
			continue
		}
		for _, o := range e.OS {
			if err := o.Check(); err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", what, err))
				continue
			}
		}
		t, err := template.New(e.ID).Option("missingkey=error").Parse(e.Message)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", what, err))
			continue
		}
		if err := t.Execute(&bytes.Buffer{}, struct{ Node string }{"n"}); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", what, err))
			continue
		}
		e.tmpl = t
	}
	for _, os := range facts.OSes {
		if _, ok := r.KilledExitCode[os]; !ok {
			errs = append(errs, fmt.Errorf("events.yaml: killedExitCode.%s missing", os))
			continue
		}
	}
	return errs
}

// validateOthers checks runtime.yaml, http.yaml and shutdown.yaml.
func (r *Rules) validateOthers() []error {
	var errs []error
	if err := r.Runtime.compile(); err != nil {
		errs = append(errs, fmt.Errorf("runtime.yaml: %w", err))
	}
	if err := compileHTTP(r.HTTPResponses); err != nil {
		errs = append(errs, fmt.Errorf("http.yaml: %w", err))
	}
	if err := r.NodeShutdown.compile(); err != nil {
		errs = append(errs, fmt.Errorf("shutdown.yaml: %w", err))
	}
	if err := r.Reboot.compile(); err != nil {
		errs = append(errs, fmt.Errorf("shutdown.yaml: %w", err))
	}
	return errs
}

// validateCoverage checks that every versioned table answers exactly once for every supported version.
func (r *Rules) validateCoverage() []error {
	var errs []error
	// Coverage: every versioned table answers exactly once for every
	// supported version (checked at every range boundary).
	for _, v := range r.boundaries() {
		for _, os := range facts.OSes {
			if _, err := r.conditionSet(os, v); err != nil {
				errs = append(errs, err)
				continue
			}
		}
		for _, e := range r.Events {
			n := 0
			for _, variant := range e.Variants {
				if variant.KubeletVersions.Contains(v) {
					n++
				}
			}
			if n != 1 {
				errs = append(errs, fmt.Errorf("events %s: %d variants match kubelet %s, want exactly 1", e.ID, n, v))
				continue
			}
		}
	}
	return errs
}

// ParseKubeletVersion parses v (with or without the leading "v") and checks
// that the tables cover it.
func ParseKubeletVersion(v string) (*version.Version, error) {
	pv, err := version.ParseGeneric(v)
	if err != nil {
		return nil, fmt.Errorf("kubelet version %q: %w", v, err)
	}
	if pv.LessThan(version.MustParseSemantic(MinKubeletVersion)) {
		return nil, fmt.Errorf("kubelet version %q is older than %s, the oldest the simnode rules describe", v, MinKubeletVersion)
	}
	return pv, nil
}

// LabelData is what label templates see.
type LabelData struct {
	OS                    facts.OS
	Arch, Hostname, Build string
}

// NodeLabels returns the kubelet's own labels for a node (N1, N2).
func (r *Rules) NodeLabels(os facts.OS, kubelet *version.Version, d LabelData) (map[string]string, error) {
	out := map[string]string{}
	for _, s := range r.LabelSets {
		if !s.KubeletVersions.Contains(kubelet) || !slices.Contains(s.OS, os) {
			continue
		}
		for k, t := range s.templates {
			var b bytes.Buffer
			if err := t.Execute(&b, d); err != nil {
				return nil, fmt.Errorf("label set %s, label %s: %w", s.ID, k, err)
			}
			out[k] = b.String()
		}
	}
	return out, nil
}

// Profile returns the OS image profile for os and (for windows) build.
func (r *Rules) Profile(os facts.OS, build string) (*Profile, error) {
	for i, p := range r.Profiles {
		if p.OS != os {
			continue
		}
		if os.IsWindows() && p.Build != build {
			continue
		}
		return &r.Profiles[i], nil
	}
	return nil, fmt.Errorf("no node profile for os %q build %q (nodes.yaml)", os, build)
}

// ConditionSet returns the node conditions for os at kubelet version v.
func (r *Rules) ConditionSet(os facts.OS, v *version.Version) (*ConditionSet, error) {
	return r.conditionSet(os, v)
}

func (r *Rules) conditionSet(os facts.OS, v *version.Version) (*ConditionSet, error) {
	var found *ConditionSet
	for i, c := range r.ConditionSets {
		if c.OS == os && c.KubeletVersions.Contains(v) {
			if found != nil {
				return nil, fmt.Errorf("conditionSets %s and %s both match %s kubelet %s", found.ID, c.ID, os, v)
			}
			found = &r.ConditionSets[i]
		}
	}
	if found == nil {
		return nil, fmt.Errorf("no conditionSet for %s kubelet %s (conditions.yaml)", os, v)
	}
	return found, nil
}

// Event IDs in events.yaml.
const (
	EventPulling        = "pulling"
	EventPulled         = "pulled"
	EventAlreadyPresent = "already-present"
	EventCreated        = "created"
	EventStarted        = "started"
	EventKilling        = "killing"

	EventFailedPull      = "failed-pull"
	EventError           = "error"
	EventPullBackOff     = "pull-backoff"
	EventNeverPull       = "never-pull"
	EventBackOff         = "backoff"
	EventSandboxFailed   = "sandbox-failed"
	EventFailedMount     = "failed-mount"
	EventUnhealthy       = "unhealthy"
	EventProbeWarning    = "probe-warning"
	EventKillingBecause  = "killing-because"
	EventPostStartFailed = "post-start-failed"
	EventPreStopFailed   = "pre-stop-failed"
	// EventImageFallback is wink's: a registry that did not answer (B4).
	EventImageFallback = "image-metadata-fallback"
)

// EventData is what event message templates see.
type EventData struct {
	Container     string
	Image         string
	PullDuration  string
	TotalDuration string
	ImageSize     int64
	// Message is an error or a reason text; Pod is format.Pod
	// (<name>_<namespace>(<uid>)); Probe is Liveness, Readiness or Startup.
	Message string
	Pod     string
	Probe   string
}

// Event renders event id for kubelet version v: its type, reason and message.
func (r *Rules) Event(id string, v *version.Version, d EventData) (eventType, reason, message string, err error) {
	for _, e := range r.Events {
		if e.ID != id {
			continue
		}
		for _, variant := range e.Variants {
			if !variant.KubeletVersions.Contains(v) {
				continue
			}
			var b bytes.Buffer
			if err := variant.tmpl.Execute(&b, d); err != nil {
				return "", "", "", fmt.Errorf("event %s: %w", id, err)
			}
			return e.Type, e.Reason, b.String(), nil
		}
		return "", "", "", fmt.Errorf("event %s: no variant for kubelet %s", id, v)
	}
	return "", "", "", fmt.Errorf("unknown event %q", id)
}

// RenderedNodeEvent is a node event ready to record.
type RenderedNodeEvent struct {
	Reason, Message string
}

// NodeEventsFor returns, in table order, the Normal events a kubelet on os
// records about node name when it starts, plus those of a first
// registration when registered is true.
func (r *Rules) NodeEventsFor(os facts.OS, name string, registered bool) []RenderedNodeEvent {
	var out []RenderedNodeEvent
	for _, e := range r.NodeEvents {
		if !slices.Contains(e.OS, os) || (e.When == "registered" && !registered) {
			continue
		}
		var b bytes.Buffer
		_ = e.tmpl.Execute(&b, struct{ Node string }{name}) // checked in validate
		out = append(out, RenderedNodeEvent{Reason: e.Reason, Message: b.String()})
	}
	return out
}

// ParseThreshold evaluates an eviction threshold value ("500Mi" or "10%")
// against a capacity, as pkg/kubelet/eviction/api GetThresholdQuantity does.
func ParseThreshold(v string, capacity resource.Quantity) (resource.Quantity, error) {
	if strings.HasSuffix(v, "%") {
		var pct float64
		if _, err := fmt.Sscanf(strings.TrimSuffix(v, "%"), "%g", &pct); err != nil {
			return resource.Quantity{}, fmt.Errorf("threshold %q: %w", v, err)
		}
		if pct < 0 || pct > 100 {
			return resource.Quantity{}, fmt.Errorf("threshold %q: percentage out of range", v)
		}
		// The kubelet parses the percentage as a float32 fraction
		// (eviction/helpers.go parsePercentage), hence the float32 here.
		frac := float32(pct) / 100
		return *resource.NewQuantity(int64(float64(capacity.Value())*float64(frac)), resource.BinarySI), nil
	}
	q, err := resource.ParseQuantity(v)
	if err != nil {
		return resource.Quantity{}, fmt.Errorf("threshold %q: %w", v, err)
	}
	return q, nil
}
