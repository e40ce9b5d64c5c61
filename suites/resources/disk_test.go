package resources

// Issue 22: a container's disk, as the kubelet bounds it. Its logs rotate
// at every pass of the container log manager (containerLogMaxSize 10Mi,
// containerLogMaxFiles 5, containerLogMonitorInterval 10s: the node's
// /configz), so a container printing as fast as it can keeps its log
// directory within five files and about 50 MiB plus two intervals of its
// output; meanwhile the other nodes keep their leases and their pods'
// probes. An emptyDir written past its sizeLimit gets the pod evicted
// with the kubelet's message (pkg/kubelet/eviction/helpers.go
// emptyDirMessageFmt).

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

// spinFor is how long the busy container prints, in real time (the
// simulated node's clock is the machine's): six passes of the log
// manager.
const spinFor = time.Minute

// The node's /configz (kubelet defaults, simnode/internal/nodes).
const (
	logMaxSize  = 10 << 20
	logMaxFiles = 5
	logInterval = 10 * time.Second
)

// logDir is the spin container's log directory on the simulated node's
// disk: <state>/simnode/nodes/<node>/root/var/log/pods/<ns>_<pod>_<uid>/<c>.
func logDir(node string, p *corev1.Pod, container string) string {
	return filepath.Join(cluster.Options.Home, cluster.Name, "simnode", "nodes", node, "root", "var", "log", "pods",
		p.Namespace+"_"+p.Name+"_"+string(p.UID), container)
}

type logSample struct {
	At      time.Duration `json:"at"`
	Files   int           `json:"files"`
	Current int64         `json:"current"`
	Total   int64         `json:"total"`
	GZ      int           `json:"gz"`
}

func sampleLogDir(dir string) (logSample, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return logSample{}, err
	}
	var s logSample
	for _, e := range ents {
		info, err := e.Info()
		if err != nil {
			continue // rotated away meanwhile
		}
		s.Files++
		s.Total += info.Size()
		switch {
		case e.Name() == "0.log":
			s.Current = info.Size()
		case strings.HasSuffix(e.Name(), ".gz"):
			s.GZ++
		}
	}
	return s, nil
}

func TestBusyContainerLogs(t *testing.T) {
	t.Parallel() // see main_test.go
	f := suite.Feature("a container printing as fast as it can keeps its logs within the rotation bound while other nodes keep time", "resources", "simnode").
		Assess("logs rotate every pass; another node's lease and probes stay on time", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cluster.SkipUnlessSimulated(t)
			cs := suite.Clientset(t, cfg)
			spinNode := nodeByLabel(ctx, t, cs, poolLabel, "spin")
			ns := suite.Namespace(ctx, t, cs, "spin")

			// The pod: busybox printing in a tight loop.
			spin := suite.LinuxPod("spin", "sh", "-c", "while true; do echo spinning; done")
			spin.Spec.NodeSelector[poolLabel] = "spin"
			spin.Spec.Tolerations = []corev1.Toleration{{Key: poolLabel, Operator: corev1.TolerationOpEqual, Value: "spin", Effect: corev1.TaintEffectNoSchedule}}
			// A pod with 1 s probes on another Linux node.
			steady := suite.LinuxPod("steady", "sh", "-c", "sleep 3600")
			probe := &corev1.Probe{
				ProbeHandler:  corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"true"}}},
				PeriodSeconds: 1, TimeoutSeconds: 1, FailureThreshold: 1,
			}
			steady.Spec.Containers[0].LivenessProbe = probe
			steady.Spec.Containers[0].ReadinessProbe = probe.DeepCopy()
			suite.CreatePod(ctx, t, cs, ns, steady)
			steadyPod := suite.WaitPod(ctx, t, cs, ns, "steady", time.Minute, "Ready", ready)
			other := steadyPod.Spec.NodeName
			if other == spinNode.Name {
				t.Fatalf("steady landed on the spin node %s", other)
			}
			suite.CreatePod(ctx, t, cs, ns, spin)
			spinPod := suite.WaitPod(ctx, t, cs, ns, "spin", time.Minute, "Running", suite.Running)
			dir := logDir(spinNode.Name, spinPod, "main")

			start := time.Now()
			var samples []logSample
			var maxGrowth int64 // bytes a second the current file grew, at most
			var prev logSample
			var worstLease time.Duration
			for time.Since(start) < spinFor {
				time.Sleep(time.Second)
				s, err := sampleLogDir(dir)
				if err != nil {
					t.Fatalf("log directory %s: %v", dir, err)
				}
				s.At = time.Since(start).Round(100 * time.Millisecond)
				if len(samples) > 0 && s.Current >= prev.Current {
					maxGrowth = max(maxGrowth, s.Current-prev.Current)
				}
				samples = append(samples, s)
				prev = s
				if s.Files > logMaxFiles {
					suite.ObjectEvidence(t, "log directory samples", samples)
					t.Fatalf("[issue 22] %d files in %s at %s: containerLogMaxFiles is %d", s.Files, dir, s.At, logMaxFiles)
				}
				// At most MaxFiles of MaxSize, the current and the newest
				// rotated file each with up to an interval (and a second
				// of sampling) of output more.
				bound := int64(logMaxFiles)*logMaxSize + 2*maxGrowth*int64(logInterval/time.Second+2)
				if s.Total > bound {
					suite.ObjectEvidence(t, "log directory samples", samples)
					t.Fatalf("[issue 22] %s holds %d bytes at %s, over the rotation bound %d (growth %d B/s)", dir, s.Total, s.At, bound, maxGrowth)
				}
				worstLease = max(worstLease, leaseAge(ctx, t, cs, other))
			}
			suite.Evidence(t, "log", fmt.Sprintf("%s after %s", dir, spinFor), fmt.Sprintf("%+v", samples[len(samples)-1]))
			last := samples[len(samples)-1]
			// written is what the container printed while sampled: the
			// current file's growth, and after a rotation the new file.
			rotations, written := 0, int64(0)
			for i := 1; i < len(samples); i++ {
				if samples[i].Current < samples[i-1].Current {
					rotations++
					written += samples[i].Current
				} else {
					written += samples[i].Current - samples[i-1].Current
				}
			}
			// A pass every interval rotates a file at or over MaxSize, so
			// three files' worth of output is at least two rotations
			// whatever the pace of the output (the machine's load).
			if written > 3*logMaxSize && rotations < 2 {
				suite.ObjectEvidence(t, "log directory samples", samples)
				t.Errorf("[issue 22] %d rotations in %s of %d bytes written (%d B/s at most): rotation must happen at every pass, not once", rotations, spinFor, written, maxGrowth)
			}
			if rotations >= 2 && last.GZ == 0 {
				t.Errorf("[issue 22] no compressed (.gz) rotated file after %d rotations", rotations)
			}
			// The other node: its lease renewed every 10 s (a quarter of
			// nodeLeaseDurationSeconds 40), its pod's 1 s probes never
			// failed.
			if worstLease > 20*time.Second {
				t.Errorf("[issue 22] the lease of %s was %s old while a container on %s printed: renewed every 10 s", other, worstLease, spinNode.Name)
			}
			p, err := cs.CoreV1().Pods(ns).Get(ctx, "steady", metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !ready(p) || p.Status.ContainerStatuses[0].RestartCount != 0 {
				suite.ObjectEvidence(t, "pod steady", p.Status)
				t.Errorf("[issue 22] pod steady on %s: ready %v, restarts %d; want ready, 0", other, ready(p), p.Status.ContainerStatuses[0].RestartCount)
			}
			evs, err := cs.CoreV1().Events(ns).List(ctx, metav1.ListOptions{FieldSelector: fields.Set{"involvedObject.name": "steady", "reason": "Unhealthy"}.AsSelector().String()})
			if err != nil {
				t.Fatal(err)
			}
			if len(evs.Items) > 0 {
				suite.EventEvidence(t, evs.Items[0])
				t.Errorf("[issue 22] pod steady's probes failed %d times while a container on another node printed", len(evs.Items))
			}
			// `kubectl logs --tail=2` still reads the current file.
			out, err := cs.CoreV1().Pods(ns).GetLogs("spin", &corev1.PodLogOptions{Container: "main", TailLines: ptr.To[int64](2)}).DoRaw(ctx)
			if err != nil || string(out) != "spinning\nspinning\n" {
				t.Errorf("[issue 22] kubectl logs --tail=2 spin: %q, %v", out, err)
			}
			_ = cs.CoreV1().Pods(ns).Delete(ctx, "spin", metav1.DeleteOptions{GracePeriodSeconds: new(int64)})
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// TestEmptyDirSizeLimit: an emptyDir written past its sizeLimit gets its
// pod evicted at the eviction manager's next pass, with the kubelet's
// reason and message.
func TestEmptyDirSizeLimit(t *testing.T) {
	t.Parallel() // see main_test.go
	const want = `Usage of EmptyDir volume "scratch" exceeds the limit "1Mi". `
	f := suite.Feature("an emptyDir written past its sizeLimit evicts its pod", "resources", "simnode").
		Assess("the pod is Failed, reason Evicted, with the kubelet's message", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cluster.SkipUnlessSimulated(t)
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "sizelimit")
			// seq 1 200000 is 1,288,895 bytes, written at once.
			p := suite.LinuxPod("filler", "sh", "-c", `x=$(seq 1 200000); echo "$x" > /scratch/fill; sleep 3600`)
			limit := resource.MustParse("1Mi")
			p.Spec.Volumes = []corev1.Volume{{Name: "scratch", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{SizeLimit: &limit}}}}
			p.Spec.Containers[0].VolumeMounts = []corev1.VolumeMount{{Name: "scratch", MountPath: "/scratch"}}
			suite.CreatePod(ctx, t, cs, ns, p)
			// The eviction manager passes every 10 s.
			got := suite.WaitPod(ctx, t, cs, ns, "filler", time.Minute, "Failed", suite.Failed)
			suite.ObjectEvidence(t, "pod filler", got.Status)
			if got.Status.Reason != "Evicted" || got.Status.Message != want {
				t.Errorf("[issue 22] pod filler: reason %q message %q; want Evicted, %q", got.Status.Reason, got.Status.Message, want)
			}
			ev := suite.WaitEvent(ctx, t, cs, ns, "Pod", "filler", "Evicted", want, 10*time.Second)
			suite.EventEvidence(t, ev)
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// ready tells whether the pod's Ready condition is True.
func ready(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// leaseAge is how long ago node's lease was renewed.
func leaseAge(ctx context.Context, t *testing.T, cs kubernetes.Interface, node string) time.Duration {
	l, err := cs.CoordinationV1().Leases(corev1.NamespaceNodeLease).Get(ctx, node, metav1.GetOptions{})
	if err != nil || l.Spec.RenewTime == nil {
		t.Fatalf("lease of %s: %v", node, err)
	}
	return time.Since(l.Spec.RenewTime.Time)
}
