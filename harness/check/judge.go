package check

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"

	"wink.dev/wink/reports"
	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/simnode/shell/process"
)

// Labels the judging reads from nodes and pod selectors.
const (
	labelOS     = facts.LabelOS     // kubernetes.io/os
	labelBetaOS = facts.LabelBetaOS // beta.kubernetes.io/os
	labelBuild  = corev1.LabelWindowsBuild
	// windowsGroup starts the node group of a Windows node ("windows/<build>").
	windowsGroup  = string(facts.Windows) + "/"
	msgNoPlatform = "no match for platform in manifest"
)

// Workload is one workload of a chart as the cluster has it.
type Workload struct {
	Kind      string
	Namespace string
	Name      string
	// Template is its pod template (a bare Pod's spec for a Pod); nil
	// when it has none.
	Template *corev1.PodTemplateSpec
	// Hook is the Helm hook it runs as ("pre-install", "test", ...), "" for
	// a workload of the release.
	Hook string
	// Want is how many pods it should have when settled (replicas, or a
	// DaemonSet's desiredNumberScheduled); -1 when not known (Jobs).
	Want int32
	// Observed: the controller has seen the current spec (a DaemonSet's
	// observedGeneration), so Want is the controller's answer.
	Observed bool
	// Complete and Failed are a Job's conditions (Failed is its message).
	Complete bool
	Failed   string
	// Missing: the workload is not in the cluster (the install failed
	// before it was created).
	Missing bool
	// Controllers are the names of the objects whose FailedCreate events
	// refuse this workload's pods: itself, and a Deployment's ReplicaSets.
	Controllers []string
	// Owners are the kind/name owner references its pods carry.
	Owners []string
}

// ImageCatalog says which Windows builds an image was published for
// (simnode/images.Catalog.WindowsBuilds): known with no builds is a
// Linux-only image.
type ImageCatalog interface {
	WindowsBuilds(ref string) (builds []string, known bool)
}

// Observation is what a cluster did with one chart on one platform: the
// input of Judge.
type Observation struct {
	Platform  string
	Chart     string
	Release   string
	Workloads []Workload
	Pods      []corev1.Pod
	Events    []corev1.Event
	Nodes     []corev1.Node
	// HookErrors are Helm's errors for hooks and tests, by "Kind/Name".
	HookErrors map[string]string
	// Refused are the apiserver's refusals of the workloads themselves
	// (a DaemonSet whose pod template is invalid), by "Kind/Name", as
	// Helm's install error quotes them.
	Refused map[string]string
	// InstallError is Helm's install error, "" when it succeeded.
	InstallError string
	Expect       *Expectations
	Images       ImageCatalog
	// WindowsTaintKeys maps the key of every platform profile's Windows
	// taint to the platforms that use it, for fixes that hold everywhere.
	WindowsTaintKeys map[string][]string
	// Final: the wait is over; what has not settled is a finding.
	Final bool
	// Elapsed since the install, the duration of workloads that settle now.
	Elapsed time.Duration
}

// Judged is one workload judged.
type Judged struct {
	reports.CheckWorkload
	// Settled: every pod is where and how it will stay, or a finding is
	// certain.
	Settled bool
}

// Judge judges every workload of an observation. It is a pure function of
// the objects: Run calls it until every workload has settled, or once more
// with Final set when the time is up.
func Judge(o Observation) []Judged {
	nodes := map[string]*corev1.Node{}
	for i := range o.Nodes {
		nodes[o.Nodes[i].Name] = &o.Nodes[i]
	}
	var out []Judged
	for _, w := range o.Workloads {
		out = append(out, judgeWorkload(o, w, nodes))
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		if a.Namespace != b.Namespace {
			return a.Namespace < b.Namespace
		}
		return a.Name < b.Name
	})
	return out
}

func judgeWorkload(o Observation, w Workload, nodes map[string]*corev1.Node) Judged {
	exp := o.Expect.For(w.Kind, w.Namespace, w.Name)
	j := Judged{CheckWorkload: reports.CheckWorkload{
		Chart: o.Chart, Release: o.Release, Kind: w.Kind, Namespace: w.Namespace, Name: w.Name,
		Platform: o.Platform, Expected: exp.String(),
	}}
	var spec *corev1.PodSpec
	if w.Template != nil {
		spec = &w.Template.Spec
		j.OS = TargetOS(spec)
	}
	intended := j.OS
	if exp != nil && exp.OS != "" {
		intended = exp.OS
	}
	certain := false
	add := func(f reports.Finding) {
		if f.Severity == "" {
			f.Severity = reports.SeverityError
		}
		// An error finding is certain even when --expect accepts it: the
		// workload will not get better by waiting.
		sure := f.Severity == reports.SeverityError && f.Code != CodeNotReady
		if exp.allows(f.Code) {
			f.Severity = reports.SeverityWarning
			f.Message += " (allowed by --expect)"
		}
		for _, have := range j.Findings {
			if have.Code == f.Code && have.Message == f.Message {
				return
			}
		}
		j.Findings = append(j.Findings, f)
		certain = certain || sure
	}

	if msg, ok := o.HookErrors[w.Kind+"/"+w.Name]; ok {
		what := "hook"
		if w.Hook == "test" {
			what = "`helm test` hook"
		}
		add(reports.Finding{Code: CodeHookFailed, Message: fmt.Sprintf("%s %s %s failed: %s", what, w.Kind, w.Name, msg),
			Fix: "see the pod's logs and events below; a hook must complete for `helm install` (or `helm test`) to succeed"})
	}

	// Refused by the apiserver: the workload itself, as helm install said.
	if msg, ok := o.Refused[w.Kind+"/"+w.Name]; ok {
		add(reports.Finding{Code: CodeRefusedAPIServer, Message: msg, Rows: rowsOfRefusal(msg),
			Fix: "change the pod template so the apiserver accepts it: the message names the field"})
	} else if w.Missing && o.InstallError != "" && w.Hook == "" {
		add(reports.Finding{Code: CodeInstallFailed, Message: fmt.Sprintf("%s %s was not created: helm install failed: %s", w.Kind, w.Name, o.InstallError),
			Fix: "fix what the install error names; the other workloads of the release are judged as installed"})
	}

	// Refused by the apiserver: the controller could not create pods.
	for _, ev := range o.Events {
		if ev.Reason != "FailedCreate" || ev.InvolvedObject.Namespace != w.Namespace || !slices.Contains(w.Controllers, ev.InvolvedObject.Name) {
			continue
		}
		add(reports.Finding{Code: CodeRefusedAPIServer, Message: ev.Message, Rows: rowsOfRefusal(ev.Message),
			Fix: "change the pod template so the apiserver accepts it: the message names the field"})
	}

	pods := podsOf(o.Pods, w)
	placement := map[string]int{}
	allGood := len(pods) > 0
	for i := range pods {
		p := &pods[i]
		group, node := "", nodes[p.Spec.NodeName]
		if node != nil {
			group = nodeGroup(node)
			placement[placementKey(group)]++
		}
		good, findings := judgePod(o, w, p, node, group, intended, exp)
		for _, f := range findings {
			add(f)
		}
		allGood = allGood && good
	}
	if len(placement) > 0 {
		j.Placement = placement
	}

	// A DaemonSet for Windows nodes with no pod on any of them.
	if w.Kind == "DaemonSet" && spec != nil && j.OS.IsWindows() && w.Observed && !exp.notOn(string(facts.Windows)) && !intended.IsLinux() {
		onWindows := 0
		for k, n := range placement {
			if strings.HasPrefix(k, windowsGroup) {
				onWindows += n
			}
		}
		winNodes := windowsNodes(o.Nodes)
		if onWindows == 0 && w.Want == 0 && len(winNodes) > 0 {
			taints := untolerated(spec, winNodes)
			msg := fmt.Sprintf("DaemonSet %s targets Windows nodes and has no pod on any of the %d Windows node(s): desiredNumberScheduled is 0", w.Name, len(winNodes))
			fix := "give the pod template a selector the Windows nodes have"
			if len(taints) > 0 {
				msg += "; the Windows nodes of " + o.Platform + " have the taint(s) " + strings.Join(taints, ", ") + " the pod template does not tolerate"
				fix = tolerationFix(o, taints)
			}
			add(reports.Finding{Code: CodeDaemonSetNoPods, Message: msg, Fix: fix, Rows: []string{"N4", "S2"}})
		}
	}

	// Pods where the expectation says none should be.
	if exp != nil {
		for k, n := range placement {
			g := groupOfKey(k)
			if exp.notOn(g) || exp.OS.IsLinux() && strings.HasPrefix(g, windowsGroup) || exp.OS.IsWindows() && g == string(facts.Linux) {
				add(reports.Finding{Code: CodeUnexpectedPods, Message: fmt.Sprintf("%d pod(s) on %s nodes; --expect says %s", n, k, exp.String()),
					Fix: "select the intended nodes (kubernetes.io/os, node.kubernetes.io/windows-build) or correct the --expect file"})
			}
		}
	}

	settled := certain
	switch {
	case settled:
	case w.Kind == "Job" || w.Hook != "":
		settled = w.Complete || w.Failed != "" || allGood && len(pods) > 0 && allSucceeded(pods)
		if w.Failed != "" && !certain {
			add(reports.Finding{Code: CodeContainerFailed, Message: fmt.Sprintf("Job %s failed: %s", w.Name, w.Failed), Fix: "see its pods' logs"})
		}
	case w.Kind == "CronJob":
		settled = true // judged on the jobs it made, if any
	case w.Kind == "DaemonSet":
		settled = w.Observed && allGood && int32(len(pods)) >= w.Want
		if w.Observed && w.Want == 0 && len(pods) == 0 {
			settled = true // no node for it, and no finding: as intended
		}
	default:
		settled = allGood && (w.Want < 0 || int32(len(pods)) >= w.Want)
	}
	if !settled && o.Final {
		add(reports.Finding{Code: CodeNotReady, Message: fmt.Sprintf("not settled when the time was up: %s", describe(pods, w)),
			Fix: "see the pods' events; raise --timeout if the workload needs longer to start"})
		settled = true
	}
	j.Settled = settled
	if settled {
		j.Duration = o.Elapsed.Seconds()
	}
	return j
}

// judgePod judges one pod: good when it runs (Running and Ready, or
// Succeeded), and its findings.
func judgePod(o Observation, w Workload, p *corev1.Pod, node *corev1.Node, group string, intended facts.OS, exp *Expectation) (bool, []reports.Finding) {
	var out []reports.Finding
	podRef := p.Name
	// Refused by the kubelet (B1-B3 and the other admission checks).
	if p.Status.Phase == corev1.PodFailed && p.Status.Reason != "" && strings.HasPrefix(p.Status.Message, "Pod was rejected") {
		out = append(out, reports.Finding{Code: CodeRefusedKubelet, Pod: podRef, Rows: rowsOfKubeletReason(p.Status.Reason),
			Message: fmt.Sprintf("the kubelet of %s refused the pod: %s: %s", p.Spec.NodeName, p.Status.Reason, p.Status.Message),
			Fix:     "select nodes whose OS and labels match the pod (kubernetes.io/os, spec.os.name)"})
		return false, out
	}
	if p.Spec.NodeName == "" {
		cond := podCondition(p, corev1.PodScheduled)
		if cond == nil || cond.Status != corev1.ConditionFalse || cond.Reason != corev1.PodReasonUnschedulable {
			return false, nil // not yet looked at by the scheduler
		}
		out = append(out, pendingFinding(o, w, p, cond.Message))
		return false, out
	}
	// A pod with no OS selector on a Windows node.
	noOSOnWindows := false
	if strings.HasPrefix(group, windowsGroup) && TargetOS(&p.Spec) == "" && !intended.IsWindows() && intended != osAny && !exp.notOn(group) {
		f := reports.Finding{Code: CodeLinuxOnWindows, Pod: podRef, Rows: []string{"S2", "B4"},
			Fix: "add nodeSelector kubernetes.io/os: linux to the pod template (the chart's nodeSelector value), or declare os: windows/any in --expect if it is meant for Windows"}
		failed := pullFailure(p)
		switch {
		case failed != "":
			f.Message = fmt.Sprintf("%s %s has no kubernetes.io/os selector; pod %s landed on Windows node %s and its pull fails: %s", w.Kind, w.Name, p.Name, p.Spec.NodeName, failed)
		case linuxOnly(o.Images, p) != "":
			f.Message = fmt.Sprintf("%s %s has no kubernetes.io/os selector; pod %s landed on Windows node %s and its image %s has no Windows variant, so its pull would fail on a real node", w.Kind, w.Name, p.Name, p.Spec.NodeName, linuxOnly(o.Images, p))
		default:
			f.Severity = reports.SeverityWarning
			f.Message = fmt.Sprintf("%s %s has no kubernetes.io/os selector; pod %s landed on Windows node %s: a Linux image fails to pull there", w.Kind, w.Name, p.Name, p.Spec.NodeName)
		}
		out = append(out, f)
		noOSOnWindows = true
		if f.Severity == reports.SeverityError {
			return false, out
		}
	}
	for _, s := range allStatuses(p) {
		if wt := s.State.Waiting; wt != nil {
			switch wt.Reason {
			case "ErrImagePull", "ImagePullBackOff":
				if noOSOnWindows {
					continue // reported above as a pod with no OS selector
				}
				if strings.Contains(wt.Message, msgNoPlatform) && strings.HasPrefix(group, windowsGroup) {
					out = append(out, reports.Finding{Code: CodeNoImageForBuild, Pod: podRef, Rows: []string{"B4"},
						Message: fmt.Sprintf("container %s of pod %s on %s (Windows Server %s): %s: %s", s.Name, p.Name, p.Spec.NodeName, buildYear(node), wt.Reason, wt.Message),
						Fix:     "publish the image for this Windows build (a manifest list with an entry per os.version), or select only the builds it has with node.kubernetes.io/windows-build"})
					continue
				}
				out = append(out, reports.Finding{Code: CodeImagePull, Pod: podRef, Rows: []string{"B4"},
					Message: fmt.Sprintf("container %s of pod %s on %s: %s: %s", s.Name, p.Name, p.Spec.NodeName, wt.Reason, wt.Message),
					Fix:     "check the image reference, its platforms and the pull secrets"})
			case "CrashLoopBackOff":
				last := ""
				if t := s.LastTerminationState.Terminated; t != nil {
					last = fmt.Sprintf("; last exit code %d (%s)", t.ExitCode, t.Reason)
					if m := strings.TrimSpace(t.Message); m != "" {
						last += ": " + m
					}
				}
				out = append(out, reports.Finding{Code: CodeCrashLoop, Pod: podRef, Rows: []string{"B13"},
					Message: fmt.Sprintf("container %s of pod %s on %s: CrashLoopBackOff after %d restart(s): %s%s", s.Name, p.Name, p.Spec.NodeName, s.RestartCount, wt.Message, last),
					Fix:     "see `kubectl logs --previous`: the container's command exits on this node"})
			case "CreateContainerConfigError", "CreateContainerError", "RunContainerError", "InvalidImageName", "ErrImageNeverPull":
				out = append(out, reports.Finding{Code: CodeContainerFailed, Pod: podRef,
					Message: fmt.Sprintf("container %s of pod %s on %s: %s: %s", s.Name, p.Name, p.Spec.NodeName, wt.Reason, wt.Message),
					Fix:     "the kubelet's message names what is missing or wrong"})
			}
		}
		if t := s.State.Terminated; t != nil && (t.Reason == "StartError" || t.ExitCode != 0 && p.Status.Phase == corev1.PodFailed) {
			msg := fmt.Sprintf("container %s of pod %s on %s: %s, exit code %d", s.Name, p.Name, p.Spec.NodeName, t.Reason, t.ExitCode)
			if m := strings.TrimSpace(t.Message); m != "" {
				msg += ": " + m
			}
			out = append(out, reports.Finding{Code: CodeContainerFailed, Pod: podRef, Message: msg,
				Fix: "see `kubectl logs`: the container's command fails on this node"})
		}
	}
	// What the pod's containers ran that wink does not simulate (issue 18:
	// the NotSimulated events of simnode): a warning, never a finding,
	// since wink did not judge what it did.
	for _, ev := range o.Events {
		if ev.Reason != process.NotSimulatedReason || ev.InvolvedObject.Namespace != p.Namespace || ev.InvolvedObject.Name != p.Name {
			continue
		}
		if c, what, ok := process.ParseNotSimulated(ev.Message); ok {
			out = append(out, reports.Finding{Severity: reports.SeverityWarning, Code: CodeNotSimulated, Pod: podRef,
				Message: fmt.Sprintf("not judged: the script of %s uses %s", c, what),
				Fix:     "nothing to change if it works on a real node: wink ran it as the open world does (an in-box program succeeds silently, another runs until stopped) without judging its effect"})
		}
	}
	if len(out) > 0 {
		for _, f := range out {
			if f.Severity != reports.SeverityWarning {
				return false, out
			}
		}
	}
	if p.Status.Phase == corev1.PodSucceeded {
		return true, out
	}
	ready := podCondition(p, corev1.PodReady)
	return p.Status.Phase == corev1.PodRunning && ready != nil && ready.Status == corev1.ConditionTrue, out
}

// pendingFinding explains a pod the scheduler could not place.
func pendingFinding(o Observation, w Workload, p *corev1.Pod, msg string) reports.Finding {
	f := reports.Finding{Pod: p.Name, Rows: []string{"A17"}}
	switch {
	case strings.Contains(msg, "untolerated taint"):
		f.Code = CodePending
		taints := untolerated(&p.Spec, selectedNodes(&p.Spec, o.Nodes))
		f.Message = fmt.Sprintf("pod %s is Pending: %s", p.Name, msg)
		if len(taints) > 0 {
			f.Message += fmt.Sprintf(" (on %s, the nodes it selects have the taint(s) %s)", o.Platform, strings.Join(taints, ", "))
			f.Fix = tolerationFix(o, taints)
		} else {
			f.Fix = "tolerate the taints of the nodes the pod is meant for"
		}
		f.Rows = append(f.Rows, "N4", "S2")
	case strings.Contains(msg, "didn't match Pod's node affinity/selector"):
		f.Code = CodePendingSelector
		missing := missingSelector(&p.Spec, o.Nodes)
		f.Message = fmt.Sprintf("pod %s is Pending: %s", p.Name, msg)
		if len(missing) > 0 {
			f.Message += fmt.Sprintf(" (no node of %s has %s)", o.Platform, strings.Join(missing, ", "))
		}
		f.Fix = "select labels the platform's nodes have (kubernetes.io/os, node.kubernetes.io/windows-build), or make the selector a chart value"
	default:
		f.Code = CodePendingOther
		f.Message = fmt.Sprintf("pod %s is Pending: %s", p.Name, msg)
		f.Fix = "the scheduler's message says what no node offers"
	}
	return f
}

// tolerationFix says how to tolerate the taints, and how to tolerate every
// platform's Windows taint at once.
func tolerationFix(o Observation, taints []string) string {
	var keys []string
	for _, t := range taints {
		k, _, _ := strings.Cut(t, "=")
		k, _, _ = strings.Cut(k, ":")
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	var tol []string
	for _, k := range keys {
		tol = append(tol, fmt.Sprintf("{key: %s, operator: Exists, effect: NoSchedule}", k))
	}
	fix := "add tolerations: [" + strings.Join(tol, ", ") + "]"
	var all []string
	allKeys := make([]string, 0, len(o.WindowsTaintKeys))
	for k := range o.WindowsTaintKeys {
		allKeys = append(allKeys, k)
	}
	sort.Strings(allKeys)
	for _, k := range allKeys {
		all = append(all, fmt.Sprintf("%s (%s)", k, strings.Join(o.WindowsTaintKeys[k], ", ")))
	}
	if len(all) > 1 {
		fix += "; to run on every platform, tolerate each platform's Windows taint key with operator Exists: " + strings.Join(all, ", ")
	}
	return fix
}

// TargetOS is the OS a pod spec selects: spec.os.name, else its
// kubernetes.io/os (or beta) nodeSelector (facts.SelectedOS), else windows
// for a node.kubernetes.io/windows-build selector, else the OS every
// required node affinity term selects; "" when it selects none.
func TargetOS(spec *corev1.PodSpec) facts.OS {
	if os := facts.SelectedOS(spec); os != "" {
		return os
	}
	if spec.NodeSelector[labelBuild] != "" {
		return facts.Windows
	}
	a := spec.Affinity
	if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return ""
	}
	var os facts.OS
	for i, term := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
		var t facts.OS
		for _, r := range term.MatchExpressions {
			switch {
			case (r.Key == labelOS || r.Key == labelBetaOS) && r.Operator == corev1.NodeSelectorOpIn && len(r.Values) == 1:
				t = facts.OS(r.Values[0])
			case r.Key == labelBuild && r.Operator == corev1.NodeSelectorOpIn:
				t = facts.Windows
			case (r.Key == labelOS || r.Key == labelBetaOS) && r.Operator == corev1.NodeSelectorOpNotIn && len(r.Values) == 1:
				if facts.OS(r.Values[0]).IsWindows() {
					t = facts.Linux
				} else {
					t = facts.Windows
				}
			}
		}
		if t == "" || i > 0 && t != os {
			return ""
		}
		os = t
	}
	return os
}

// nodeGroup is "windows/<build>" or "linux".
func nodeGroup(n *corev1.Node) string {
	if facts.OS(n.Labels[labelOS]).IsWindows() {
		return windowsGroup + n.Labels[labelBuild]
	}
	return string(facts.Linux)
}

// placementKey is a node group as reports show it: "windows/2022", "linux".
func placementKey(group string) string {
	if b, ok := strings.CutPrefix(group, windowsGroup); ok {
		if y, ok := facts.WindowsServerYear(b); ok {
			return windowsGroup + y
		}
	}
	return group
}

func groupOfKey(k string) string {
	if y, ok := strings.CutPrefix(k, windowsGroup); ok {
		if b, ok := facts.WindowsServerBuild(y); ok {
			return windowsGroup + b
		}
	}
	return k
}

func buildYear(n *corev1.Node) string {
	if n == nil {
		return "?"
	}
	if y, ok := facts.WindowsServerYear(n.Labels[labelBuild]); ok {
		return y
	}
	return n.Labels[labelBuild]
}

func windowsNodes(nodes []corev1.Node) []corev1.Node {
	var out []corev1.Node
	for _, n := range nodes {
		if facts.OS(n.Labels[labelOS]).IsWindows() {
			out = append(out, n)
		}
	}
	return out
}

// selectedNodes are the nodes whose labels match the pod's nodeSelector
// (taints aside).
func selectedNodes(spec *corev1.PodSpec, nodes []corev1.Node) []corev1.Node {
	var out []corev1.Node
	for _, n := range nodes {
		ok := true
		for k, v := range spec.NodeSelector {
			if n.Labels[k] != v {
				ok = false
			}
		}
		if ok {
			out = append(out, n)
		}
	}
	return out
}

// untolerated lists the NoSchedule and NoExecute taints of nodes that the
// pod spec does not tolerate, as key=value:effect, each once.
func untolerated(spec *corev1.PodSpec, nodes []corev1.Node) []string {
	var out []string
	for _, n := range nodes {
		for _, taint := range n.Spec.Taints {
			if taint.Effect == corev1.TaintEffectPreferNoSchedule {
				continue
			}
			tolerated := false
			for _, tol := range spec.Tolerations {
				if tol.ToleratesTaint(klog.Background(), &taint, false) {
					tolerated = true
					break
				}
			}
			s := fmt.Sprintf("%s=%s:%s", taint.Key, taint.Value, taint.Effect)
			if !tolerated && !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// missingSelector lists the nodeSelector entries no node has.
func missingSelector(spec *corev1.PodSpec, nodes []corev1.Node) []string {
	var out []string
	for k, v := range spec.NodeSelector {
		found := false
		for _, n := range nodes {
			found = found || n.Labels[k] == v
		}
		if !found {
			out = append(out, k+"="+v)
		}
	}
	sort.Strings(out)
	return out
}

// podsOf are the pods of a workload, by owner reference.
func podsOf(pods []corev1.Pod, w Workload) []corev1.Pod {
	var out []corev1.Pod
	for _, p := range pods {
		if p.Namespace != w.Namespace || p.DeletionTimestamp != nil {
			continue
		}
		if w.Kind == "Pod" {
			if p.Name == w.Name {
				out = append(out, p)
			}
			continue
		}
		for _, ref := range p.OwnerReferences {
			if slices.Contains(w.Owners, ref.Kind+"/"+ref.Name) {
				out = append(out, p)
				break
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func allStatuses(p *corev1.Pod) []corev1.ContainerStatus {
	return append(slices.Clone(p.Status.InitContainerStatuses), p.Status.ContainerStatuses...)
}

func allSucceeded(pods []corev1.Pod) bool {
	for _, p := range pods {
		if p.Status.Phase != corev1.PodSucceeded {
			return false
		}
	}
	return true
}

func podCondition(p *corev1.Pod, t corev1.PodConditionType) *corev1.PodCondition {
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == t {
			return &p.Status.Conditions[i]
		}
	}
	return nil
}

// pullFailure is the first ErrImagePull/ImagePullBackOff message of a pod.
func pullFailure(p *corev1.Pod) string {
	for _, s := range allStatuses(p) {
		if w := s.State.Waiting; w != nil && (w.Reason == "ErrImagePull" || w.Reason == "ImagePullBackOff") {
			return w.Reason + ": " + w.Message
		}
	}
	return ""
}

// linuxOnly is the first image of the pod the catalog knows to have no
// Windows variant, "" when none.
func linuxOnly(c ImageCatalog, p *corev1.Pod) string {
	if c == nil {
		return ""
	}
	for _, ct := range append(slices.Clone(p.Spec.InitContainers), p.Spec.Containers...) {
		if builds, known := c.WindowsBuilds(ct.Image); known && len(builds) == 0 {
			return ct.Image
		}
	}
	return ""
}

// rowsOfRefusal names the catalog rows an apiserver refusal comes from.
func rowsOfRefusal(msg string) []string {
	switch {
	case strings.Contains(msg, "hostNetwork must be true"):
		return []string{"A8"}
	case strings.Contains(msg, "hostProcess containers"):
		return []string{"A7"}
	case strings.Contains(msg, "cannot be set for a windows pod"):
		return []string{"A2", "A3"}
	case strings.Contains(msg, "windows options cannot be set for a linux pod"):
		return []string{"A4"}
	case strings.Contains(msg, "runtimeClass"):
		return []string{"A16"}
	}
	return nil
}

func rowsOfKubeletReason(reason string) []string {
	switch reason {
	case "PodOSNotSupported":
		return []string{"B1"}
	case "PodOSSelectorNodeLabelDoesNotMatch":
		return []string{"B2"}
	case "NodeAffinity":
		return []string{"B3"}
	}
	return nil
}

// describe is the pods' states in one line, for a workload that did not settle.
func describe(pods []corev1.Pod, w Workload) string {
	if len(pods) == 0 {
		if w.Want > 0 {
			return fmt.Sprintf("%s %s has no pod (want %d)", w.Kind, w.Name, w.Want)
		}
		return fmt.Sprintf("%s %s has no pod", w.Kind, w.Name)
	}
	var parts []string
	for _, p := range pods {
		s := fmt.Sprintf("%s on %q: %s", p.Name, p.Spec.NodeName, p.Status.Phase)
		for _, c := range allStatuses(&p) {
			switch {
			case c.State.Waiting != nil:
				s += fmt.Sprintf("; %s waiting %s", c.Name, c.State.Waiting.Reason)
				if c.State.Waiting.Message != "" {
					s += ": " + c.State.Waiting.Message
				}
			case c.State.Running != nil && !c.Ready:
				s += fmt.Sprintf("; %s running, not ready", c.Name)
			}
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " | ")
}
