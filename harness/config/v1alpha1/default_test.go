package v1alpha1

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"gotest.tools/v3/assert"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// quantities compares resource quantities by value.
var quantities = cmp.Comparer(func(a, b resource.Quantity) bool { return a.Cmp(b) == 0 })

func intPtr(i int) *int { return &i }

// duration returns a *metav1.Duration of s, e.g. "30s".
func duration(s string) *metav1.Duration {
	d, err := time.ParseDuration(s)
	if err != nil {
		panic(err)
	}
	return &metav1.Duration{Duration: d}
}

func resources(pairs ...string) corev1.ResourceList {
	list := corev1.ResourceList{}
	for i := 0; i < len(pairs); i += 2 {
		list[corev1.ResourceName(pairs[i])] = resource.MustParse(pairs[i+1])
	}
	return list
}

// defaultCluster is what Default makes of a config that sets nothing but
// apiVersion and kind: the golden default.
func defaultCluster() *Cluster {
	windowsTaints := []corev1.Taint{{Key: "os", Value: "windows", Effect: corev1.TaintEffectNoSchedule}}
	capacity := func() corev1.ResourceList {
		return resources("cpu", "4", "memory", "16Gi", "pods", "110", "ephemeral-storage", "100Gi")
	}
	return &Cluster{
		APIVersion: APIVersion,
		Kind:       Kind,
		Name:       "wink",
		Backend:    BackendEmbedded,
		Images:     Images{Resolve: ImageResolveRegistry},
		Simnode:    Simnode{Shards: 1},
		Networking: Networking{
			PodSubnet:        "10.244.0.0/16",
			NodeCIDRMaskSize: 24,
			ServiceSubnet:    "10.96.0.0/12",
			DNSDomain:        "cluster.local",
		},
		NodePools: []NodePool{
			{
				Name:                            "win2022",
				OS:                              OSWindows,
				WindowsBuild:                    "10.0.20348",
				Count:                           intPtr(2),
				Taints:                          windowsTaints,
				Capacity:                        capacity(),
				SystemReserved:                  resources("memory", "2Gi", "cpu", "500m"),
				EvictionHard:                    map[string]string{"memory.available": "500Mi"},
				ContainerRuntimeVersion:         "containerd://1.7.27",
				ShutdownGracePeriod:             duration("30s"),
				ShutdownGracePeriodCriticalPods: duration("10s"),
			},
			{
				Name:                            "win2019",
				OS:                              OSWindows,
				WindowsBuild:                    "10.0.17763",
				Count:                           intPtr(1),
				Taints:                          windowsTaints,
				Capacity:                        capacity(),
				SystemReserved:                  resources("memory", "2Gi", "cpu", "500m"),
				EvictionHard:                    map[string]string{"memory.available": "500Mi"},
				ContainerRuntimeVersion:         "containerd://1.7.27",
				ShutdownGracePeriod:             duration("30s"),
				ShutdownGracePeriodCriticalPods: duration("10s"),
			},
			{
				Name:                            "linux",
				OS:                              OSLinux,
				Count:                           intPtr(1),
				Capacity:                        capacity(),
				EvictionHard:                    map[string]string{"memory.available": "100Mi"},
				ContainerRuntimeVersion:         "containerd://2.1.4",
				ShutdownGracePeriod:             duration("30s"),
				ShutdownGracePeriodCriticalPods: duration("10s"),
			},
		},
	}
}

func TestDefault(t *testing.T) {
	tests := []struct {
		name string
		in   *Cluster
		want func() *Cluster
	}{
		{
			name: "empty config gets the default cluster",
			in:   &Cluster{APIVersion: APIVersion, Kind: Kind},
			want: defaultCluster,
		},
		{
			name: "apiVersion and kind are not defaulted",
			in:   &Cluster{},
			want: func() *Cluster {
				c := defaultCluster()
				c.APIVersion, c.Kind = "", ""
				return c
			},
		},
		{
			name: "user values are kept",
			in: &Cluster{
				Name:       "mine",
				Backend:    BackendExisting,
				Kubeconfig: "/tmp/kubeconfig",
				Networking: Networking{PodSubnet: "10.0.0.0/14", NodeAddressBase: "127.20.0.2"},
			},
			want: func() *Cluster {
				c := defaultCluster()
				c.APIVersion, c.Kind = "", ""
				c.Name, c.Backend, c.Kubeconfig = "mine", BackendExisting, "/tmp/kubeconfig"
				c.Networking.PodSubnet = "10.0.0.0/14"
				c.Networking.NodeAddressBase = "127.20.0.2"
				return c
			},
		},
		{
			name: "an explicit empty pool list stays empty",
			in:   &Cluster{NodePools: []NodePool{}},
			want: func() *Cluster {
				c := defaultCluster()
				c.APIVersion, c.Kind = "", ""
				c.NodePools = []NodePool{}
				return c
			},
		},
		{
			name: "windows pool: every field defaulted",
			in:   &Cluster{NodePools: []NodePool{{Name: "w", OS: OSWindows}}},
			want: func() *Cluster {
				c := defaultCluster()
				c.APIVersion, c.Kind = "", ""
				c.NodePools = c.NodePools[:1]
				c.NodePools[0].Name = "w"
				c.NodePools[0].Count = intPtr(1)
				return c
			},
		},
		{
			name: "windows pool: explicit values, an empty taint list and partial lists are kept",
			in: &Cluster{NodePools: []NodePool{{
				Name:                    "w",
				OS:                      OSWindows,
				WindowsBuild:            WindowsServer2025,
				Count:                   intPtr(0),
				Taints:                  []corev1.Taint{},
				Capacity:                resources("memory", "32Gi"),
				KubeReserved:            resources("cpu", "100m"),
				SystemReserved:          resources("memory", "0"),
				EvictionHard:            map[string]string{"nodefs.available": "5%"},
				KubeletVersion:          "v1.32.1",
				ContainerRuntimeVersion: "containerd://2.0.0",
			}}},
			want: func() *Cluster {
				c := defaultCluster()
				c.APIVersion, c.Kind = "", ""
				c.NodePools = []NodePool{{
					Name:                            "w",
					OS:                              OSWindows,
					WindowsBuild:                    WindowsServer2025,
					Count:                           intPtr(0),
					Taints:                          []corev1.Taint{},
					Capacity:                        resources("cpu", "4", "memory", "32Gi", "pods", "110", "ephemeral-storage", "100Gi"),
					KubeReserved:                    resources("cpu", "100m"),
					SystemReserved:                  resources("memory", "0", "cpu", "500m"),
					EvictionHard:                    map[string]string{"nodefs.available": "5%", "memory.available": "500Mi"},
					KubeletVersion:                  "v1.32.1",
					ContainerRuntimeVersion:         "containerd://2.0.0",
					ShutdownGracePeriod:             duration("30s"),
					ShutdownGracePeriodCriticalPods: duration("10s"),
				}}
				return c
			},
		},
		{
			name: "windows pool: kubelet before v1.31 gets the old 100Mi memory.available",
			in:   &Cluster{NodePools: []NodePool{{Name: "w", OS: OSWindows, KubeletVersion: "v1.30.2"}}},
			want: func() *Cluster {
				c := defaultCluster()
				c.APIVersion, c.Kind = "", ""
				c.NodePools = c.NodePools[:1]
				c.NodePools[0].Name = "w"
				c.NodePools[0].Count = intPtr(1)
				c.NodePools[0].KubeletVersion = "v1.30.2"
				c.NodePools[0].EvictionHard = map[string]string{"memory.available": "100Mi"}
				return c
			},
		},
		{
			name: "linux pool: no taints, build or system reservation",
			in:   &Cluster{NodePools: []NodePool{{Name: "l", OS: OSLinux, Count: intPtr(3)}}},
			want: func() *Cluster {
				c := defaultCluster()
				c.APIVersion, c.Kind = "", ""
				c.NodePools = c.NodePools[2:]
				c.NodePools[0].Name = "l"
				c.NodePools[0].Count = intPtr(3)
				return c
			},
		},
		{
			name: "pool without os: only the OS-independent defaults",
			in:   &Cluster{NodePools: []NodePool{{Name: "x"}}},
			want: func() *Cluster {
				c := defaultCluster()
				c.APIVersion, c.Kind = "", ""
				c.NodePools = []NodePool{{
					Name:                            "x",
					Count:                           intPtr(1),
					Capacity:                        resources("cpu", "4", "memory", "16Gi", "pods", "110", "ephemeral-storage", "100Gi"),
					ShutdownGracePeriod:             duration("30s"),
					ShutdownGracePeriodCriticalPods: duration("10s"),
				}}
				return c
			},
		},
		// Graceful node shutdown (B15): the rules' 30s/10s when neither
		// field is set; otherwise the kubelet's 0s for an unset
		// shutdownGracePeriodCriticalPods, so that "0s" alone turns the
		// manager off.
		{
			name: "shutdown grace periods: explicit values are kept",
			in:   &Cluster{NodePools: []NodePool{{Name: "l", OS: OSLinux, ShutdownGracePeriod: duration("20s"), ShutdownGracePeriodCriticalPods: duration("5s")}}},
			want: func() *Cluster { return linuxPool("20s", "5s") },
		},
		{
			name: "shutdown grace periods: 0s alone turns graceful node shutdown off",
			in:   &Cluster{NodePools: []NodePool{{Name: "l", OS: OSLinux, ShutdownGracePeriod: duration("0s")}}},
			want: func() *Cluster { return linuxPool("0s", "0s") },
		},
		{
			name: "shutdown grace periods: shutdownGracePeriod alone leaves no part for critical pods",
			in:   &Cluster{NodePools: []NodePool{{Name: "l", OS: OSLinux, ShutdownGracePeriod: duration("1m")}}},
			want: func() *Cluster { return linuxPool("1m", "0s") },
		},
		{
			name: "shutdown grace periods: shutdownGracePeriodCriticalPods alone gets the default shutdownGracePeriod",
			in:   &Cluster{NodePools: []NodePool{{Name: "l", OS: OSLinux, ShutdownGracePeriodCriticalPods: duration("15s")}}},
			want: func() *Cluster { return linuxPool("30s", "15s") },
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			Default(tc.in)
			assert.DeepEqual(t, tc.in, tc.want(), quantities)

			// Defaulting is idempotent.
			Default(tc.in)
			assert.DeepEqual(t, tc.in, tc.want(), quantities)
		})
	}
}

// linuxPool is the defaulted cluster of one linux pool "l" with the given
// shutdown grace periods (B15).
func linuxPool(gracePeriod, criticalPods string) *Cluster {
	c := defaultClusterWithoutIdentity()
	c.NodePools = c.NodePools[2:]
	c.NodePools[0].Name = "l"
	c.NodePools[0].ShutdownGracePeriod = duration(gracePeriod)
	c.NodePools[0].ShutdownGracePeriodCriticalPods = duration(criticalPods)
	return c
}

func TestDefaultDoesNotShareState(t *testing.T) {
	a, b := &Cluster{}, &Cluster{}
	Default(a)
	Default(b)
	a.NodePools[0].Capacity[corev1.ResourceCPU] = resource.MustParse("64")
	a.NodePools[0].Taints[0].Value = "changed"
	a.NodePools[0].EvictionHard["memory.available"] = "1Gi"
	a.NodePools[0].ShutdownGracePeriod.Duration = time.Minute
	assert.DeepEqual(t, b, defaultClusterWithoutIdentity(), quantities)
}

func defaultClusterWithoutIdentity() *Cluster {
	c := defaultCluster()
	c.APIVersion, c.Kind = "", ""
	return c
}

func TestDefaultClusterIsValid(t *testing.T) {
	c := &Cluster{APIVersion: APIVersion, Kind: Kind}
	Default(c)
	assert.NilError(t, Validate(c))
}

// TestDefaultPodSubnetFitsThePools: a pool larger than the default
// podSubnet's 256 node /24s gets a podSubnet that fits (issue 20); a
// podSubnet or nodeCIDRMaskSize the user set is kept, and validated.
func TestDefaultPodSubnetFitsThePools(t *testing.T) {
	pool := func(n int) []NodePool {
		return []NodePool{{Name: "win", OS: "windows", Count: &n}}
	}
	for _, tt := range []struct {
		nodes int
		want  string
	}{{4, "10.244.0.0/16"}, {256, "10.244.0.0/16"}, {257, "10.244.0.0/15"}, {1000, "10.244.0.0/14"}, {MaxNodes, "10.224.0.0/11"}} {
		c := &Cluster{APIVersion: APIVersion, Kind: Kind, NodePools: pool(tt.nodes)}
		Default(c)
		assert.Equal(t, c.Networking.PodSubnet, tt.want, "%d nodes", tt.nodes)
		assert.NilError(t, Validate(c), "%d nodes", tt.nodes)
	}
	c := &Cluster{APIVersion: APIVersion, Kind: Kind, NodePools: pool(300), Networking: Networking{NodeCIDRMaskSize: 24}}
	Default(c)
	assert.Equal(t, c.Networking.PodSubnet, DefaultPodSubnet)
	assert.ErrorContains(t, Validate(c), "has room for 256 node podCIDRs of /24, but the pools have 300 nodes")
}
