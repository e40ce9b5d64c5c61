package bench

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"

	"wink.dev/wink/harness"
)

// BenchmarkIdleRunningContainers rolls out a Deployment of
// `cmd /c ping -t localhost` pods (a line a second each), then one of pause
// pods, the same number (WINK_IDLE_CONTAINERS, default 1,000) over 50
// Windows nodes, after a warm-up rollout of both images, and prints their
// rollouts side by side in pods/s (goal: ping within 10 % of pause); and
// simnode's CPU at rest over a 30 s window from /proc/<pid>/stat, as % of
// one core, with the ping pods running (goal: < 5 %) and with the pause
// pods running (the nodes' own cost: leases, status), and its RSS.
func BenchmarkIdleRunningContainers(b *testing.B) {
	n := envCount(b, "WINK_IDLE_CONTAINERS", "containers", 1000)
	c, opts, _ := up(b, "bench-idle", podsConfig+"images: {resolve: offline}\n", true)
	cs := clientset(b, c.Kubeconfig)
	ns := "idle"
	namespaces(b, cs, ns)
	pid, err := harness.ComponentPID(opts, "simnode")
	if err != nil {
		b.Fatal(err)
	}
	pause := corev1.Container{Name: "pause", Image: "mcr.microsoft.com/oss/kubernetes/pause:3.9"}
	ping := corev1.Container{Name: "ping", Image: "mcr.microsoft.com/windows/nanoserver:ltsc2022", Command: []string{"cmd", "/c", "ping -t localhost"}}
	// A first rollout with both images, deleted: each measured rollout
	// then finds the images on the nodes and follows a deletion of as many
	// pods.
	rolloutWithCPU(b, cs, ns, "warm", n, pid, pause, ping)
	scaleToZero(b, cs, ns, "warm")
	b.ResetTimer()
	for range b.N {
		pingRate, pingCPU := rolloutWithCPU(b, cs, ns, "ping", n, pid, ping)
		pct := idleCPU(b, pid)
		rss := procStatusKiB(b, pid, "VmRSS")
		scaleToZero(b, cs, ns, "ping")
		pauseRate, pauseCPU := rolloutWithCPU(b, cs, ns, "pause", n, pid, pause)
		pausePct := idleCPU(b, pid)
		scaleToZero(b, cs, ns, "pause")

		b.ReportMetric(pauseRate, "pause-pods/s")
		b.ReportMetric(pingRate, "ping-pods/s")
		b.ReportMetric(pingRate/pauseRate, "ping/pause")
		b.ReportMetric(pct, "%CPU-idle")
		b.ReportMetric(pausePct, "%CPU-idle-pause")
		b.ReportMetric(rss/1024, "MiB-RSS")
		fmt.Printf("Deployment of %d over 50 Windows nodes, created -> all Ready: pause %.1f pods/s (simnode %.1f CPU-s), ping -t %.1f pods/s (simnode %.1f CPU-s): ping/pause %.2f (goal >= 0.9)\n",
			n, pauseRate, pauseCPU.Seconds(), pingRate, pingCPU.Seconds(), pingRate/pauseRate)
		fmt.Printf("simnode with %d running `ping -t localhost` containers: %.1f%% of one CPU over %s (goal < 5%%; with %d pause containers: %.1f%%), RSS %.0f MiB\n", n, pct, idleWindow, n, pausePct, rss/1024)
	}
}

// idleWindow is how long simnode's CPU is measured at rest.
const idleWindow = 30 * time.Second

// idleCPU waits until a rollout's writes settled and returns the CPU
// simnode uses over idleWindow, as % of one core.
func idleCPU(b *testing.B, pid int) float64 {
	b.Helper()
	time.Sleep(15 * time.Second)
	before := procCPU(b, pid)
	time.Sleep(idleWindow)
	return 100 * (procCPU(b, pid) - before).Seconds() / idleWindow.Seconds()
}

// rolloutWithCPU creates a Deployment of n replicas and returns its pods per
// second from creation until all are Ready, and the CPU simnode used
// meanwhile.
func rolloutWithCPU(b *testing.B, cs kubernetes.Interface, ns, name string, n, pid int, containers ...corev1.Container) (float64, time.Duration) {
	b.Helper()
	ctx := context.Background()
	labels := map[string]string{"app": name}
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To(int32(n)),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{
					NodeSelector: map[string]string{"kubernetes.io/os": "windows"},
					Tolerations:  []corev1.Toleration{{Key: "os", Value: "windows", Effect: corev1.TaintEffectNoSchedule}},
					Containers:   containers,
				},
			},
		},
	}
	for i := range containers {
		containers[i].Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("10m")}
	}
	cpu0 := procCPU(b, pid)
	start := time.Now()
	if _, err := cs.AppsV1().Deployments(ns).Create(ctx, d, metav1.CreateOptions{}); err != nil {
		b.Fatal(err)
	}
	deadline := start.Add(15 * time.Minute)
	for {
		cur, err := cs.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
		if err == nil && cur.Status.ReadyReplicas == int32(n) {
			break
		}
		if time.Now().After(deadline) {
			ready := int32(0)
			if cur != nil {
				ready = cur.Status.ReadyReplicas
			}
			b.Fatalf("Deployment %s: %d of %d Ready after 15 minutes", name, ready, n)
		}
		time.Sleep(250 * time.Millisecond)
	}
	return float64(n) / time.Since(start).Seconds(), procCPU(b, pid) - cpu0
}

// scaleToZero deletes a Deployment and waits until its pods are gone.
func scaleToZero(b *testing.B, cs kubernetes.Interface, ns, name string) {
	b.Helper()
	ctx := context.Background()
	if err := cs.AppsV1().Deployments(ns).Delete(ctx, name, metav1.DeleteOptions{PropagationPolicy: ptr.To(metav1.DeletePropagationForeground)}); err != nil {
		b.Fatal(err)
	}
	deadline := time.Now().Add(15 * time.Minute)
	for {
		list, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "app=" + name})
		if err == nil && len(list.Items) == 0 {
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("Deployment %s: pods left 15 minutes after its deletion", name)
		}
		time.Sleep(time.Second)
	}
}

// procCPU is the CPU time (user + system) process pid used so far, from
// /proc/<pid>/stat (fields 14 and 15, in USER_HZ = 100 ticks a second).
func procCPU(b *testing.B, pid int) time.Duration {
	b.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatal(err)
	}
	// The command name (field 2) may hold spaces: fields count from its
	// closing parenthesis.
	s := string(data)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(fields) < 13 {
		b.Fatalf("/proc/%d/stat: %q", pid, s)
	}
	utime, err1 := strconv.ParseInt(fields[11], 10, 64)
	stime, err2 := strconv.ParseInt(fields[12], 10, 64)
	if err1 != nil || err2 != nil {
		b.Fatalf("/proc/%d/stat: %q", pid, s)
	}
	return time.Duration(utime+stime) * (time.Second / 100)
}
