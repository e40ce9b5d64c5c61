package check

import (
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"wink.dev/wink/reports"
	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/simnode/shell/process"
)

// Fixtures of the judging tests: a cluster of the generic profile's shape.
func node(name, os, build string, taints ...corev1.Taint) corev1.Node {
	n := corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{labelOS: os}}, Spec: corev1.NodeSpec{Taints: taints}}
	if build != "" {
		n.Labels[labelBuild] = build
	}
	return n
}

var (
	osWindowsTaint  = corev1.Taint{Key: "os", Value: "windows", Effect: corev1.TaintEffectNoSchedule}
	gkeWindowsTaint = corev1.Taint{Key: "node.kubernetes.io/os", Value: "windows", Effect: corev1.TaintEffectNoSchedule}
	genericNodes    = []corev1.Node{
		node("linux-0", "linux", ""),
		node("win2022-0", "windows", "10.0.20348", osWindowsTaint),
		node("win2019-0", "windows", "10.0.17763", osWindowsTaint),
	}
	taintKeys = map[string][]string{"os": {"generic", "eks", "openshift"}, "node.kubernetes.io/os": {"gke"}}
)

func template(mutate func(*corev1.PodSpec)) *corev1.PodTemplateSpec {
	t := &corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "example.com/app:1"}}}}
	if mutate != nil {
		mutate(&t.Spec)
	}
	return t
}

func windowsSelector(s *corev1.PodSpec) { s.NodeSelector = map[string]string{labelOS: "windows"} }

func pod(name, owner, nodeName string, tmpl *corev1.PodTemplateSpec, mutate func(*corev1.Pod)) corev1.Pod {
	p := corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"}, Spec: tmpl.Spec}
	p.Spec.NodeName = nodeName
	if kind, n, ok := strings.Cut(owner, "/"); ok {
		p.OwnerReferences = []metav1.OwnerReference{{Kind: kind, Name: n}}
	}
	p.Status.Phase = corev1.PodRunning
	p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
	p.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "c", Ready: true, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}}
	if mutate != nil {
		mutate(&p)
	}
	return p
}

func waiting(reason, msg string) func(*corev1.Pod) {
	return func(p *corev1.Pod) {
		p.Status.Phase = corev1.PodPending
		p.Status.Conditions = nil
		p.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "c", State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason, Message: msg}}}}
	}
}

type fakeCatalog map[string][]string

func (c fakeCatalog) WindowsBuilds(ref string) ([]string, bool) {
	b, ok := c[ref]
	return b, ok
}

// TestJudge judges workloads from pod, event and node objects alone, one
// case per finding (rows cited in each finding).
func TestJudge(t *testing.T) {
	winTmpl := template(windowsSelector)
	noOS := template(func(s *corev1.PodSpec) {
		s.Tolerations = []corev1.Toleration{{Operator: corev1.TolerationOpExists}}
		s.Containers[0].Image = "busybox:1.36"
	})
	gkeTol := template(func(s *corev1.PodSpec) {
		windowsSelector(s)
		s.Tolerations = []corev1.Toleration{{Key: "node.kubernetes.io/os", Operator: corev1.TolerationOpEqual, Value: "windows", Effect: corev1.TaintEffectNoSchedule}}
	})
	wl := func(kind, name string, tmpl *corev1.PodTemplateSpec, want int32) Workload {
		return Workload{Kind: kind, Namespace: "default", Name: name, Template: tmpl, Want: want, Observed: true,
			Controllers: []string{name}, Owners: []string{kind + "/" + name}}
	}
	unschedulable := func(msg string) func(*corev1.Pod) {
		return func(p *corev1.Pod) {
			p.Spec.NodeName = ""
			p.Status = corev1.PodStatus{Phase: corev1.PodPending, Conditions: []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: corev1.PodReasonUnschedulable, Message: msg}}}
		}
	}
	cases := []struct {
		name     string
		obs      Observation
		code     string // "" for no error finding
		warning  string // a warning's code the workload must have
		settled  bool
		contains []string
	}{{
		name:    "running windows deployment: no finding",
		obs:     Observation{Workloads: []Workload{wl("Deployment", "web", winTmpl, 1)}, Pods: []corev1.Pod{pod("web-1", "Deployment/web", "win2022-0", winTmpl, nil)}},
		settled: true,
	}, {
		name: "pending on an untolerated taint names the taint and every platform's key",
		obs: Observation{Workloads: []Workload{wl("Deployment", "web", winTmpl, 1)}, Pods: []corev1.Pod{pod("web-1", "Deployment/web", "", winTmpl,
			unschedulable("0/3 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 2 node(s) had untolerated taint(s). preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."))}},
		code: CodePending, settled: true,
		contains: []string{"2 node(s) had untolerated taint(s)", "os=windows:NoSchedule", "{key: os, operator: Exists, effect: NoSchedule}", "node.kubernetes.io/os (gke)"},
	}, {
		name: "pending on a selector no node has names it",
		obs: Observation{Workloads: []Workload{wl("Deployment", "web", template(func(s *corev1.PodSpec) {
			s.NodeSelector = map[string]string{labelOS: "windows", labelBuild: "10.0.26100"}
		}), 1)}, Pods: []corev1.Pod{pod("web-1", "Deployment/web", "", winTmpl, func(p *corev1.Pod) {
			p.Spec.NodeSelector = map[string]string{labelOS: "windows", labelBuild: "10.0.26100"}
			unschedulable("0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector.")(p)
		})}},
		code: CodePendingSelector, settled: true, contains: []string{"node.kubernetes.io/windows-build=10.0.26100"},
	}, {
		name: "a Windows DaemonSet tolerating only GKE's key has no pod on eks-shaped nodes",
		obs:  Observation{Platform: "eks", Workloads: []Workload{wl("DaemonSet", "agent", gkeTol, 0)}},
		code: CodeDaemonSetNoPods, settled: true, contains: []string{"DaemonSet agent", "os=windows:NoSchedule", "eks"},
	}, {
		name: "the same DaemonSet on gke-shaped nodes runs",
		obs: Observation{Platform: "gke", Nodes: []corev1.Node{node("linux-0", "linux", ""), node("w-0", "windows", "10.0.20348", gkeWindowsTaint)},
			Workloads: []Workload{wl("DaemonSet", "agent", gkeTol, 1)}, Pods: []corev1.Pod{pod("agent-x", "DaemonSet/agent", "w-0", gkeTol, nil)}},
		settled: true,
	}, {
		name: "a tolerate-all DaemonSet without OS selector failing to pull on Windows",
		obs: Observation{Workloads: []Workload{wl("DaemonSet", "logs", noOS, 3)}, Pods: []corev1.Pod{
			pod("logs-a", "DaemonSet/logs", "linux-0", noOS, nil),
			pod("logs-b", "DaemonSet/logs", "win2022-0", noOS, waiting("ErrImagePull", `failed to pull and unpack image "docker.io/library/busybox:1.36": no match for platform in manifest: not found`)),
		}},
		code: CodeLinuxOnWindows, settled: true, contains: []string{"DaemonSet logs", "win2022-0", "no match for platform in manifest"},
	}, {
		name: "no OS selector, running on Windows, the catalog knows the image is Linux-only",
		obs: Observation{Images: fakeCatalog{"busybox:1.36": nil}, Workloads: []Workload{wl("DaemonSet", "logs", noOS, 1)},
			Pods: []corev1.Pod{pod("logs-b", "DaemonSet/logs", "win2019-0", noOS, nil)}},
		code: CodeLinuxOnWindows, settled: true, contains: []string{"no Windows variant", "would fail"},
	}, {
		name: "no OS selector on Windows, deliberate per --expect",
		obs: Observation{Images: fakeCatalog{"busybox:1.36": nil}, Workloads: []Workload{wl("DaemonSet", "logs", noOS, 1)},
			Expect: &Expectations{Workloads: []Expectation{{Kind: "DaemonSet", Name: "logs", OS: "any"}}},
			Pods:   []corev1.Pod{pod("logs-b", "DaemonSet/logs", "win2019-0", noOS, nil)}},
		settled: true,
	}, {
		name: "an image with no entry for the node's build",
		obs: Observation{Workloads: []Workload{wl("DaemonSet", "exp", winTmpl, 2)}, Pods: []corev1.Pod{
			pod("exp-a", "DaemonSet/exp", "win2022-0", winTmpl, nil),
			pod("exp-b", "DaemonSet/exp", "win2019-0", winTmpl, waiting("ImagePullBackOff", `Back-off pulling image "mcr.microsoft.com/windows/nanoserver:ltsc2022": ErrImagePull: failed to pull and unpack image "mcr.microsoft.com/windows/nanoserver:ltsc2022": no match for platform in manifest: not found`)),
		}},
		code: CodeNoImageForBuild, settled: true, contains: []string{"Windows Server 2019", "no match for platform in manifest"},
	}, {
		name: "the same, with Windows Server 2019 excluded by --expect, is still a pull failure there",
		obs: Observation{Workloads: []Workload{wl("DaemonSet", "exp", winTmpl, 1)},
			Expect: &Expectations{Workloads: []Expectation{{Kind: "DaemonSet", Name: "exp", Allow: []string{CodeNoImageForBuild}}}},
			Pods:   []corev1.Pod{pod("exp-b", "DaemonSet/exp", "win2019-0", winTmpl, waiting("ErrImagePull", "no match for platform in manifest: not found"))}},
		settled: true, // only a warning, but certain: waiting does not make the pull work
	}, {
		name: "a crash loop",
		obs: Observation{Workloads: []Workload{wl("Deployment", "app", winTmpl, 1)}, Pods: []corev1.Pod{pod("app-1", "Deployment/app", "win2022-0", winTmpl, func(p *corev1.Pod) {
			waiting("CrashLoopBackOff", "back-off 20s restarting failed container=c")(p)
			p.Status.ContainerStatuses[0].RestartCount = 3
			p.Status.ContainerStatuses[0].LastTerminationState.Terminated = &corev1.ContainerStateTerminated{ExitCode: 2, Reason: "Error"}
		})}},
		code: CodeCrashLoop, settled: true, contains: []string{"CrashLoopBackOff after 3 restart(s)", "exit code 2"},
	}, {
		name: "refused by the apiserver: the controller's FailedCreate event, exact",
		obs: Observation{Workloads: []Workload{wl("DaemonSet", "hp", winTmpl, 1)}, Events: []corev1.Event{{
			InvolvedObject: corev1.ObjectReference{Kind: "DaemonSet", Namespace: "default", Name: "hp"}, Reason: "FailedCreate",
			Message: `Error creating: Pod "hp-abcde" is invalid: spec.hostNetwork: Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers`}}},
		code: CodeRefusedAPIServer, settled: true, contains: []string{`Pod "hp-abcde" is invalid: spec.hostNetwork`},
	}, {
		name: "the workload itself refused by the apiserver, as helm install quotes it",
		obs: Observation{Workloads: []Workload{func() Workload { w := wl("DaemonSet", "hp", winTmpl, -1); w.Missing = true; return w }()},
			InstallError: `DaemonSet.apps "hp" is invalid: spec.template.spec.hostNetwork: Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers`,
			Refused:      map[string]string{"DaemonSet/hp": `DaemonSet.apps "hp" is invalid: spec.template.spec.hostNetwork: Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers`}},
		code: CodeRefusedAPIServer, settled: true, contains: []string{"hostNetwork must be true"},
	}, {
		name: "a workload not created because the install failed",
		obs: Observation{Workloads: []Workload{func() Workload { w := wl("Deployment", "web", winTmpl, -1); w.Missing = true; return w }()},
			InstallError: `Service "web" is invalid: spec.ports: Required value`},
		code: CodeInstallFailed, settled: true, contains: []string{"was not created", `Service "web" is invalid`},
	}, {
		name: "refused by the kubelet",
		obs: Observation{Workloads: []Workload{wl("Pod", "p", winTmpl, 1)}, Pods: []corev1.Pod{pod("p", "", "win2022-0", winTmpl, func(p *corev1.Pod) {
			p.Status = corev1.PodStatus{Phase: corev1.PodFailed, Reason: "PodOSNotSupported", Message: "Pod was rejected: Failed to admit pod as the OS field doesn't match node OS"}
		})}},
		code: CodeRefusedKubelet, settled: true, contains: []string{"PodOSNotSupported", "Failed to admit pod as the OS field doesn't match node OS"},
	}, {
		name: "a failed hook",
		obs: Observation{HookErrors: map[string]string{"Job/migrate": "failed pre-install: job migrate failed: BackoffLimitExceeded"},
			Workloads: []Workload{func() Workload {
				w := wl("Job", "migrate", winTmpl, -1)
				w.Hook = "pre-install"
				w.Failed = "BackoffLimitExceeded"
				return w
			}()}},
		code: CodeHookFailed, settled: true, contains: []string{"BackoffLimitExceeded"},
	}, {
		name:    "still starting: not settled, no finding",
		obs:     Observation{Workloads: []Workload{wl("Deployment", "web", winTmpl, 1)}, Pods: []corev1.Pod{pod("web-1", "Deployment/web", "win2022-0", winTmpl, waiting("ContainerCreating", ""))}},
		settled: false,
	}, {
		name: "still starting when the time is up",
		obs:  Observation{Final: true, Workloads: []Workload{wl("Deployment", "web", winTmpl, 1)}, Pods: []corev1.Pod{pod("web-1", "Deployment/web", "win2022-0", winTmpl, waiting("ContainerCreating", ""))}},
		code: CodeNotReady, settled: true, contains: []string{"ContainerCreating"},
	}, {
		name: "pods where --expect says none should be",
		obs: Observation{Workloads: []Workload{wl("Deployment", "web", winTmpl, 1)}, Expect: &Expectations{Workloads: []Expectation{{Kind: "Deployment", Name: "web", NotOn: []string{"windows-2019"}}}},
			Pods: []corev1.Pod{pod("web-1", "Deployment/web", "win2019-0", winTmpl, nil)}},
		code: CodeUnexpectedPods, settled: true, contains: []string{"windows/2019"},
	}, {
		// issue 18: simnode's NotSimulated event is a warning, never a
		// finding, and the workload still runs
		name: "a script that uses what wink does not simulate: a warning, not a finding",
		obs: Observation{Workloads: []Workload{wl("Deployment", "web", winTmpl, 1)}, Pods: []corev1.Pod{pod("web-1", "Deployment/web", "win2022-0", winTmpl, nil)},
			Events: []corev1.Event{{
				InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: "default", Name: "web-1", FieldPath: "spec.containers{c}"},
				Type:           corev1.EventTypeWarning, Reason: process.NotSimulatedReason, Message: process.NotSimulatedMessage("c", "certutil"),
			}}},
		settled: true, warning: CodeNotSimulated, contains: []string{"not judged: the script of c uses certutil"},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := c.obs
			if o.Nodes == nil {
				o.Nodes = genericNodes
			}
			if o.Platform == "" {
				o.Platform = "generic"
			}
			o.WindowsTaintKeys = taintKeys
			got := Judge(o)
			if len(got) != 1 {
				t.Fatalf("%d workloads judged, want 1", len(got))
			}
			j := got[0]
			var codes []string
			for _, f := range j.Findings {
				if f.Severity == reports.SeverityError {
					codes = append(codes, f.Code)
				}
			}
			var warnings []string
			for _, f := range j.Findings {
				if f.Severity == reports.SeverityWarning {
					warnings = append(warnings, f.Code)
				}
			}
			if c.warning != "" && !slices.Contains(warnings, c.warning) {
				t.Errorf("warnings %v, want %s: %+v", warnings, c.warning, j.Findings)
			}
			switch {
			case c.code == "" && len(codes) > 0:
				t.Errorf("error findings %v, want none: %+v", codes, j.Findings)
			case c.code != "" && !slices.Contains(codes, c.code):
				t.Errorf("error findings %v, want %s: %+v", codes, c.code, j.Findings)
			}
			if j.Settled != c.settled {
				t.Errorf("settled %v, want %v", j.Settled, c.settled)
			}
			text := ""
			for _, f := range j.Findings {
				text += f.Message + " | " + f.Fix + " | "
				if f.Fix == "" || f.Message == "" {
					t.Errorf("finding %s without message or fix", f.Code)
				}
			}
			for _, s := range c.contains {
				if !strings.Contains(text, s) {
					t.Errorf("findings do not say %q: %s", s, text)
				}
			}
		})
	}
}

func TestTargetOS(t *testing.T) {
	in := func(key string, values ...string) *corev1.Affinity {
		return &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
			NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: key, Operator: corev1.NodeSelectorOpIn, Values: values}}}}}}}
	}
	cases := []struct {
		spec corev1.PodSpec
		want facts.OS
	}{
		{corev1.PodSpec{}, ""},
		{corev1.PodSpec{OS: &corev1.PodOS{Name: corev1.Windows}}, "windows"},
		{corev1.PodSpec{NodeSelector: map[string]string{labelOS: "linux"}}, "linux"},
		{corev1.PodSpec{NodeSelector: map[string]string{labelBetaOS: "windows"}}, "windows"},
		{corev1.PodSpec{NodeSelector: map[string]string{labelBuild: "10.0.17763"}}, "windows"},
		{corev1.PodSpec{Affinity: in(labelOS, "windows")}, "windows"},
		{corev1.PodSpec{Affinity: in(labelOS, "windows", "linux")}, ""},
	}
	for i, c := range cases {
		if got := TargetOS(&c.spec); got != c.want {
			t.Errorf("case %d: TargetOS = %q, want %q", i, got, c.want)
		}
	}
}

func TestStatic(t *testing.T) {
	uid := int64(1000)
	yes, no := true, false
	cases := []struct {
		name string
		spec func(*corev1.PodSpec)
		want []string
	}{
		{"linux pod: nothing", func(s *corev1.PodSpec) { s.SecurityContext = &corev1.PodSecurityContext{RunAsUser: &uid} }, nil},
		{"windows without spec.os, runAsUser", func(s *corev1.PodSpec) {
			windowsSelector(s)
			s.SecurityContext = &corev1.PodSecurityContext{RunAsUser: &uid}
		}, []string{CodeLinuxOnlyFields}},
		{"windows with spec.os: the apiserver checks it", func(s *corev1.PodSpec) {
			windowsSelector(s)
			s.OS = &corev1.PodOS{Name: corev1.Windows}
			s.SecurityContext = &corev1.PodSecurityContext{RunAsUser: &uid}
		}, nil},
		{"hostProcess without hostNetwork", func(s *corev1.PodSpec) {
			windowsSelector(s)
			s.SecurityContext = &corev1.PodSecurityContext{WindowsOptions: &corev1.WindowsSecurityContextOptions{HostProcess: &yes}}
		}, []string{CodeHostProcessNet}},
		{"hostNetwork without hostProcess", func(s *corev1.PodSpec) {
			windowsSelector(s)
			s.HostNetwork = true
			s.Containers[0].SecurityContext = &corev1.SecurityContext{WindowsOptions: &corev1.WindowsSecurityContextOptions{HostProcess: &no}}
		}, []string{CodeHostNetwork}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var codes []string
			for _, f := range Static(Workload{Kind: "Deployment", Name: "x", Template: template(c.spec)}) {
				codes = append(codes, f.Code)
				if f.Severity != reports.SeverityWarning {
					t.Errorf("%s is %s, want a warning", f.Code, f.Severity)
				}
			}
			if !slices.Equal(codes, c.want) {
				t.Errorf("codes %v, want %v", codes, c.want)
			}
		})
	}
}

func TestExpectations(t *testing.T) {
	good := "apiVersion: wink.dev/v1alpha1\nkind: CheckExpectations\nworkloads:\n- {kind: DaemonSet, name: logs, os: linux}\n- {kind: Deployment, name: web, notOn: [windows-2019]}\n"
	e, err := ParseExpectations([]byte(good), "expect.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if w := e.For("Deployment", "ns", "web"); w == nil || !w.notOn("windows/10.0.17763") || w.notOn("windows/10.0.20348") {
		t.Errorf("web: %+v", w)
	}
	bad := []struct{ yaml, want string }{
		{"apiVersion: wink.dev/v1alpha1\nkind: CheckExpectations\nworkloads:\n- {kind: Deploy, name: web}\n", "expect.yaml:4: workloads[0].kind: Unsupported value: \"Deploy\""},
		{"apiVersion: wink.dev/v1alpha1\nkind: CheckExpectations\nworkloads:\n- {kind: Deployment, name: web, notOn: [win2019]}\n", "workloads[0].notOn[0]: Unsupported value: \"win2019\""},
		{"apiVersion: wink.dev/v1alpha1\nkind: CheckExpectations\nworkloads:\n- {kind: Deployment, name: web, os: macos}\n", "workloads[0].os"},
		{"apiVersion: wink.dev/v1alpha1\nkind: CheckExpectations\nworkloads:\n- {kind: Deployment, name: web, placement: linux}\n", "expect.yaml:4: workloads[0].placement: Unknown field"},
		{"apiVersion: v1\nkind: CheckExpectations\n", "expect.yaml:1: apiVersion"},
	}
	for _, b := range bad {
		_, err := ParseExpectations([]byte(b.yaml), "expect.yaml")
		if err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("ParseExpectations(%q) = %v, want %q", b.yaml, err, b.want)
		}
	}
}

func TestRefusal(t *testing.T) {
	ds := Workload{Kind: "DaemonSet", Name: "hp"}
	cases := []struct{ err, want string }{
		{`DaemonSet.apps "hp" is invalid: spec.template.spec.hostNetwork: Invalid value: false: hostNetwork must be true`, `DaemonSet.apps "hp" is invalid: spec.template.spec.hostNetwork: Invalid value: false: hostNetwork must be true`},
		{`1 error occurred: pods "hp" is forbidden: violates PodSecurity`, `"hp" is forbidden: violates PodSecurity`},
		{`Service "hp-svc" is invalid: spec.ports: Required value`, ""},
		{`failed pre-install: timed out`, ""},
	}
	for _, c := range cases {
		if got := refusal(c.err, ds); got != c.want {
			t.Errorf("refusal(%q) = %q, want %q", c.err, got, c.want)
		}
	}
}
