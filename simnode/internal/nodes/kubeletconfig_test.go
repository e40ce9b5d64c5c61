package nodes

import (
	"net"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"wink.dev/wink/simnode/config"
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
