package lifecycle

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

// continuity is what a user sees of running containers across a restart of
// simnode (a kubelet restart for the simulated nodes): their logs keep the
// lines from before and repeat none, a file a container wrote is still
// there for exec, `kubectl logs --previous` reads the instance before a
// real container restart, and kube-system keeps running with unchanged
// restart counts.
type continuity struct {
	ns string
	// pinger's log before the restart.
	log string
	// kube-system pods: name -> containerIDs and restart counts.
	system map[string]string
}

const (
	pingerCmd = "ping -t localhost"
	// writerCmd writes into the container's own layer and an emptyDir,
	// then runs on.
	writerCmd = `echo layer> C:\kept.txt && echo scratch> C:\scratch\kept.txt && ping -t localhost`
	// crasherCmd prints a line and exits: a real container restart.
	crasherCmd = "echo instance && exit 1"
)

func systemPods(ctx context.Context, t *testing.T, cs kubernetes.Interface) map[string]string {
	t.Helper()
	list, err := cs.CoreV1().Pods(metav1.NamespaceSystem).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, p := range list.Items {
		if p.Spec.NodeName == "" {
			continue
		}
		var parts []string
		for _, c := range p.Status.ContainerStatuses {
			parts = append(parts, fmt.Sprintf("%s restarts=%d running=%t id=%s", c.Name, c.RestartCount, c.State.Running != nil, c.ContainerID))
		}
		sort.Strings(parts)
		out[p.Name] = string(p.Status.Phase) + ": " + strings.Join(parts, "; ")
	}
	return out
}

func waitLog(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns, pod string, opts *corev1.PodLogOptions, ok func(string) bool, what string) string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		data, err := cs.CoreV1().Pods(ns).GetLogs(pod, opts).DoRaw(ctx)
		if err == nil && ok(string(data)) {
			return string(data)
		}
		if time.Now().After(deadline) {
			t.Fatalf("logs of %s/%s (previous=%t): %q (err %v), want %s", ns, pod, opts.Previous, data, err, what)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// startContinuity runs the containers whose continuity is checked.
func startContinuity(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns string) *continuity {
	t.Helper()
	suite.RunPod(ctx, t, cs, ns, suite.WindowsPod("pinger", suite.Build2022, "cmd", "/c", pingerCmd))
	writer := suite.WindowsPod("writer", suite.Build2022, "cmd", "/c", writerCmd)
	writer.Spec.Volumes = []corev1.Volume{{Name: "scratch", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}}
	writer.Spec.Containers[0].VolumeMounts = []corev1.VolumeMount{{Name: "scratch", MountPath: `C:\scratch`}}
	suite.RunPod(ctx, t, cs, ns, writer)
	suite.CreatePod(ctx, t, cs, ns, suite.WindowsPod("crasher", suite.Build2022, "cmd", "/c", crasherCmd))
	suite.WaitPod(ctx, t, cs, ns, "crasher", time.Minute, "restarted once", func(p *corev1.Pod) bool {
		return len(p.Status.ContainerStatuses) == 1 && p.Status.ContainerStatuses[0].RestartCount >= 1
	})
	c := &continuity{ns: ns}
	// A few replies, so that the log has lines from before the restart;
	// with their timestamps, which tell a line from the same line printed
	// again.
	c.log = waitLog(ctx, t, cs, ns, "pinger", &corev1.PodLogOptions{Timestamps: true}, func(s string) bool {
		return strings.Count(s, "Reply from") >= 2
	}, "two replies")
	c.system = systemPods(ctx, t, cs)
	if len(c.system) == 0 {
		t.Fatal("no kube-system pods on any node")
	}
	return c
}

// check asserts continuity after the restart.
func (c *continuity) check(ctx context.Context, t *testing.T, cfg *envconf.Config, cs kubernetes.Interface) {
	t.Helper()
	// The log keeps its lines and goes on: the lines from before, then
	// new replies; the header once.
	log := waitLog(ctx, t, cs, c.ns, "pinger", &corev1.PodLogOptions{Timestamps: true}, func(s string) bool {
		return len(s) > len(c.log)+80
	}, "new lines after the restart")
	if !strings.HasPrefix(log, c.log) {
		t.Errorf("the log of pinger lost or changed its lines from before the restart:\nbefore %q\nafter  %q", c.log, log)
	}
	if n := strings.Count(log, "Pinging "); n != 1 {
		t.Errorf("pinger's header is %d times in its log (replayed output): %q", n, log)
	}
	suite.Evidence(t, "logs", "pinger's log across the restart", log)

	// Files the writer wrote before the restart, read by exec.
	for path, want := range map[string]string{`C:\kept.txt`: "layer", `C:\scratch\kept.txt`: "scratch"} {
		res := suite.Exec(ctx, t, cfg, c.ns, "writer", "main", "cmd", "/c", "type "+path)
		suite.ExecEvidence(t, "writer", []string{"cmd", "/c", "type " + path}, res)
		if res.ExitCode != 0 || strings.TrimSpace(res.Stdout) != want {
			t.Errorf("exec type %s after the restart: exit %d, %q %q; want %q", path, res.ExitCode, res.Stdout, res.Stderr, want)
		}
	}

	// The instance before the crasher's last restart.
	waitLog(ctx, t, cs, c.ns, "crasher", &corev1.PodLogOptions{Previous: true}, func(s string) bool {
		return strings.Contains(s, "instance")
	}, `"instance" from the previous container`)

	// kube-system: Running, the same containers, the same restart counts,
	// for long enough to see a crash loop.
	for range 8 {
		time.Sleep(time.Second)
		got := systemPods(ctx, t, cs)
		for name, want := range c.system {
			if got[name] != want {
				t.Fatalf("kube-system pod %s changed across the restart:\n got %s\nwant %s", name, got[name], want)
			}
			if !strings.HasPrefix(want, "Running: ") {
				t.Fatalf("kube-system pod %s is not Running: %s", name, want)
			}
		}
	}
}
