package bench

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"wink.dev/wink/harness"
)

// deployNodes is the number of Windows Server 2022 nodes of
// BenchmarkDeploymentVsKwok (issue 13's measurement).
const deployNodes = 50

// deployReplicas is the Deployment's size: 3,000, or $WINK_BENCH_REPLICAS
// for a small run.
func deployReplicas(b *testing.B) int {
	b.Helper()
	return envCount(b, "WINK_BENCH_REPLICAS", "replicas", 3000)
}

// workload is a Deployment's pod as the benchmark runs it on both sides.
type workload struct {
	name      string
	image     string
	command   []string
	describes string
}

var workloads = []workload{
	{name: "pause", image: "mcr.microsoft.com/oss/kubernetes/pause:3.9", describes: "pause:3.9"},
	{name: "ping", image: "mcr.microsoft.com/windows/nanoserver:ltsc2022", command: []string{"cmd", "/c", "ping -t localhost"}, describes: "cmd /c ping -t localhost"},
}

func deployment(w workload, replicas int) *appsv1.Deployment {
	labels := map[string]string{"app": "bench-" + w.name}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "bench-" + w.name, Namespace: "default"},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptrInt32(int32(replicas)),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{
					NodeSelector: map[string]string{"kubernetes.io/os": "windows"},
					Tolerations:  []corev1.Toleration{{Key: "os", Value: "windows", Effect: corev1.TaintEffectNoSchedule}},
					Containers: []corev1.Container{{
						Name: "c", Image: w.image, Command: w.command,
						Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("10m")}},
					}},
				},
			},
		},
	}
}

func ptrInt32(v int32) *int32 { return &v }

// rollout creates the Deployment and returns pods per second from its
// creation until every replica is Ready (status.readyReplicas), or, when
// they are not all Ready within limit, Ready replicas per second so far
// and false.
func rollout(b *testing.B, cs kubernetes.Interface, d *appsv1.Deployment, limit time.Duration) (float64, bool) {
	b.Helper()
	ctx := context.Background()
	want := *d.Spec.Replicas
	start := time.Now()
	if _, err := cs.AppsV1().Deployments(d.Namespace).Create(ctx, d, metav1.CreateOptions{}); err != nil {
		b.Fatal(err)
	}
	for {
		got, err := cs.AppsV1().Deployments(d.Namespace).Get(ctx, d.Name, metav1.GetOptions{})
		if err == nil && got.Status.ReadyReplicas >= want {
			return float64(want) / time.Since(start).Seconds(), true
		}
		if time.Since(start) > limit {
			ready := int32(0)
			if err == nil {
				ready = got.Status.ReadyReplicas
			}
			b.Logf("%s: %d of %d replicas Ready after %s", d.Name, ready, want, limit)
			return float64(ready) / time.Since(start).Seconds(), false
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// rolloutLimit bounds one rollout of the benchmark.
const rolloutLimit = 10 * time.Minute

// deployPool is the Windows pool of both wink sides: deployNodes Windows
// Server 2022 nodes shaped as kwokNodes makes them.
var deployPool = fmt.Sprintf(`- name: win
  os: windows
  windowsBuild: "10.0.20348"
  count: %d
  capacity: {cpu: "64", memory: 256Gi, pods: "110"}
  taints: [{key: os, value: windows, effect: NoSchedule}]
`, deployNodes)

// windowsPoolConfig is wink's side of the benchmark: deployPool and the
// Linux node a cluster's system pods run on.
var windowsPoolConfig = `apiVersion: wink.dev/v1alpha1
kind: Cluster
images: {resolve: offline}
nodePools:
` + deployPool + `- name: linux
  os: linux
  count: 1
`

// BenchmarkDeploymentVsKwok rolls out the same Deployment (3,000 replicas,
// WINK_BENCH_REPLICAS for fewer) over 50 Windows Server 2022 nodes on kwok
// v0.8.0 (kwokctl's binary runtime, the control plane built from the same
// k8s.io/kubernetes, QPS limits off) and on wink, for a pause workload and
// a `cmd /c ping -t localhost` one, each on a fresh cluster, the third
// time with the nodes in benchShards simnode shards of backend existing,
// and prints pods/s side by side with wink/kwok (issue 13's goal: >= 1.2
// on both).
// It skips when kwok is not installed (`make kwok`).
func BenchmarkDeploymentVsKwok(b *testing.B) {
	replicas, shards := deployReplicas(b), benchShards(b)
	type result struct {
		kwok, wink, shards       float64
		kwokOK, winkOK, shardsOK bool
	}
	results := map[string]*result{}
	for range b.N {
		for _, w := range workloads {
			r := &result{}
			results[w.name] = r
			func() {
				k := kwokUp(b, "wink-bench-"+w.name, kubeletLease)
				cs := clientset(b, k.kubeconfig)
				kwokNodes(b, cs, deployNodes)
				waitSA(b, cs, "default")
				stop := profileKwok(b, "kwok-deploy-"+w.name, k)
				r.kwok, r.kwokOK = rollout(b, cs, deployment(w, replicas), rolloutLimit)
				stop(replicas, "pod")
				if _, err := k.run(context.Background(), "delete", "cluster", "--name", k.name, "--kubeconfig", k.kubeconfig); err != nil {
					b.Logf("kwokctl delete cluster: %v", err)
				}
			}()
			func() {
				c, opts, _ := up(b, "bench-deploy-"+w.name, windowsPoolConfig, true)
				r.wink, r.winkOK = winkRollout(b, c.Kubeconfig, opts, "deploy-"+w.name, deployment(w, replicas))
				deleteCluster(b, opts)
			}()
			func() {
				base, baseOpts, _ := up(b, "bench-deploy-cp-"+w.name, shardsBaseConfig, true)
				_, opts, _ := up(b, "bench-deploy-shards-"+w.name, joinedConfig(shards, base.Kubeconfig, deployPool), true)
				r.shards, r.shardsOK = winkRollout(b, base.Kubeconfig, baseOpts, "shards-deploy-"+w.name, deployment(w, replicas))
				deleteCluster(b, opts)
				deleteCluster(b, baseOpts)
			}()
		}
	}
	var table strings.Builder
	fmt.Fprintf(&table, "Deployment of %d replicas over %d Windows Server 2022 nodes, created -> all Ready:\n", replicas, deployNodes)
	fmt.Fprintf(&table, "| workload | kwok %s pods/s | wink pods/s | wink/kwok (goal >= 1.2) | wink, %d shards, pods/s | shards/kwok |\n|---|---|---|---|---|---|\n", kwokVersion, shards)
	for _, w := range workloads {
		r := results[w.name]
		ratio := r.wink / r.kwok
		fmt.Fprintf(&table, "| %s | %.1f%s | %.1f%s | %.2f | %.1f%s | %.2f |\n", w.describes, r.kwok, partial(r.kwokOK), r.wink, partial(r.winkOK), ratio,
			r.shards, partial(r.shardsOK), r.shards/r.kwok)
		b.ReportMetric(r.kwok, "kwok-"+w.name+"-pods/s")
		b.ReportMetric(r.wink, "wink-"+w.name+"-pods/s")
		b.ReportMetric(r.shards, "shards-"+w.name+"-pods/s")
		b.ReportMetric(ratio, w.name+"-ratio")
	}
	fmt.Print(table.String())
	fmt.Printf("(* not all Ready within %s: Ready replicas per second until then)\n", rolloutLimit)
}

// winkRollout is rollout on the wink cluster of kubeconfig, its control
// plane that of opts, profiled as phase.
func winkRollout(b *testing.B, kubeconfig string, opts harness.Options, phase string, d *appsv1.Deployment) (float64, bool) {
	b.Helper()
	cs := clientset(b, kubeconfig)
	waitSA(b, cs, "default")
	stop := profilePhase(b, phase, opts)
	defer stop(int(*d.Spec.Replicas), "pod")
	return rollout(b, cs, d, rolloutLimit)
}

func partial(ok bool) string {
	if ok {
		return ""
	}
	return " *"
}
