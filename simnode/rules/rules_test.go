package rules

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/version"

	"wink.dev/wink/simnode/facts"
)

func TestDefaultRulesLoad(t *testing.T) {
	if _, err := Load(files); err != nil {
		t.Fatal(err)
	}
}

// TestMalformedTables checks that Load rejects broken tables.
func TestMalformedTables(t *testing.T) {
	base := map[string]string{}
	for _, n := range Files {
		data, err := files.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		base[n] = string(data)
	}
	for _, tc := range []struct {
		name, file, old, new, wantErr string
	}{
		{"unknown field", "admission.yaml", "check: osField", "check: osField\n  bogus: 1", "unknown field"},
		{"unknown check", "admission.yaml", "check: osField", "check: osFeld", `unknown check "osFeld"`},
		{"bad cite", "admission.yaml", "cites: [B1]", "cites: [X1]", "not a row of the behaviour catalog"},
		{"cite of a row that does not exist", "admission.yaml", "cites: [B1]", "cites: [B99]", `cites "B99", which is not a row`},
		{"no cite", "admission.yaml", "cites: [B1]", "cites: []", "cites no spec row"},
		{"bad version", "admission.yaml", "kubeletVersions: {since: v1.24.0}\n- id: B3", "kubeletVersions: {since: one}\n- id: B3", "since"},
		{"overlapping events", "events.yaml", "until: v1.30.0}\n    message: 'Successfully", "until: v1.31.0}\n    message: 'Successfully", "variants match"},
		{"gap in conditions", "conditions.yaml", "kubeletVersions: {since: v1.31.0}", "kubeletVersions: {since: v1.32.0}", "no conditionSet"},
		{"ready not last", "conditions.yaml", "  - type: Ready\n", "  - type: Ready\n    status: \"True\"\n    reason: x\n    message: y\n  - type: Foo\n", "Ready must be the last"},
		{"kernel not build", "nodes.yaml", `kernelVersion: "10.0.20348.1607"`, `kernelVersion: "10.0.20349.1607"`, "<build>.<UBR>"},
		{"bad template", "events.yaml", "'Pulling image \"{{.Image}}\"'", "'Pulling image \"{{.Imag}}\"'", "Imag"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for n, s := range base {
				if n == tc.file {
					if !strings.Contains(s, tc.old) {
						t.Fatalf("%s does not contain %q", n, tc.old)
					}
					s = strings.Replace(s, tc.old, tc.new, 1)
				}
				fsys[n] = &fstest.MapFile{Data: []byte(s)}
			}
			_, err := Load(fsys)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("Load() error = %v, want it to contain %q", err, tc.wantErr)
			}
		})
	}
}

// TestEveryProblemReported: Load names every broken entry of every table,
// not only the first it meets.
func TestEveryProblemReported(t *testing.T) {
	fsys := fstest.MapFS{}
	for _, n := range Files {
		data, err := files.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		s := string(data)
		switch n {
		case "admission.yaml":
			s = strings.Replace(s, "check: osField", "check: osFeld", 1)
			s = strings.Replace(s, "cites: [B3]", "cites: [B99]", 1)
		case "nodes.yaml":
			s = strings.Replace(s, `kernelVersion: "10.0.20348.1607"`, `kernelVersion: "10.0.20349.1607"`, 1)
		}
		fsys[n] = &fstest.MapFile{Data: []byte(s)}
	}
	_, err := Load(fsys)
	for _, want := range []string{`unknown check "osFeld"`, `cites "B99"`, "<build>.<UBR>"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Load() error = %v, want it to name %q", err, want)
		}
	}
}

func v(s string) *version.Version { return version.MustParseGeneric(s) }

// TestConditionSets checks N6/N7 by kubelet version.
func TestConditionSets(t *testing.T) {
	r := Default()
	for _, tc := range []struct {
		os, kubelet, wantID string
		wantEvicts          bool
		wantMem             string
	}{
		{"windows", "v1.30.9", "windows-before-v1.31", false, "100Mi"},
		{"windows", "v1.31.0", "windows-since-v1.31", true, "500Mi"},
		{"windows", "v1.35.4", "windows-since-v1.31", true, "500Mi"},
		{"linux", "v1.29.0", "linux", true, "100Mi"},
	} {
		t.Run(tc.os+"-"+tc.kubelet, func(t *testing.T) {
			c, err := r.ConditionSet(facts.OS(tc.os), v(tc.kubelet))
			if err != nil {
				t.Fatal(err)
			}
			hard := facts.OS(tc.os).EvictionHardDefault(v(tc.kubelet))
			if c.ID != tc.wantID || c.Evicts != tc.wantEvicts || hard["memory.available"] != tc.wantMem {
				t.Fatalf("got %s evicts=%v mem=%s", c.ID, c.Evicts, hard["memory.available"])
			}
			for k, val := range hard {
				if _, err := ParseThreshold(val, resource.MustParse("1Gi")); err != nil {
					t.Errorf("[N5] facts' evictionHard default %s=%s: %v", k, val, err)
				}
			}
			var types []string
			for _, cond := range c.Conditions {
				types = append(types, string(cond.Type))
			}
			if got := strings.Join(types, ","); got != "MemoryPressure,DiskPressure,PIDPressure,Ready" {
				t.Fatalf("conditions %s", got)
			}
		})
	}
}

// TestAdmit checks the B1-B3 rules and their order (predicate.go checks the
// OS label before the OS field).
func TestAdmit(t *testing.T) {
	r := Default()
	winNode := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "w", Labels: map[string]string{
		corev1.LabelOSStable: "windows", "node.kubernetes.io/windows-build": "10.0.20348",
	}}}
	linuxOS := &corev1.PodOS{Name: corev1.Linux}
	withHostPort := func(port int32, proto corev1.Protocol, ip string) corev1.Pod {
		return corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{Ports: []corev1.ContainerPort{{ContainerPort: 80, HostPort: port, Protocol: proto, HostIP: ip}}}}}}
	}
	holder := withHostPort(21017, "", "")
	active := []*corev1.Pod{&holder}
	for _, tc := range []struct {
		name       string
		pod        corev1.Pod
		wantReason string
	}{
		{"B3 host port in use (statefulset.go evicted pod)", withHostPort(21017, corev1.ProtocolTCP, ""), "NodePorts"},
		{"B3 host port in use on one host IP", withHostPort(21017, "", "10.0.0.1"), "NodePorts"},
		{"B3 free host port", withHostPort(21018, "", ""), ""},
		{"B3 same port, other protocol", withHostPort(21017, corev1.ProtocolUDP, ""), ""},
		{"plain", corev1.Pod{}, ""},
		{"B1 os field", corev1.Pod{Spec: corev1.PodSpec{OS: linuxOS}}, "PodOSNotSupported"},
		{"B1 matching os field", corev1.Pod{Spec: corev1.PodSpec{OS: &corev1.PodOS{Name: corev1.Windows}}}, ""},
		{"B2 os label", corev1.Pod{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{corev1.LabelOSStable: "linux"}}}, "PodOSSelectorNodeLabelDoesNotMatch"},
		{"B2 before B1", corev1.Pod{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{corev1.LabelOSStable: "linux"}}, Spec: corev1.PodSpec{OS: linuxOS}}, "PodOSSelectorNodeLabelDoesNotMatch"},
		{"B3 nodeSelector", corev1.Pod{Spec: corev1.PodSpec{NodeSelector: map[string]string{"node.kubernetes.io/windows-build": "10.0.17763"}}}, "NodeAffinity"},
		{"B3 matching nodeSelector", corev1.Pod{Spec: corev1.PodSpec{NodeSelector: map[string]string{"node.kubernetes.io/windows-build": "10.0.20348"}}}, ""},
		{"B3 required affinity", corev1.Pod{Spec: corev1.PodSpec{Affinity: &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
				MatchExpressions: []corev1.NodeSelectorRequirement{{Key: corev1.LabelOSStable, Operator: corev1.NodeSelectorOpIn, Values: []string{"linux"}}},
			}}},
		}}}}, "NodeAffinity"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rej := r.Admit(&tc.pod, winNode, "windows", v("v1.35.4"), active)
			got := ""
			if rej != nil {
				got = rej.Reason
				if !strings.HasPrefix(rej.StatusMessage, "Pod was rejected: ") || !strings.HasSuffix(rej.StatusMessage, rej.EventMessage) {
					t.Errorf("status message %q, event message %q", rej.StatusMessage, rej.EventMessage)
				}
			}
			if got != tc.wantReason {
				t.Fatalf("reason %q, want %q", got, tc.wantReason)
			}
		})
	}
}

func TestEventVariants(t *testing.T) {
	r := Default()
	for _, tc := range []struct{ id, kubelet, want string }{
		{EventCreated, "v1.30.2", "Created container c"},
		{EventCreated, "v1.33.1", "Created container: c"},
		{EventCreated, "v1.35.4", "Container created"},
		{EventStarted, "v1.34.0", "Started container c"},
		{EventStarted, "v1.35.4", "Container started"},
		{EventPulling, "v1.35.4", `Pulling image "img"`},
		{EventKilling, "v1.35.4", "Stopping container c"},
	} {
		t.Run(tc.id+"-"+tc.kubelet, func(t *testing.T) {
			_, _, msg, err := r.Event(tc.id, v(tc.kubelet), EventData{Container: "c", Image: "img"})
			if err != nil || msg != tc.want {
				t.Fatalf("got %q, %v; want %q", msg, err, tc.want)
			}
		})
	}
}

func TestParseKubeletVersion(t *testing.T) {
	if _, err := ParseKubeletVersion("v1.23.5"); err == nil {
		t.Fatal("v1.23.5 accepted")
	}
	if _, err := ParseKubeletVersion("1.30.2"); err != nil {
		t.Fatal(err)
	}
}

func TestNodeEvents(t *testing.T) {
	for _, tc := range []struct {
		os         string
		registered bool
		want       string
	}{
		{"windows", true, "Starting,NodeHasSufficientMemory,NodeHasNoDiskPressure,NodeHasSufficientPID,NodeReady"},
		{"windows", false, "Starting"},
		{"linux", true, "Starting,NodeAllocatableEnforced,NodeHasSufficientMemory,NodeHasNoDiskPressure,NodeHasSufficientPID,NodeReady"},
	} {
		t.Run(fmt.Sprintf("%s-%v", tc.os, tc.registered), func(t *testing.T) {
			var reasons []string
			for _, e := range Default().NodeEventsFor(facts.OS(tc.os), "n1", tc.registered) {
				reasons = append(reasons, e.Reason)
				if e.Reason == "NodeReady" && e.Message != "Node n1 status is now: NodeReady" {
					t.Errorf("message %q", e.Message)
				}
			}
			if got := strings.Join(reasons, ","); got != tc.want {
				t.Fatalf("got %s", got)
			}
		})
	}
}

// TestShutdownManagers checks which kubelets have a node shutdown manager
// (B15): Windows from v1.34 (WindowsGracefulNodeShutdown beta), Linux for
// every version the tables describe (GracefulNodeShutdown beta in v1.21).
func TestShutdownManagers(t *testing.T) {
	r := Default()
	for _, tc := range []struct {
		os, kubelet string
		want        string // the Shutdown event's message, "" for none
	}{
		{"windows", "v1.30.2", ""},
		{"windows", "v1.33.9", ""},
		{"windows", "v1.34.0", "Shutdown manager detected preshutdown event"},
		{"windows", "v1.35.4", "Shutdown manager detected preshutdown event"},
		{"linux", "v1.24.0", "Shutdown manager detected shutdown event"},
		{"linux", "v1.35.4", "Shutdown manager detected shutdown event"},
	} {
		t.Run(tc.os+"-"+tc.kubelet, func(t *testing.T) {
			got := ""
			if m := r.NodeShutdown.Manager(facts.OS(tc.os), v(tc.kubelet)); m != nil {
				got = m.Event
			}
			if got != tc.want {
				t.Fatalf("[B15] manager event %q, want %q", got, tc.want)
			}
		})
	}
}

// TestShutdownGracePeriods checks migrateConfig and groupByPriority (B15):
// 30s with 10s for critical pods make a 20s group below priority
// 2000000000 and a 10s group from it; a shorter terminationGracePeriodSeconds
// wins.
func TestShutdownGracePeriods(t *testing.T) {
	s := &Default().NodeShutdown
	i64 := func(n int64) *int64 { return &n }
	i32 := func(n int32) *int32 { return &n }
	for _, tc := range []struct {
		name     string
		priority *int32
		tgps     *int64
		want     time.Duration
	}{
		{"no priority, default grace", nil, nil, 20 * time.Second},
		{"no priority, 30s grace", nil, i64(30), 20 * time.Second},
		{"no priority, 5s grace", nil, i64(5), 5 * time.Second},
		{"no priority, 0s grace", nil, i64(0), 0},
		{"negative priority", i32(-5), nil, 20 * time.Second},
		{"high but not critical", i32(1000000000), nil, 20 * time.Second},
		{"system-cluster-critical", i32(2000000000), i64(30), 10 * time.Second},
		{"system-node-critical", i32(2000001000), i64(3), 3 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pod := &corev1.Pod{Spec: corev1.PodSpec{Priority: tc.priority, TerminationGracePeriodSeconds: tc.tgps}}
			if got := s.GracePeriod(pod); got != tc.want {
				t.Fatalf("[B15] grace period %s, want %s", got, tc.want)
			}
		})
	}
}

// TestShutdownStrings checks the B15 and N3 strings against upstream
// (nodeshutdown_manager.go, setters.go, kubelet.go rejectPod).
func TestShutdownStrings(t *testing.T) {
	r := Default()
	s := r.NodeShutdown
	rej := r.ShutdownRejection()
	for _, tc := range []struct{ what, got, want string }{
		{"pod reason", s.PodReason, "Terminated"},
		{"pod message", s.PodMessage, "Pod was terminated in response to imminent node shutdown."},
		{"condition", fmt.Sprintf("%s %s %s %s", s.PodCondition.Type, s.PodCondition.Status, s.PodCondition.Reason, s.PodCondition.Message),
			"DisruptionTarget True TerminationByKubelet Pod was terminated in response to imminent node shutdown."},
		{"rejection reason", rej.Reason, "NodeShutdown"},
		{"rejection status", rej.StatusMessage, "Pod was rejected: Pod was rejected as the node is shutting down."},
		{"rejection event", rej.EventMessage, "Pod was rejected as the node is shutting down."},
		{"ready", fmt.Sprintf("%s %s %s %s", s.Ready.Type, s.Ready.Status, s.Ready.Reason, s.Ready.Message), "Ready False KubeletNotReady node is shutting down"},
		{"not ready event", s.NotReadyMessage("n1"), "Node n1 status is now: NodeNotReady"},
		{"reboot event", r.Reboot.EventMessage("n1", "3"), "Node n1 has been rebooted, boot id: 3"},
		{"ready event", r.Reboot.ReadyMessage("n1"), "Node n1 status is now: NodeReady"},
	} {
		if tc.got != tc.want {
			t.Errorf("[B15/N3] %s: %q, want %q", tc.what, tc.got, tc.want)
		}
	}
}

// TestMalformedShutdownTables checks that Load rejects broken B15/N3
// tables with an error that names the field.
func TestMalformedShutdownTables(t *testing.T) {
	base := map[string]string{}
	for _, n := range Files {
		data, err := files.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		base[n] = string(data)
	}
	for _, tc := range []struct {
		name, file, old, new, wantErr string
	}{
		{"no cite", "shutdown.yaml", "cites: [B15]", "cites: []", "nodeShutdown: cites no spec row"},
		{"overlapping managers", "shutdown.yaml", "kubeletVersions: {since: v1.24.0}\n    event: Shutdown manager detected shutdown event",
			"kubeletVersions: {since: v1.24.0}\n    event: x\n  - os: linux\n    kubeletVersions: {since: v1.30.0}\n    event: Shutdown manager detected shutdown event", "overlaps"},
		{"unknown os", "shutdown.yaml", "- os: windows", "- os: plan9", `unknown os "plan9"`},
		// The default grace periods are simnode/facts', not the table's.
		{"grace period in the table", "shutdown.yaml", "criticalPriority: 2000000000", "criticalPriority: 2000000000\n  shutdownGracePeriod: 30s", `unknown field "shutdownGracePeriod"`},
		{"condition type", "shutdown.yaml", "type: DisruptionTarget", "type: Ready", "DisruptionTarget"},
		{"bad template", "shutdown.yaml", "boot id: {{.BootID}}", "boot id: {{.Boot}}", "reboot.event"},
		{"no stop exit code", "runtime.yaml", "      linux: 143\n", "", "stopExitCode.linux"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for n, s := range base {
				if n == tc.file {
					if !strings.Contains(s, tc.old) {
						t.Fatalf("%s does not contain %q", n, tc.old)
					}
					s = strings.Replace(s, tc.old, tc.new, 1)
				}
				fsys[n] = &fstest.MapFile{Data: []byte(s)}
			}
			_, err := Load(fsys)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("Load() error = %v, want it to contain %q", err, tc.wantErr)
			}
		})
	}
}

// TestShutdownGroups checks migrateConfig for a pool's grace periods (B15):
// no groups (no node shutdown manager) for 0s or an impossible split,
// whole seconds otherwise.
func TestShutdownGroups(t *testing.T) {
	s := &Default().NodeShutdown
	for _, tc := range []struct {
		name            string
		total, critical time.Duration
		want            string
	}{
		{"off", 0, 0, "[]"},
		{"critical longer than total", 5 * time.Second, 10 * time.Second, "[]"},
		{"20s/5s", 20 * time.Second, 5 * time.Second, "[{0 15s} {2000000000 5s}]"},
		{"defaults", facts.DefaultShutdownGracePeriod, facts.DefaultShutdownGracePeriodCriticalPods, "[{0 20s} {2000000000 10s}]"},
		{"no critical part", time.Minute, 0, "[{0 1m0s} {2000000000 0s}]"},
		{"whole seconds", 2500 * time.Millisecond, 1200 * time.Millisecond, "[{0 1s} {2000000000 1s}]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := fmt.Sprint(s.Groups(tc.total, tc.critical)); got != tc.want {
				t.Fatalf("[B15] groups %s, want %s", got, tc.want)
			}
		})
	}
}
