package rules

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/version"
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
		{"bad cite", "admission.yaml", "cites: [B1]", "cites: [X1]", "not a spec row ID"},
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
			c, err := r.ConditionSet(tc.os, v(tc.kubelet))
			if err != nil {
				t.Fatal(err)
			}
			if c.ID != tc.wantID || c.Evicts != tc.wantEvicts || c.EvictionHardDefault["memory.available"] != tc.wantMem {
				t.Fatalf("got %s evicts=%v mem=%s", c.ID, c.Evicts, c.EvictionHardDefault["memory.available"])
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
	for _, tc := range []struct {
		name       string
		pod        corev1.Pod
		wantReason string
	}{
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
			rej := r.Admit(&tc.pod, winNode, "windows", v("v1.35.4"))
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
			for _, e := range Default().NodeEventsFor(tc.os, "n1", tc.registered) {
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
