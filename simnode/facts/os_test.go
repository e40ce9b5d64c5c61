package facts

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestNodeOS: a node's OS is its nodeInfo.operatingSystem, else its
// kubernetes.io/os label (N1), in lower case.
func TestNodeOS(t *testing.T) {
	node := func(info, label string) *corev1.Node {
		n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{}}}
		n.Status.NodeInfo.OperatingSystem = info
		if label != "" {
			n.Labels[LabelOS] = label
		}
		return n
	}
	for _, tc := range []struct {
		name string
		node *corev1.Node
		want OS
	}{
		{"nil", nil, ""},
		{"nodeInfo", node("windows", "linux"), Windows},
		{"label", node("", "linux"), Linux},
		{"upper case", node("Windows", ""), Windows},
		{"neither", node("", ""), ""},
	} {
		if got := NodeOS(tc.node); got != tc.want {
			t.Errorf("[N1] %s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestSelectedOS: what a pod spec selects by itself, spec.os.name first,
// then kubernetes.io/os, then beta.kubernetes.io/os (S1).
func TestSelectedOS(t *testing.T) {
	for _, tc := range []struct {
		name     string
		spec     corev1.PodSpec
		want     OS
		wantSpec OS
	}{
		{"nothing", corev1.PodSpec{}, "", ""},
		{"spec.os", corev1.PodSpec{OS: Windows.PodOS(), NodeSelector: map[string]string{LabelOS: "linux"}}, Windows, Windows},
		{"empty spec.os", corev1.PodSpec{OS: &corev1.PodOS{}, NodeSelector: map[string]string{LabelOS: "linux"}}, Linux, ""},
		{"label before beta", corev1.PodSpec{NodeSelector: map[string]string{LabelOS: "windows", LabelBetaOS: "linux"}}, Windows, ""},
		{"beta", corev1.PodSpec{NodeSelector: map[string]string{LabelBetaOS: "linux"}}, Linux, ""},
	} {
		if got := SelectedOS(&tc.spec); got != tc.want {
			t.Errorf("[S1] %s: SelectedOS %q, want %q", tc.name, got, tc.want)
		}
		if got := SpecOS(&tc.spec); got != tc.wantSpec {
			t.Errorf("[S1] %s: SpecOS %q, want %q", tc.name, got, tc.wantSpec)
		}
	}
}

func TestOSCheck(t *testing.T) {
	for _, tc := range []struct {
		in      string
		wantErr string
	}{
		{"windows", ""},
		{"linux", ""},
		{"Windows", `unknown os "Windows": supported values: "windows", "linux"`},
		{"", `unknown os ""`},
	} {
		os, err := ParseOS(tc.in)
		switch {
		case tc.wantErr == "" && (err != nil || string(os) != tc.in || !os.Valid()):
			t.Errorf("ParseOS(%q) = %q, %v", tc.in, os, err)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("ParseOS(%q): error %v, want %q", tc.in, err, tc.wantErr)
		}
	}
	if !Windows.IsWindows() || Windows.IsLinux() || !Linux.IsLinux() || Linux.IsWindows() {
		t.Error("predicates disagree with the constants")
	}
}

// TestWindowsTaint: os=windows:NoSchedule and the Equal toleration of it
// (N4).
func TestWindowsTaint(t *testing.T) {
	taint, tol := WindowsTaint(), WindowsToleration()
	if taint.Key != "os" || taint.Value != "windows" || taint.Effect != corev1.TaintEffectNoSchedule {
		t.Fatalf("[N4] taint %v, want os=windows:NoSchedule", taint)
	}
	if tol.Key != taint.Key || tol.Value != taint.Value || tol.Effect != taint.Effect || tol.Operator != corev1.TolerationOpEqual {
		t.Fatalf("[N4] %v does not tolerate %v", tol, taint)
	}
}

// TestNodeReadySince: a node counts as Ready since a time when its Ready
// condition is True and its heartbeat, which every status a kubelet posts
// carries (https://kubernetes.io/docs/reference/node/node-status/#condition:
// lastHeartbeatTime), is not older, to the second the API keeps; a zero
// time takes any heartbeat.
func TestNodeReadySince(t *testing.T) {
	since := time.Date(2025, 3, 1, 12, 0, 5, 700_000_000, time.UTC)
	node := func(status corev1.ConditionStatus, heartbeat time.Time) *corev1.Node {
		return &corev1.Node{Status: corev1.NodeStatus{Conditions: []corev1.NodeCondition{
			{Type: corev1.NodeMemoryPressure, Status: corev1.ConditionFalse, LastHeartbeatTime: metav1.NewTime(since.Add(time.Minute))},
			{Type: corev1.NodeReady, Status: status, LastHeartbeatTime: metav1.NewTime(heartbeat)},
		}}}
	}
	for _, tt := range []struct {
		name  string
		node  *corev1.Node
		since time.Time
		want  bool
	}{
		{"posted after", node(corev1.ConditionTrue, since.Add(2*time.Second)), since, true},
		{"posted a minute before", node(corev1.ConditionTrue, since.Add(-time.Minute)), since, false},
		{"posted in the same second, as the API keeps it", node(corev1.ConditionTrue, since.Truncate(time.Second)), since, true},
		{"posted a second before", node(corev1.ConditionTrue, since.Add(-time.Second)), since, false},
		{"NotReady, posted after", node(corev1.ConditionFalse, since.Add(time.Second)), since, false},
		{"any post, with a zero time", node(corev1.ConditionTrue, since.Add(-time.Hour)), time.Time{}, true},
		{"no Ready condition", &corev1.Node{}, time.Time{}, false},
	} {
		if got := NodeReadySince(tt.node, tt.since); got != tt.want {
			t.Errorf("%s: NodeReadySince %v, want %v", tt.name, got, tt.want)
		}
	}
}
