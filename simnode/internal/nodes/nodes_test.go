package nodes

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"wink.dev/wink/simnode/config"
	"wink.dev/wink/simnode/rules"
)

func q(s string) resource.Quantity { return resource.MustParse(s) }

func intp(i int) *int { return &i }

func labelString(m map[string]string) string {
	var kv []string
	for k, v := range m {
		kv = append(kv, k+"="+v)
	}
	sort.Strings(kv)
	return strings.Join(kv, ",")
}

// TestBuild checks N1-N7 per pool kind.
func TestBuild(t *testing.T) {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	winTaint := corev1.Taint{Key: "os", Value: "windows", Effect: corev1.TaintEffectNoSchedule}
	for _, tc := range []struct {
		name           string
		pool           config.Pool
		index          int
		wantName       string
		wantLabels     string
		wantOSImage    string
		wantKernel     string
		wantKubelet    string
		wantMachineID  string
		wantConditions string
		wantTaints     int
		wantAllocMem   string
		wantAllocCPU   string
	}{
		{
			name: "windows 2022 v1.35 (N1 N2 N3 N4 N5 N7)",
			pool: config.Pool{Name: "win", OS: "windows", WindowsBuild: "10.0.20348", Count: 2,
				Labels:         map[string]string{"team": "a"},
				Taints:         []corev1.Taint{winTaint},
				Capacity:       corev1.ResourceList{"cpu": q("8"), "memory": q("16Gi"), "pods": q("110"), "ephemeral-storage": q("100Gi")},
				KubeReserved:   corev1.ResourceList{"cpu": q("500m"), "memory": q("1Gi")},
				SystemReserved: corev1.ResourceList{"cpu": q("500m"), "memory": q("2Gi")},
			},
			index:          1,
			wantName:       "c1-win-1",
			wantLabels:     "beta.kubernetes.io/arch=amd64,beta.kubernetes.io/os=windows,kubernetes.io/arch=amd64,kubernetes.io/hostname=c1-win-1,kubernetes.io/os=windows,node.kubernetes.io/windows-build=10.0.20348,team=a",
			wantOSImage:    "Windows Server 2022 Datacenter",
			wantKernel:     "10.0.20348.1607",
			wantKubelet:    "v1.35.4",
			wantMachineID:  "c1-win-1",
			wantConditions: "MemoryPressure=False/KubeletHasSufficientMemory,DiskPressure=False/KubeletHasNoDiskPressure,PIDPressure=False/KubeletHasSufficientPID,Ready=True/KubeletReady",
			wantTaints:     1,
			wantAllocMem:   "12812Mi", // 16Gi - 1Gi - 2Gi - 500Mi
			wantAllocCPU:   "7",
		},
		{
			name: "windows 2019 v1.30 (N6: pressure pinned False, 100Mi eviction default)",
			pool: config.Pool{Name: "w19", OS: "windows", WindowsBuild: "10.0.17763", KubeletVersion: "v1.30.2",
				Capacity: corev1.ResourceList{"cpu": q("4"), "memory": q("8Gi"), "pods": q("110"), "ephemeral-storage": q("100Gi")},
			},
			wantName:       "c1-w19-0",
			wantLabels:     "beta.kubernetes.io/arch=amd64,beta.kubernetes.io/os=windows,kubernetes.io/arch=amd64,kubernetes.io/hostname=c1-w19-0,kubernetes.io/os=windows,node.kubernetes.io/windows-build=10.0.17763",
			wantOSImage:    "Windows Server 2019 Datacenter",
			wantKernel:     "10.0.17763.4131",
			wantKubelet:    "v1.30.2",
			wantMachineID:  "c1-w19-0",
			wantConditions: "MemoryPressure=False/KubeletHasSufficientMemory,DiskPressure=False/KubeletHasNoDiskPressure,PIDPressure=False/KubeletHasSufficientPID,Ready=True/KubeletReady",
			wantAllocMem:   "8092Mi",
			wantAllocCPU:   "4",
		},
		{
			name: "windows 2025 with explicit evictionHard",
			pool: config.Pool{Name: "w25", OS: "windows", WindowsBuild: "10.0.26100",
				Capacity:     corev1.ResourceList{"cpu": q("4"), "memory": q("8Gi"), "pods": q("110"), "ephemeral-storage": q("100Gi")},
				EvictionHard: map[string]string{"memory.available": "1Gi"},
			},
			wantName:       "c1-w25-0",
			wantLabels:     "beta.kubernetes.io/arch=amd64,beta.kubernetes.io/os=windows,kubernetes.io/arch=amd64,kubernetes.io/hostname=c1-w25-0,kubernetes.io/os=windows,node.kubernetes.io/windows-build=10.0.26100",
			wantOSImage:    "Windows Server 2025 Datacenter",
			wantKernel:     "10.0.26100.4061",
			wantKubelet:    "v1.35.4",
			wantMachineID:  "c1-w25-0",
			wantConditions: "MemoryPressure=False/KubeletHasSufficientMemory,DiskPressure=False/KubeletHasNoDiskPressure,PIDPressure=False/KubeletHasSufficientPID,Ready=True/KubeletReady",
			wantAllocMem:   "7Gi",
			wantAllocCPU:   "4",
		},
		{
			name:           "linux, default capacity (N1 without N2)",
			pool:           config.Pool{Name: "lin", OS: "linux"},
			wantName:       "c1-lin-0",
			wantLabels:     "beta.kubernetes.io/arch=amd64,beta.kubernetes.io/os=linux,kubernetes.io/arch=amd64,kubernetes.io/hostname=c1-lin-0,kubernetes.io/os=linux",
			wantOSImage:    "Ubuntu 24.04.2 LTS",
			wantKernel:     "6.8.0-60-generic",
			wantKubelet:    "v1.35.4",
			wantConditions: "MemoryPressure=False/KubeletHasSufficientMemory,DiskPressure=False/KubeletHasNoDiskPressure,PIDPressure=False/KubeletHasSufficientPID,Ready=True/KubeletReady",
			wantAllocMem:   "8092Mi",
			wantAllocCPU:   "4",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, info, err := Build(rules.Default(), Spec{
				ClusterName: "c1", Pool: tc.pool, Index: tc.index, InternalIP: net.ParseIP("127.10.0.7"),
				DefaultKubeletVersion: "v1.35.4", BootID: "3", KubeletPort: 10250,
			}, now)
			if err != nil {
				t.Fatal(err)
			}
			if n.Name != tc.wantName || info.Name != tc.wantName {
				t.Errorf("name %s", n.Name)
			}
			if got := labelString(n.Labels); got != tc.wantLabels {
				t.Errorf("labels\n got %s\nwant %s", got, tc.wantLabels)
			}
			for _, bad := range []string{"type", "kubernetes.io/role"} {
				if _, ok := n.Labels[bad]; ok {
					t.Errorf("virtual-kubelet label %s present", bad)
				}
			}
			ni := n.Status.NodeInfo
			if ni.OSImage != tc.wantOSImage || ni.KernelVersion != tc.wantKernel || ni.KubeletVersion != tc.wantKubelet {
				t.Errorf("nodeInfo %+v", ni)
			}
			if ni.OperatingSystem != string(tc.pool.OS) || ni.Architecture != "amd64" || ni.BootID != "3" || ni.KubeProxyVersion != "" || ni.SystemUUID == "" {
				t.Errorf("nodeInfo %+v", ni)
			}
			if tc.wantMachineID != "" && ni.MachineID != tc.wantMachineID {
				t.Errorf("machineID %s", ni.MachineID)
			}
			if tc.wantMachineID == "" && len(ni.MachineID) != 32 {
				t.Errorf("linux machineID %q", ni.MachineID)
			}
			var conds []string
			for _, c := range n.Status.Conditions {
				conds = append(conds, string(c.Type)+"="+string(c.Status)+"/"+c.Reason)
				if !c.LastTransitionTime.Time.Equal(now) {
					t.Errorf("condition %s time %v", c.Type, c.LastTransitionTime)
				}
			}
			if got := strings.Join(conds, ","); got != tc.wantConditions {
				t.Errorf("conditions %s", got)
			}
			if len(n.Spec.Taints) != tc.wantTaints {
				t.Errorf("taints %v", n.Spec.Taints)
			}
			for _, taint := range n.Spec.Taints {
				if strings.HasPrefix(taint.Key, "virtual-kubelet.io") {
					t.Errorf("virtual-kubelet taint %v", taint)
				}
			}
			mem := n.Status.Allocatable[corev1.ResourceMemory]
			if want := q(tc.wantAllocMem); mem.Cmp(want) != 0 {
				t.Errorf("allocatable memory %s, want %s", mem.String(), tc.wantAllocMem)
			}
			cpu := n.Status.Allocatable[corev1.ResourceCPU]
			if want := q(tc.wantAllocCPU); cpu.Cmp(want) != 0 {
				t.Errorf("allocatable cpu %s, want %s", cpu.String(), tc.wantAllocCPU)
			}
			if len(n.Status.Addresses) != 2 || n.Status.Addresses[0].Address != "127.10.0.7" || n.Status.Addresses[1].Address != tc.wantName {
				t.Errorf("addresses %v", n.Status.Addresses)
			}
			if n.Status.DaemonEndpoints.KubeletEndpoint.Port != 10250 {
				t.Errorf("daemonEndpoints %v", n.Status.DaemonEndpoints)
			}
		})
	}
}

func TestBuildRejectsOldKubelet(t *testing.T) {
	_, _, err := Build(rules.Default(), Spec{ClusterName: "c", Pool: config.Pool{Name: "p", OS: "windows", KubeletVersion: "v1.22.0"}, InternalIP: net.ParseIP("127.0.0.2")}, time.Now())
	if err == nil {
		t.Fatal("v1.22.0 accepted")
	}
}

func TestAllocatable(t *testing.T) {
	for _, tc := range []struct {
		name     string
		capacity corev1.ResourceList
		kube     corev1.ResourceList
		system   corev1.ResourceList
		eviction map[string]string
		want     corev1.ResourceList
	}{
		{
			name:     "memory and storage evictions",
			capacity: corev1.ResourceList{"memory": q("4Gi"), "ephemeral-storage": q("100Gi"), "pods": q("110")},
			system:   corev1.ResourceList{"memory": q("2Gi")},
			eviction: map[string]string{"memory.available": "500Mi", "nodefs.available": "10%"},
			// 10% is a float32 fraction in the kubelet (parsePercentage):
			// 100Gi × float32(0.1) = 10737418400, not 10Gi.
			want: corev1.ResourceList{"memory": q("1548Mi"), "ephemeral-storage": q("96636764000"), "pods": q("110")},
		},
		{
			name:     "never below zero",
			capacity: corev1.ResourceList{"cpu": q("1")},
			kube:     corev1.ResourceList{"cpu": q("2")},
			want:     corev1.ResourceList{"cpu": q("0")},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Allocatable(tc.capacity, tc.kube, tc.system, tc.eviction)
			if err != nil {
				t.Fatal(err)
			}
			for k, want := range tc.want {
				g := got[k]
				if g.Cmp(want) != 0 {
					t.Errorf("%s: %s, want %s", k, g.String(), want.String())
				}
			}
		})
	}
}

func TestBootID(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "n")
	id, err := LoadBootID(dir)
	if err != nil || id != "1" {
		t.Fatalf("first boot %q %v", id, err)
	}
	if id, _ = LoadBootID(dir); id != "1" {
		t.Fatalf("restart changed bootID to %s", id)
	}
	if id, _ = BumpBootID(dir); id != "2" {
		t.Fatalf("reboot gave %s", id)
	}
	if err := os.WriteFile(filepath.Join(dir, "boot-id"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadBootID(dir); err == nil {
		t.Fatal("garbage bootID accepted")
	}
}

func TestProviderPushes(t *testing.T) {
	n, _, err := Build(rules.Default(), Spec{ClusterName: "c", Pool: config.Pool{Name: "p", OS: "linux"}, InternalIP: net.ParseIP("127.0.0.2"), DefaultKubeletVersion: "v1.35.0"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	p := NewProvider(n)
	got := make(chan *corev1.Node, 1)
	p.NotifyNodeStatus(context.Background(), func(n *corev1.Node) { got <- n })
	p.Update(func(n *corev1.Node) { n.Labels["x"] = "y" })
	select {
	case n := <-got:
		if n.Labels["x"] != "y" {
			t.Fatal("update not pushed")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no push")
	}
}
