package simnode

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"

	"wink.dev/wink/simnode/config"
	"wink.dev/wink/simnode/internal/nodes"
)

// TestParsePowerRequest checks the values of the shutdown annotation (B15,
// N3).
func TestParsePowerRequest(t *testing.T) {
	for _, tc := range []struct {
		name        string
		annotations map[string]string
		want        powerRequest
	}{
		{"absent", nil, powerOn},
		{"other annotations", map[string]string{"wink.dev/other": "now"}, powerOn},
		{"now", map[string]string{ShutdownAnnotation: "now"}, powerShutdown},
		{"reboot", map[string]string{ShutdownAnnotation: "reboot"}, powerReboot},
		{"empty", map[string]string{ShutdownAnnotation: ""}, powerInvalid},
		{"case matters", map[string]string{ShutdownAnnotation: "Now"}, powerInvalid},
		{"true", map[string]string{ShutdownAnnotation: "true"}, powerInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, _ := parsePowerRequest(tc.annotations); got != tc.want {
				t.Fatalf("got %d, want %d", got, tc.want)
			}
		})
	}
	if msg := invalidShutdownMessage("yes"); !strings.Contains(msg, `wink.dev/shutdown="yes" is ignored`) || !strings.Contains(msg, `"now"`) || !strings.Contains(msg, `"reboot"`) {
		t.Fatalf("message %q does not say what the valid values are", msg)
	}
}

// TestSwitchOnCountsOnce checks N3: a boot after a shutdown has the next
// bootID, once, even when simnode restarts between the bump and the end of
// the powered-off mark.
func TestSwitchOnCountsOnce(t *testing.T) {
	dir := t.TempDir()
	p := newPower("n", dir, func() *corev1.Node { return nil }, nil, nil)
	if off, err := p.off(); err != nil || off {
		t.Fatalf("off %v, %v", off, err)
	}
	id, err := nodes.LoadBootID(dir)
	if err != nil || id != "1" {
		t.Fatalf("bootID %q, %v", id, err)
	}
	if err := p.markOff("1"); err != nil {
		t.Fatal(err)
	}
	if off, _ := p.off(); !off {
		t.Fatal("not off after markOff")
	}
	if err := p.switchOn(); err != nil {
		t.Fatal(err)
	}
	if id, _ := nodes.LoadBootID(dir); id != "2" {
		t.Fatalf("[N3] bootID %s after a reboot, want 2", id)
	}
	if off, _ := p.off(); off {
		t.Fatal("still off after switchOn")
	}
	// A restart after the bump, before the mark was removed.
	if err := p.markOff("1"); err != nil {
		t.Fatal(err)
	}
	if err := p.switchOn(); err != nil {
		t.Fatal(err)
	}
	if id, _ := nodes.LoadBootID(dir); id != "2" {
		t.Fatalf("[N3] bootID %s, want 2: one reboot counted twice", id)
	}
}

func annotate(t *testing.T, client kubernetes.Interface, node, value string) {
	t.Helper()
	patch := `{"metadata":{"annotations":{"` + ShutdownAnnotation + `":null}}}`
	if value != "" {
		patch = `{"metadata":{"annotations":{"` + ShutdownAnnotation + `":"` + value + `"}}}`
	}
	if _, err := client.CoreV1().Nodes().Patch(context.Background(), node, types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
}

func nodeEvent(client kubernetes.Interface, node, reason, message string) bool {
	l, _ := client.CoreV1().Events("default").List(context.Background(), metav1.ListOptions{})
	for _, e := range l.Items {
		if e.InvolvedObject.Kind == "Node" && e.InvolvedObject.Name == node && e.Reason == reason && strings.Contains(e.Message, message) {
			return true
		}
	}
	return false
}

func readyCondition(n *corev1.Node) corev1.NodeCondition {
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c
		}
	}
	return corev1.NodeCondition{}
}

// TestShutdownAndReboot runs nodes against a fake clientset and shuts them
// down through the API: a v1.35 Windows node (B15) reports NotReady and
// terminates its pod, which stays in the API Failed; the machine stays off
// until the annotation goes, then boots with the next bootID and is Ready
// (N3). "reboot" does both, and simnode removes the annotation. A v1.33
// Windows node has no shutdown manager: its pod is left Running, and after
// the reboot its container is restarted in a new sandbox.
func TestShutdownAndReboot(t *testing.T) {
	cfg := testConfig(t)
	cfg.Pools = []config.Pool{
		{Name: "win", OS: "windows", WindowsBuild: "10.0.20348", Count: 1},
		{Name: "old", OS: "windows", WindowsBuild: "10.0.17763", KubeletVersion: "v1.33.5", Count: 1},
	}
	client := fake.NewSimpleClientset()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- run(ctx, mustDefaults(t, cfg), client, quiet(), quiet()) }()
	bg := context.Background()
	getNode := func(name string) *corev1.Node {
		n, err := client.CoreV1().Nodes().Get(bg, name, metav1.GetOptions{})
		if err != nil {
			return &corev1.Node{}
		}
		return n
	}
	getPod := func(name string) *corev1.Pod {
		p, err := client.CoreV1().Pods("default").Get(bg, name, metav1.GetOptions{})
		if err != nil {
			return &corev1.Pod{}
		}
		return p
	}
	for i, name := range []string{"t-win-0", "t-old-0"} {
		eventually(t, name, func() bool { return getNode(name).Name == name })
		n := getNode(name)
		n.Spec.PodCIDR = []string{"10.244.1.0/24", "10.244.2.0/24"}[i]
		if _, err := client.CoreV1().Nodes().Update(bg, n, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		pod := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name + "-pod", Namespace: "default", UID: types.UID("uid-" + name)},
			Spec: corev1.PodSpec{NodeName: name, Containers: []corev1.Container{{
				Name: "c", Image: "mcr.microsoft.com/windows/nanoserver:ltsc2022", ImagePullPolicy: corev1.PullIfNotPresent,
				Command: []string{"ping", "-t", "localhost"},
			}}},
			Status: corev1.PodStatus{Phase: corev1.PodPending},
		}
		if name == "t-old-0" {
			pod.Spec.Containers[0].Image = "mcr.microsoft.com/windows/nanoserver:ltsc2019"
		}
		if _, err := client.CoreV1().Pods("default").Create(bg, pod, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		eventually(t, pod.Name+" Running", func() bool { return getPod(pod.Name).Status.Phase == corev1.PodRunning })
	}
	offFile := func(name string) string { return filepath.Join(cfg.StateDir, "nodes", name, poweredOffFile) }

	// B15: shutdown of the v1.35 node.
	annotate(t, client, "t-win-0", ShutdownNow)
	eventually(t, "[B15] pod Failed/Terminated", func() bool {
		p := getPod("t-win-0-pod")
		return p.Status.Phase == corev1.PodFailed && p.Status.Reason == "Terminated" &&
			p.Status.Message == "Pod was terminated in response to imminent node shutdown."
	})
	p := getPod("t-win-0-pod")
	if p.Status.Conditions[0].Type != corev1.DisruptionTarget || p.Status.Conditions[0].Reason != "TerminationByKubelet" || p.Status.ContainerStatuses[0].State.Terminated == nil {
		t.Fatalf("[B15] status %+v", p.Status)
	}
	eventually(t, "[B15] the machine is off", func() bool {
		_, err := os.Stat(offFile("t-win-0"))
		return err == nil
	})
	if c := readyCondition(getNode("t-win-0")); c.Status != corev1.ConditionFalse || c.Reason != "KubeletNotReady" || c.Message != "node is shutting down" {
		t.Fatalf("[B15] Ready %+v", c)
	}
	for _, ev := range [][2]string{{"Shutdown", "Shutdown manager detected preshutdown event"}, {"NodeNotReady", "Node t-win-0 status is now: NodeNotReady"}} {
		eventually(t, "[B15] event "+ev[0], func() bool { return nodeEvent(client, "t-win-0", ev[0], ev[1]) })
	}
	// Power on.
	annotate(t, client, "t-win-0", "")
	eventually(t, "[N3] Ready with bootID 2", func() bool {
		n := getNode("t-win-0")
		return n.Status.NodeInfo.BootID == "2" && readyCondition(n).Status == corev1.ConditionTrue
	})
	eventually(t, "[N3] Rebooted event", func() bool {
		return nodeEvent(client, "t-win-0", "Rebooted", "Node t-win-0 has been rebooted, boot id: 2")
	})
	if p := getPod("t-win-0-pod"); p.Status.Phase != corev1.PodFailed {
		t.Fatalf("[B15] the terminated pod is %s after the reboot", p.Status.Phase)
	}

	// An invalid value is reported and ignored.
	annotate(t, client, "t-win-0", "yes")
	eventually(t, "warning", func() bool {
		return nodeEvent(client, "t-win-0", EventInvalidShutdown, `wink.dev/shutdown="yes" is ignored`)
	})
	// Reboot: the annotation goes by itself.
	annotate(t, client, "t-win-0", ShutdownReboot)
	eventually(t, "[N3] rebooted with bootID 3", func() bool {
		n := getNode("t-win-0")
		_, annotated := n.Annotations[ShutdownAnnotation]
		return n.Status.NodeInfo.BootID == "3" && readyCondition(n).Status == corev1.ConditionTrue && !annotated
	})

	// No shutdown manager: the v1.33 node just goes.
	annotate(t, client, "t-old-0", ShutdownNow)
	eventually(t, "the v1.33 machine is off", func() bool {
		_, err := os.Stat(offFile("t-old-0"))
		return err == nil
	})
	if p := getPod("t-old-0-pod"); p.Status.Phase != corev1.PodRunning {
		t.Fatalf("[B15] v1.33: pod %s, want it left Running", p.Status.Phase)
	}
	if c := readyCondition(getNode("t-old-0")); c.Status != corev1.ConditionTrue {
		t.Fatalf("[B15] v1.33: Ready %+v, want the last status the kubelet posted", c)
	}
	if nodeEvent(client, "t-old-0", "Shutdown", "") {
		t.Fatal("[B15] v1.33: Shutdown event")
	}
	annotate(t, client, "t-old-0", "")
	eventually(t, "[N3] v1.33 pod restarted after the reboot", func() bool {
		p := getPod("t-old-0-pod")
		cs := p.Status.ContainerStatuses
		return getNode("t-old-0").Status.NodeInfo.BootID == "2" && p.Status.Phase == corev1.PodRunning && len(cs) == 1 && cs[0].RestartCount == 1 &&
			cs[0].LastTerminationState.Terminated != nil && cs[0].LastTerminationState.Terminated.ExitCode == 255
	})
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestStaysOffAcrossRestart checks that a machine that was shut down stays
// off when simnode starts again (N3): no boot while the annotation says
// "now"; removing it boots the node with the next bootID.
func TestStaysOffAcrossRestart(t *testing.T) {
	cfg := testConfig(t)
	cfg.Pools = []config.Pool{{Name: "win", OS: "windows", WindowsBuild: "10.0.20348", Count: 1}}
	name := "t-win-0"
	dir := filepath.Join(cfg.StateDir, "nodes", name)
	p := newPower(name, dir, nil, nil, nil)
	if _, err := nodes.LoadBootID(dir); err != nil {
		t.Fatal(err)
	}
	if err := p.markOff("1"); err != nil {
		t.Fatal(err)
	}
	off := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Annotations: map[string]string{ShutdownAnnotation: ShutdownNow}},
		Status: corev1.NodeStatus{
			NodeInfo:   corev1.NodeSystemInfo{BootID: "1"},
			Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionFalse, Reason: "KubeletNotReady", Message: "node is shutting down"}},
		},
	}
	client := fake.NewSimpleClientset(off)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- run(ctx, mustDefaults(t, cfg), client, quiet(), quiet()) }()
	bg := context.Background()
	getNode := func() *corev1.Node {
		n, err := client.CoreV1().Nodes().Get(bg, name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	time.Sleep(time.Second)
	if n := getNode(); n.Status.NodeInfo.BootID != "1" || readyCondition(n).Status != corev1.ConditionFalse {
		t.Fatalf("[N3] a machine that is off booted: bootID %s, Ready %+v", n.Status.NodeInfo.BootID, readyCondition(n))
	}
	annotate(t, client, name, "")
	eventually(t, "[N3] Ready with bootID 2", func() bool {
		n := getNode()
		return n.Status.NodeInfo.BootID == "2" && readyCondition(n).Status == corev1.ConditionTrue
	})
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
