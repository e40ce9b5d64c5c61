package nodes

import (
	"net"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"wink.dev/wink/simnode/config"
	"wink.dev/wink/simnode/internal/logs"
	"wink.dev/wink/simnode/rules"
)

// TestKubeletConfigAllocatable checks that the node's /configz explains
// its allocatable memory as e2e's Windows memory-limit spec computes it
// (test/e2e/windows/memory_limits.go checkNodeAllocatableTest: capacity -
// systemReserved - kubeReserved - evictionSoft - evictionHard, each read
// from the configz, N5).
func TestKubeletConfigAllocatable(t *testing.T) {
	for _, tc := range []struct {
		name string
		pool config.Pool
		hard map[string]string
	}{
		{name: "windows defaults", pool: config.Pool{Name: "w", OS: "windows",
			Capacity:       corev1.ResourceList{"cpu": q("4"), "memory": q("16Gi"), "pods": q("110")},
			SystemReserved: corev1.ResourceList{"cpu": q("500m"), "memory": q("2Gi")},
			EvictionHard:   map[string]string{"memory.available": "500Mi"}}},
		{name: "windows kube and system reserved", pool: config.Pool{Name: "w", OS: "windows",
			Capacity:       corev1.ResourceList{"cpu": q("8"), "memory": q("32Gi"), "pods": q("250")},
			KubeReserved:   corev1.ResourceList{"memory": q("1Gi")},
			SystemReserved: corev1.ResourceList{"memory": q("2Gi")},
			EvictionHard:   map[string]string{"memory.available": "300Mi"}}},
		{name: "linux", pool: config.Pool{Name: "l", OS: "linux",
			Capacity:     corev1.ResourceList{"cpu": q("4"), "memory": q("8Gi"), "pods": q("110")},
			EvictionHard: map[string]string{"memory.available": "100Mi"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := Spec{ClusterName: "c", Pool: tc.pool, InternalIP: net.ParseIP("172.18.0.2"), DefaultKubeletVersion: "v1.35.4", KubeletPort: 10250}
			n, info, err := Build(rules.Default(), spec, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			c := KubeletConfig(spec, info, KubeletSettings{EvictionHard: tc.pool.EvictionHard, ShutdownGracePeriod: 30 * time.Second})
			parse := func(s string) resource.Quantity {
				v, err := resource.ParseQuantity(s)
				if err != nil {
					return resource.Quantity{}
				}
				return v
			}
			calc := n.Status.Capacity.Memory().DeepCopy()
			for _, s := range []string{c.SystemReserved["memory"], c.KubeReserved["memory"], c.EvictionSoft["memory.available"], c.EvictionHard["memory.available"]} {
				calc.Sub(parse(s))
			}
			if calc.Cmp(*n.Status.Allocatable.Memory()) != 0 {
				t.Errorf("configz explains allocatable memory %s, node reports %s", calc.String(), n.Status.Allocatable.Memory().String())
			}
			if c.MaxPods != int32(n.Status.Capacity.Pods().Value()) {
				t.Errorf("maxPods %d, capacity pods %s", c.MaxPods, n.Status.Capacity.Pods())
			}
			if c.Port != 10250 || c.ShutdownGracePeriod.Duration != 30*time.Second {
				t.Errorf("port %d, shutdownGracePeriod %s", c.Port, c.ShutdownGracePeriod.Duration)
			}
			if wantQOS := tc.pool.OS != "windows"; c.CgroupsPerQOS == nil || *c.CgroupsPerQOS != wantQOS {
				t.Errorf("cgroupsPerQOS %v, want %v", c.CgroupsPerQOS, wantQOS)
			}
		})
	}
}

// TestKubeletConfigWritePath checks the write-path settings a pool's
// nodes run with: the kubelet's defaults (pkg/kubelet/apis/config/v1beta1
// defaults.go: eventRecordQPS 50, eventBurst 100, nodeLeaseDurationSeconds
// 40, nodeStatusReportFrequency 5m, nodeStatusUpdateFrequency 10s) unless
// the pool sets them.
func TestKubeletConfigWritePath(t *testing.T) {
	for _, tc := range []struct {
		name    string
		kubelet *config.KubeletWritePath
		want    WritePath
	}{
		{name: "defaults", want: WritePath{LeaseDurationSeconds: 40, StatusReport: 5 * time.Minute, EventQPS: 50, EventBurst: 100}},
		{name: "pool sets all", kubelet: &config.KubeletWritePath{
			EventRecordQPS: ptrTo[int32](5), EventBurst: ptrTo[int32](7),
			NodeLeaseDurationSeconds:  ptrTo[int32](20),
			NodeStatusReportFrequency: &metav1.Duration{Duration: time.Minute},
		}, want: WritePath{LeaseDurationSeconds: 20, StatusReport: time.Minute, EventQPS: 5, EventBurst: 7}},
		{name: "pool sets eventRecordQPS 0", kubelet: &config.KubeletWritePath{EventRecordQPS: ptrTo[int32](0)},
			want: WritePath{LeaseDurationSeconds: 40, StatusReport: 5 * time.Minute, EventQPS: 0, EventBurst: 100}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pool := config.Pool{Name: "w", OS: "windows", Kubelet: tc.kubelet}
			spec := Spec{ClusterName: "c", Pool: pool, InternalIP: net.ParseIP("172.18.0.2"), DefaultKubeletVersion: "v1.35.4", KubeletPort: 10250}
			_, info, err := Build(rules.Default(), spec, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			c := KubeletConfig(spec, info, KubeletSettings{})
			if got := WritePathOf(c); got != tc.want {
				t.Errorf("write path %+v, want %+v", got, tc.want)
			}
			if c.NodeStatusUpdateFrequency.Duration != 10*time.Second {
				t.Errorf("nodeStatusUpdateFrequency %s, want the kubelet's 10s", c.NodeStatusUpdateFrequency.Duration)
			}
		})
	}
}

func ptrTo[T any](v T) *T { return &v }

// The container log manager runs with the node's /configz values (issue
// 22): the kubelet's defaults (containerLogMaxSize 10Mi,
// containerLogMaxFiles 5, containerLogMaxWorkers 1,
// containerLogMonitorInterval 10s) unless the pool sets them.
func TestKubeletConfigLogRotation(t *testing.T) {
	for _, tc := range []struct {
		name    string
		kubelet *config.KubeletWritePath
		want    logs.Rotation
	}{
		{name: "defaults", want: logs.DefaultRotation},
		{name: "pool sets all", kubelet: &config.KubeletWritePath{
			ContainerLogMaxSize: "1Mi", ContainerLogMaxFiles: ptrTo[int32](3), ContainerLogMaxWorkers: ptrTo[int32](4),
			ContainerLogMonitorInterval: &metav1.Duration{Duration: 5 * time.Second},
		}, want: logs.Rotation{MaxSize: 1 << 20, MaxFiles: 3, MaxWorkers: 4, MonitorInterval: 5 * time.Second}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pool := config.Pool{Name: "l", OS: "linux", Kubelet: tc.kubelet}
			spec := Spec{ClusterName: "c", Pool: pool, InternalIP: net.ParseIP("172.18.0.2"), DefaultKubeletVersion: "v1.35.4", KubeletPort: 10250}
			_, info, err := Build(rules.Default(), spec, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			c := KubeletConfig(spec, info, KubeletSettings{})
			if got := LogRotationOf(c); got != tc.want {
				t.Errorf("rotation %+v, want %+v", got, tc.want)
			}
		})
	}
}
