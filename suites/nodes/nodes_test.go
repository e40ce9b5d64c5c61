package nodes

import (
	"context"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/version"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/harness"
	"wink.dev/wink/harness/config/v1alpha1"
	"wink.dev/wink/suites/suite"
)

// osImages are the product names real Windows Server nodes report (row N3).
var osImages = map[string]string{
	v1alpha1.WindowsServer2019: "Windows Server 2019 Datacenter",
	v1alpha1.WindowsServer2022: "Windows Server 2022 Datacenter",
	v1alpha1.WindowsServer2025: "Windows Server 2025 Datacenter",
}

// poolNodes pairs every node of the cluster's configuration with its pool.
func poolNodes(ctx context.Context, t *testing.T, cfg *envconf.Config) (map[string]v1alpha1.NodePool, map[string]corev1.Node) {
	t.Helper()
	cluster.SkipUnlessSimulated(t)
	wc, err := harness.ClusterConfig(cluster.Options)
	if err != nil {
		t.Fatal(err)
	}
	pools := map[string]v1alpha1.NodePool{}
	for _, p := range wc.NodePools {
		for i := range *p.Count {
			pools[wc.Name+"-"+p.Name+"-"+strconv.Itoa(i)] = p
		}
	}
	list, err := suite.Clientset(t, cfg).CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	nodes := map[string]corev1.Node{}
	for _, n := range list.Items {
		nodes[n.Name] = n
	}
	for name := range pools {
		if _, ok := nodes[name]; !ok {
			t.Fatalf("node %s of the configuration is not registered", name)
		}
	}
	return pools, nodes
}

func TestNodeIdentity(t *testing.T) {
	f := suite.Feature("nodes look like their kubelets", "nodes", "simnode", "N1", "N2", "N3", "N4").
		Assess("labels are exactly the kubelet's (N1, N2) plus the pool's", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			pools, nodes := poolNodes(ctx, t, cfg)
			for name, pool := range pools {
				want := map[string]string{
					"kubernetes.io/os":        string(pool.OS),
					"beta.kubernetes.io/os":   string(pool.OS),
					"kubernetes.io/arch":      "amd64",
					"beta.kubernetes.io/arch": "amd64",
					"kubernetes.io/hostname":  name,
				}
				if pool.OS == v1alpha1.OSWindows {
					want["node.kubernetes.io/windows-build"] = pool.WindowsBuild // N2
				}
				maps.Copy(want, pool.Labels)
				suite.Evidence(t, suite.EvidenceObject, "node "+name+" labels (N1, N2)", labelsYAML(nodes[name].Labels))
				if got := nodes[name].Labels; !maps.Equal(got, want) {
					t.Errorf("[N1,N2] node %s labels:\n got %v\nwant %v", name, got, want)
				}
			}
			return ctx
		}).
		Assess("nodeInfo is a Windows Server's (N3)", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			pools, nodes := poolNodes(ctx, t, cfg)
			for name, pool := range pools {
				info := nodes[name].Status.NodeInfo
				suite.ObjectEvidence(t, "node "+name+" status.nodeInfo (N3)", info)
				if info.OperatingSystem != string(pool.OS) || info.Architecture != "amd64" {
					t.Errorf("[N3] node %s: operatingSystem/architecture %s/%s", name, info.OperatingSystem, info.Architecture)
				}
				if !strings.HasPrefix(info.ContainerRuntimeVersion, "containerd://") {
					t.Errorf("[N3] node %s: containerRuntimeVersion %q, want containerd://<version>", name, info.ContainerRuntimeVersion)
				}
				if !isDecimal(info.BootID) {
					t.Errorf("[N3] node %s: bootID %q, want a decimal integer", name, info.BootID)
				}
				if pool.OS != v1alpha1.OSWindows {
					continue
				}
				if info.OSImage != osImages[pool.WindowsBuild] {
					suite.Fail(t, "N3", name+" osImage", info.OSImage, osImages[pool.WindowsBuild])
				}
				// kernelVersion is <major>.<minor>.<build>.<UBR>.
				if rest, ok := strings.CutPrefix(info.KernelVersion, pool.WindowsBuild+"."); !ok || !isDecimal(rest) {
					suite.Fail(t, "N3", name+" kernelVersion", info.KernelVersion, pool.WindowsBuild+".<UBR>")
				}
				if info.MachineID != name {
					suite.Fail(t, "N3", name+" machineID", info.MachineID, name)
				}
			}
			return ctx
		}).
		Assess("taints are the pool's, e.g. os=windows:NoSchedule (N4)", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			pools, nodes := poolNodes(ctx, t, cfg)
			for name, pool := range pools {
				got := nodes[name].Spec.Taints
				if len(got) != len(pool.Taints) {
					t.Errorf("[N4] node %s taints %v, want %v", name, got, pool.Taints)
					continue
				}
				for i, want := range pool.Taints {
					if got[i].Key != want.Key || got[i].Value != want.Value || got[i].Effect != want.Effect {
						t.Errorf("[N4] node %s taint %d: %v, want %v", name, i, got[i], want)
					}
				}
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

func TestAllocatableAndConditions(t *testing.T) {
	f := suite.Feature("allocatable and conditions follow the kubelet version", "nodes", "simnode", "N5", "N6", "N7").
		Assess("allocatable = capacity − kubeReserved − systemReserved − evictionHard (N5)", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			pools, nodes := poolNodes(ctx, t, cfg)
			for name, pool := range pools {
				st := nodes[name].Status
				for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
					want := pool.Capacity[r].DeepCopy()
					want.Sub(pool.KubeReserved[r])
					want.Sub(pool.SystemReserved[r])
					if r == corev1.ResourceMemory {
						want.Sub(resource.MustParse(pool.EvictionHard["memory.available"]))
					}
					got := st.Allocatable[r]
					if got.Cmp(want) != 0 {
						suite.Fail(t, "N5", name+" allocatable "+string(r), got.String(), want.String())
					}
					gotCap := st.Capacity[r]
					if gotCap.Cmp(pool.Capacity[r]) != 0 {
						suite.Fail(t, "N5", name+" capacity "+string(r), gotCap.String(), pool.Capacity[r])
					}
				}
			}
			return ctx
		}).
		Assess("conditions by kubelet version (N6 before v1.31, N7 from v1.31)", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			_, nodes := poolNodes(ctx, t, cfg)
			for name, n := range nodes {
				conds := map[corev1.NodeConditionType]corev1.NodeCondition{}
				for _, c := range n.Status.Conditions {
					conds[c.Type] = c
				}
				if c := conds[corev1.NodeReady]; c.Status != corev1.ConditionTrue || c.Reason != "KubeletReady" {
					t.Errorf("[N6,N7] node %s Ready = %s (%s)", name, c.Status, c.Reason)
				}
				v := version.MustParseSemantic(n.Status.NodeInfo.KubeletVersion)
				if n.Labels["kubernetes.io/os"] != "windows" || v.LessThan(version.MajorMinor(1, 31)) {
					continue
				}
				// N7: from v1.31 Windows kubelets report the pressure conditions.
				for typ, reason := range map[corev1.NodeConditionType]string{
					corev1.NodeMemoryPressure: "KubeletHasSufficientMemory",
					corev1.NodeDiskPressure:   "KubeletHasNoDiskPressure",
					corev1.NodePIDPressure:    "KubeletHasSufficientPID",
				} {
					if c := conds[typ]; c.Status != corev1.ConditionFalse || c.Reason != reason {
						t.Errorf("[N7] node %s %s = %q (%q), want False (%s)", name, typ, c.Status, c.Reason, reason)
					}
				}
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

func isDecimal(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// labelsYAML shows a node's labels as the metadata.labels block of its YAML.
func labelsYAML(labels map[string]string) string {
	keys := slices.Sorted(maps.Keys(labels))
	var b strings.Builder
	b.WriteString("metadata:\n  labels:\n")
	for _, k := range keys {
		b.WriteString("    " + k + ": " + strconv.Quote(labels[k]) + "\n")
	}
	return b.String()
}
