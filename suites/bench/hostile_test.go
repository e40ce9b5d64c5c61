package bench

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"wink.dev/wink/harness"
)

// hostileConfig is two Windows Server 2022 nodes and two Linux nodes of 4
// CPUs each: the node's CPU the hostile loops share (process.CPUShare).
const hostileConfig = `apiVersion: wink.dev/v1alpha1
kind: Cluster
nodePools:
- name: win
  os: windows
  windowsBuild: "10.0.20348"
  count: 2
  capacity: {cpu: "4", memory: 64Gi, pods: "110"}
- name: linux
  os: linux
  count: 2
  capacity: {cpu: "4", memory: 64Gi, pods: "110"}
images: {resolve: offline}
`

type hostileLoop struct {
	name, image string
	windows     bool
	command     []string
}

// hostileLoops are the loops of issue 18, as many containers each: a
// variable that doubles (sh, PowerShell) and output floods (yes, cmd's
// endless for /L, PowerShell's while).
var hostileLoops = []hostileLoop{
	{"sh-double", "busybox:1.36", false, []string{"sh", "-c", "x=x; while :; do x=$x$x; done"}},
	{"yes", "busybox:1.36", false, []string{"yes"}},
	{"cmd-flood", "mcr.microsoft.com/windows/nanoserver:ltsc2022", true, []string{"cmd", "/c", "for /L %i in (1,0,2) do @echo flood"}},
	{"ps-double", "mcr.microsoft.com/windows/servercore:ltsc2022", true, []string{"powershell", "-Command", "$s = 'x'; while ($true) { $s += $s }"}},
	{"ps-flood", "mcr.microsoft.com/windows/servercore:ltsc2022", true, []string{"powershell", "-Command", "while ($true) { 'flood' }"}},
}

// BenchmarkHostileLoops runs 100 containers ($WINK_HOSTILE_CONTAINERS)
// each running a hostile loop (of $WINK_HOSTILE_LOOPS, comma-separated
// names; default all: a variable that doubles in sh and PowerShell, `yes`,
// cmd's endless `for /L` echo, PowerShell's endless output) and prints
// simnode's RSS (now and its peak, VmHWM) and CPU (% of one core over
// idleWindow) beside the same figures of the idle cluster. Issue 18:
// nothing a container runs grows simnode without bound; each container's
// processes hold at most its memory limit (64 MiB by default) and compute
// at most their share of the node's CPU.
func BenchmarkHostileLoops(b *testing.B) {
	n := envCount(b, "WINK_HOSTILE_CONTAINERS", "containers", 100)
	loops := hostileLoops
	if s := os.Getenv("WINK_HOSTILE_LOOPS"); s != "" {
		loops = nil
		for _, l := range hostileLoops {
			if strings.Contains(","+s+",", ","+l.name+",") {
				loops = append(loops, l)
			}
		}
		if len(loops) == 0 {
			b.Fatalf("WINK_HOSTILE_LOOPS=%q: want names of %s", s, hostileNames(hostileLoops))
		}
	}
	c, opts, _ := up(b, "bench-hostile", hostileConfig, true)
	cs := clientset(b, c.Kubeconfig)
	ns := "hostile"
	namespaces(b, cs, ns)
	pid, err := harness.ComponentPID(opts, "simnode")
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		idlePct := idleCPU(b, pid)
		idleRSS := procStatusKiB(b, pid, "VmRSS")
		createHostile(b, cs, ns, n, loops)
		pct := idleCPU(b, pid)
		rss, peak := procStatusKiB(b, pid, "VmRSS"), procStatusKiB(b, pid, "VmHWM")
		restarts, oom := hostileStatus(b, cs, ns)
		b.ReportMetric(rss/1024, "MiB-RSS")
		b.ReportMetric(peak/1024, "MiB-peak-RSS")
		b.ReportMetric(pct, "%CPU")
		b.ReportMetric(idleRSS/1024, "MiB-RSS-idle")
		b.ReportMetric(idlePct, "%CPU-idle")
		fmt.Printf("simnode with %d hostile containers (%s): RSS %.0f MiB (peak %.0f MiB), %.1f%% of one CPU over %s; idle: RSS %.0f MiB, %.1f%%; %d restarts, %d OOMKilled\n",
			n, hostileNames(loops), rss/1024, peak/1024, pct, idleWindow, idleRSS/1024, idlePct, restarts, oom)
	}
}

func hostileNames(loops []hostileLoop) string {
	var s []string
	for _, l := range loops {
		s = append(s, l.name)
	}
	return strings.Join(s, ", ")
}

// createHostile creates n pods, as many of each loop, and waits until
// every one has started once.
func createHostile(b *testing.B, cs kubernetes.Interface, ns string, n int, loops []hostileLoop) {
	b.Helper()
	ctx := context.Background()
	for i := range n {
		l := loops[i%len(loops)]
		osName := "linux"
		if l.windows {
			osName = "windows"
		}
		p := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s-%d", l.name, i), Labels: map[string]string{"app": "hostile"}},
			Spec: corev1.PodSpec{
				NodeSelector: map[string]string{"kubernetes.io/os": osName},
				Tolerations:  []corev1.Toleration{{Key: "os", Value: "windows", Effect: corev1.TaintEffectNoSchedule}},
				Containers: []corev1.Container{{Name: "loop", Image: l.image, Command: l.command,
					Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("10m")}}}},
			},
		}
		if _, err := cs.CoreV1().Pods(ns).Create(ctx, p, metav1.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	deadline := time.Now().Add(10 * time.Minute)
	for {
		list, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "app=hostile"})
		started := 0
		if err == nil {
			for _, p := range list.Items {
				for _, s := range p.Status.ContainerStatuses {
					if s.State.Running != nil || s.State.Terminated != nil || s.LastTerminationState.Terminated != nil {
						started++
					}
				}
			}
		}
		if started >= n {
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("%d of %d hostile containers started after 10 minutes", started, n)
		}
		time.Sleep(time.Second)
	}
}

// hostileStatus counts the restarts of the hostile containers and those
// OOMKilled (their current or last state).
func hostileStatus(b *testing.B, cs kubernetes.Interface, ns string) (restarts, oom int) {
	b.Helper()
	list, err := cs.CoreV1().Pods(ns).List(context.Background(), metav1.ListOptions{LabelSelector: "app=hostile"})
	if err != nil {
		b.Fatal(err)
	}
	for _, p := range list.Items {
		for _, s := range p.Status.ContainerStatuses {
			restarts += int(s.RestartCount)
			for _, t := range []*corev1.ContainerStateTerminated{s.State.Terminated, s.LastTerminationState.Terminated} {
				if t != nil && t.Reason == "OOMKilled" {
					oom++
					break
				}
			}
		}
	}
	return restarts, oom
}
