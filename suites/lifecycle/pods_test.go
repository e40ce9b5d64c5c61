package lifecycle

import (
	"context"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/harness"
	"wink.dev/wink/suites/suite"
)

func TestLogs(t *testing.T) {
	f := suite.Feature("kubectl logs reaches the simulated kubelet through the apiserver", "lifecycle", "any", "B16").
		Assess("a container's output is its log", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "logs")
			suite.RunPod(ctx, t, cs, ns, suite.WindowsPod("echo", suite.Build2022, "cmd", "/c", "echo hello from windows && ping -t localhost"))
			var logs string
			deadline := time.Now().Add(20 * time.Second)
			for {
				data, err := cs.CoreV1().Pods(ns).GetLogs("echo", &corev1.PodLogOptions{Container: "main"}).DoRaw(ctx)
				logs = string(data)
				if err == nil && strings.Contains(logs, "hello from windows") {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("[B16] logs of echo: %q (err %v), want them to contain %q", logs, err, "hello from windows")
				}
				time.Sleep(200 * time.Millisecond)
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

func TestSimnodeRestartLosesNothing(t *testing.T) {
	type snapshot struct {
		phase     corev1.PodPhase
		startTime string
		podIP     string
		ids       string
		restarts  int32
	}
	snap := func(p *corev1.Pod) snapshot {
		s := snapshot{phase: p.Status.Phase, podIP: p.Status.PodIP}
		if p.Status.StartTime != nil {
			s.startTime = p.Status.StartTime.UTC().Format(time.RFC3339)
		}
		for _, c := range p.Status.ContainerStatuses {
			s.ids += c.ContainerID + " "
			s.restarts += c.RestartCount
		}
		return s
	}
	f := suite.Feature("simnode killed and restarted loses nothing", "lifecycle", "simnode").
		Assess("running pods keep phase, startTime, podIP, containerIDs and restartCount", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cluster.SkipUnlessSimulated(t)
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "restart")
			before := map[string]snapshot{}
			for i := range 3 {
				p := suite.RunPod(ctx, t, cs, ns, suite.WindowsPod(fmt.Sprintf("server-%d", i), suite.Build2022, "ping", "-t", "localhost"))
				before[p.Name] = snap(p)
			}
			cont := startContinuity(ctx, t, cs, ns)
			// Twice: what survives one restart survives the next.
			for range 2 {
				pid, err := harness.ComponentPID(cluster.Options, "simnode")
				if err != nil {
					t.Fatal(err)
				}
				if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
				// Wait for the supervisor to start a new simnode, then give it
				// time to resync every pod.
				deadline := time.Now().Add(30 * time.Second)
				for {
					next, err := harness.ComponentPID(cluster.Options, "simnode")
					if err == nil && next != pid {
						break
					}
					if time.Now().After(deadline) {
						t.Fatal("simnode was not restarted within 30s")
					}
					time.Sleep(100 * time.Millisecond)
				}
				for range 30 { // 3 s of watching: nothing may change
					for name, want := range before {
						p, err := cs.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
						if err != nil {
							t.Fatal(err)
						}
						if got := snap(p); got != want {
							t.Fatalf("pod %s changed across a simnode restart:\n got %+v\nwant %+v", name, got, want)
						}
					}
					time.Sleep(100 * time.Millisecond)
				}
			}
			return context.WithValue(ctx, continuityKey{}, cont)
		}).
		Assess("containers go on: logs keep their lines and repeat none, files stay, --previous works, kube-system keeps running", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			// Checked after the restart above: the state is the
			// feature's.
			cont, _ := ctx.Value(continuityKey{}).(*continuity)
			if cont == nil {
				t.Skip("the restart step did not run")
			}
			cont.check(ctx, t, cfg, suite.Clientset(t, cfg))
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// continuityKey carries a *continuity from the restart step to the check.
type continuityKey struct{}

func TestDownAndUpKeepsTheCluster(t *testing.T) {
	f := suite.Feature("wink down then wink up finds the cluster as it was left", "lifecycle", "simnode").
		Assess("objects, pods and their status survive a stop of every component", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cluster.SkipUnlessSimulated(t)
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "down-up")
			before := suite.RunPod(ctx, t, cs, ns, suite.WindowsPod("survivor", suite.Build2022, "ping", "-t", "localhost"))
			cont := startContinuity(ctx, t, cs, ns)
			if err := harness.Down(ctx, cluster.Options); err != nil {
				t.Fatal(err)
			}
			if _, err := harness.Up(ctx, harness.UpOptions{Options: cluster.Options, Schedulable: true}); err != nil {
				t.Fatal(err)
			}
			cs = suite.Clientset(t, cfg)
			after := suite.WaitPod(ctx, t, cs, ns, "survivor", time.Minute, "Running", suite.Running)
			if after.UID != before.UID || !after.Status.StartTime.Equal(before.Status.StartTime) || after.Status.PodIP != before.Status.PodIP {
				t.Errorf("pod changed across down/up: uid %s→%s, startTime %v→%v, podIP %s→%s",
					before.UID, after.UID, before.Status.StartTime, after.Status.StartTime, before.Status.PodIP, after.Status.PodIP)
			}
			cont.check(ctx, t, cfg, cs)
			return ctx
		}).Feature()
	testenv.Test(t, f)
}
