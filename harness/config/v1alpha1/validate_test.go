package v1alpha1

import (
	"errors"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// messages returns the message of every error joined in err.
func messages(err error) []string {
	if err == nil {
		return nil
	}
	var out []string
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		out = append(out, e.Error())
	}
	return out
}

const (
	dnsLabelFix   = `use at most 63 lower-case letters, digits and '-', starting and ending with a letter or digit`
	kubeletFix    = `write a version from v1.29.0 to v1.35.x as the node reports it, e.g. "v1.30.2", or leave it out for the control plane's`
	labelValueFix = `use at most 63 letters, digits, '-', '_' and '.', starting and ending with a letter or digit`
	qualifiedName = `name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`
	labelValueMsg = `a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`
	quantityFix   = `write a quantity such as "500Mi" or a percentage such as "10%"`
	shutdownFix   = `write a duration such as "30s", or "0s" to turn graceful node shutdown off`
)

func TestValidate(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(c *Cluster)
		want   []string
	}{
		{
			name:   "the default cluster is valid",
			mutate: func(*Cluster) {},
		},
		{
			name: "every field set and valid",
			mutate: func(c *Cluster) {
				c.Networking.NodeAddressBase = "127.10.3.2"
				c.KindBackend = &KindBackend{NodeImage: "kindest/node:v1.35.0"}
				p := &c.NodePools[0]
				p.WindowsBuild = WindowsServer2025
				p.Labels = map[string]string{
					"example.com/team":                 "windows",
					"topology.kubernetes.io/zone":      "zone-a",
					"node.kubernetes.io/instance-type": "Standard_D4s_v5",
					"kubelet.kubernetes.io/x":          "",
				}
				p.Taints = append(p.Taints, corev1.Taint{Key: "example.com/gpu", Effect: corev1.TaintEffectNoExecute})
				p.KubeReserved = resources("cpu", "100m", "memory", "500Mi", "ephemeral-storage", "1Gi")
				p.EvictionHard = map[string]string{
					"memory.available": "5%", "nodefs.available": "10%", "nodefs.inodesFree": "5%",
					"imagefs.available": "15%", "imagefs.inodesFree": "5%", "pid.available": "100",
				}
				p.KubeletVersion = "v1.29.0"
				c.NodePools[1].KubeletVersion = "v1.35.4"
				c.NodePools[2].ContainerRuntimeVersion = "cri-o://1.30.0"
			},
		},
		{
			name:   "backend existing with a kubeconfig",
			mutate: func(c *Cluster) { c.Backend, c.Kubeconfig = BackendExisting, "/tmp/kubeconfig" },
		},
		{
			name:   "no node pools",
			mutate: func(c *Cluster) { c.NodePools = []NodePool{} },
		},

		// identity
		{
			name:   "apiVersion and kind missing",
			mutate: func(c *Cluster) { c.APIVersion, c.Kind = "", "" },
			want: []string{
				`apiVersion: Required value: set apiVersion: wink.dev/v1alpha1`,
				`kind: Required value: set kind: Cluster`,
			},
		},
		{
			name:   "a kind config",
			mutate: func(c *Cluster) { c.APIVersion = "kind.x-k8s.io/v1alpha4" },
			want: []string{
				`apiVersion: Unsupported value: "kind.x-k8s.io/v1alpha4": this is a kind cluster config, wink.yaml has its own format (see fixtures/wink.yaml); supported values: "wink.dev/v1alpha1"`,
			},
		},
		{
			name:   "other apiVersion and kind",
			mutate: func(c *Cluster) { c.APIVersion, c.Kind = "wink.dev/v1", "Config" },
			want: []string{
				`apiVersion: Unsupported value: "wink.dev/v1": supported values: "wink.dev/v1alpha1"`,
				`kind: Unsupported value: "Config": supported values: "Cluster"`,
			},
		},

		// name and backend
		{
			name:   "name missing",
			mutate: func(c *Cluster) { c.Name = "" },
			want:   []string{`name: Required value: set name, e.g. name: wink`},
		},
		{
			name:   "name not a DNS label",
			mutate: func(c *Cluster) { c.Name = "My_Cluster" },
			want:   []string{`name: Invalid value: "My_Cluster": must be a DNS-1123 label; ` + dnsLabelFix + `, e.g. "wink"`},
		},
		{
			name:   "backend unknown",
			mutate: func(c *Cluster) { c.Backend = "docker" },
			want:   []string{`backend: Unsupported value: "docker": supported values: "embedded" (control plane in wink, no Docker), "kind" (a kind cluster), "existing" (the cluster of kubeconfig)`},
		},
		{
			name:   "backend missing",
			mutate: func(c *Cluster) { c.Backend = "" },
			want:   []string{`backend: Required value: set backend: embedded, kind or existing`},
		},
		{
			name:   "images.resolve unknown (B4: where image metadata comes from)",
			mutate: func(c *Cluster) { c.Images.Resolve = "online" },
			want:   []string{`images.resolve: Unsupported value: "online": supported values: "registry" (ask the image's registry, cache the answer under $WINK_HOME/cache/images), "offline" (the cache and fixtures/images.yaml only, no network)`},
		},
		{
			name:   "images.resolve missing",
			mutate: func(c *Cluster) { c.Images.Resolve = "" },
			want:   []string{`images.resolve: Required value: set images.resolve: registry or offline`},
		},
		{
			name:   "images.resolve offline",
			mutate: func(c *Cluster) { c.Images.Resolve = ImageResolveOffline },
		},
		{
			name:   "backend existing without kubeconfig",
			mutate: func(c *Cluster) { c.Backend = BackendExisting },
			want:   []string{`kubeconfig: Required value: backend existing joins the cluster of a kubeconfig; set kubeconfig to the path of that cluster's kubeconfig`},
		},

		// networking
		{
			name: "subnets missing",
			mutate: func(c *Cluster) {
				c.Networking.PodSubnet, c.Networking.ServiceSubnet, c.Networking.DNSDomain = "", "", ""
			},
			want: []string{
				`networking.podSubnet: Required value: set an IPv4 CIDR, e.g. 10.244.0.0/16`,
				`networking.serviceSubnet: Required value: set an IPv4 CIDR, e.g. 10.96.0.0/12`,
				`networking.dnsDomain: Required value: set dnsDomain, e.g. dnsDomain: cluster.local`,
			},
		},
		{
			name: "subnets malformed",
			mutate: func(c *Cluster) {
				c.Networking.PodSubnet, c.Networking.ServiceSubnet = "10.244.0.0", "fd00::/108"
			},
			want: []string{
				`networking.podSubnet: Invalid value: "10.244.0.0": must be a CIDR; write an IPv4 CIDR, e.g. 10.244.0.0/16`,
				`networking.serviceSubnet: Invalid value: "fd00::/108": IPv6 is not supported; write an IPv4 CIDR, e.g. 10.96.0.0/12`,
			},
		},
		{
			name:   "podSubnet with host bits",
			mutate: func(c *Cluster) { c.Networking.PodSubnet = "10.244.1.0/16" },
			want:   []string{`networking.podSubnet: Invalid value: "10.244.1.0/16": has host bits set; did you mean "10.244.0.0/16"?`},
		},
		{
			name:   "nodeCIDRMaskSize out of range",
			mutate: func(c *Cluster) { c.Networking.NodeCIDRMaskSize = 30 },
			want:   []string{`networking.nodeCIDRMaskSize: Invalid value: 30: must be from 16 to 28; e.g. 24, a /24 (256 pod addresses) per node`},
		},
		{
			name:   "nodeCIDRMaskSize not longer than podSubnet's prefix",
			mutate: func(c *Cluster) { c.Networking.PodSubnet = "10.244.0.0/24" },
			want:   []string{`networking.nodeCIDRMaskSize: Invalid value: 24: must be larger than the prefix length of podSubnet (/24), each node gets a part of it; set nodeCIDRMaskSize above 24, or give podSubnet a shorter prefix`},
		},
		{
			name: "podSubnet too small for the nodes",
			mutate: func(c *Cluster) {
				c.Networking.PodSubnet, c.Networking.NodeCIDRMaskSize = "10.244.0.0/23", 24
			},
			want: []string{`networking.podSubnet: Invalid value: "10.244.0.0/23": has room for 2 node podCIDRs of /24, but the pools have 4 nodes; give podSubnet a shorter prefix or raise nodeCIDRMaskSize`},
		},
		{
			name:   "serviceSubnet too large",
			mutate: func(c *Cluster) { c.Networking.ServiceSubnet = "10.0.0.0/8" },
			want:   []string{`networking.serviceSubnet: Invalid value: "10.0.0.0/8": is larger than kube-apiserver allows (the prefix must be /12 or longer); use a /12 or smaller range, e.g. 10.96.0.0/12`},
		},
		{
			name:   "serviceSubnet overlaps podSubnet",
			mutate: func(c *Cluster) { c.Networking.ServiceSubnet = "10.244.128.0/20" },
			want:   []string{`networking.serviceSubnet: Invalid value: "10.244.128.0/20": overlaps podSubnet 10.244.0.0/16; choose ranges apart, e.g. the defaults 10.244.0.0/16 and 10.96.0.0/12`},
		},
		{
			name:   "dnsDomain invalid",
			mutate: func(c *Cluster) { c.Networking.DNSDomain = "Cluster_Local" },
			want:   []string{`networking.dnsDomain: Invalid value: "Cluster_Local": must be a DNS-1123 subdomain; use lower-case labels separated by dots, e.g. cluster.local`},
		},
		{
			name:   "nodeAddressBase not IPv4",
			mutate: func(c *Cluster) { c.Networking.NodeAddressBase = "::1" },
			want:   []string{`networking.nodeAddressBase: Invalid value: "::1": must be an IPv4 address; write an address such as 127.10.0.2, or leave it out and let wink choose`},
		},
		{
			name:   "nodeAddressBase malformed",
			mutate: func(c *Cluster) { c.Networking.NodeAddressBase = "127.10.0" },
			want:   []string{`networking.nodeAddressBase: Invalid value: "127.10.0": must be an IPv4 address; write an address such as 127.10.0.2, or leave it out and let wink choose`},
		},
		{
			name:   "nodeAddressBase unspecified",
			mutate: func(c *Cluster) { c.Networking.NodeAddressBase = "0.0.0.0" },
			want:   []string{`networking.nodeAddressBase: Invalid value: "0.0.0.0": cannot be a node address; use a unicast address such as 127.10.0.2`},
		},
		{
			name:   "nodeAddressBase in podSubnet",
			mutate: func(c *Cluster) { c.Networking.NodeAddressBase = "10.244.0.5" },
			want:   []string{`networking.nodeAddressBase: Invalid value: "10.244.0.5": lies inside podSubnet 10.244.0.0/16; use an address outside podSubnet and serviceSubnet, e.g. 127.10.0.2`},
		},
		{
			name:   "nodeAddressBase in serviceSubnet",
			mutate: func(c *Cluster) { c.Networking.NodeAddressBase = "10.96.0.10" },
			want:   []string{`networking.nodeAddressBase: Invalid value: "10.96.0.10": lies inside serviceSubnet 10.96.0.0/12; use an address outside podSubnet and serviceSubnet, e.g. 127.10.0.2`},
		},

		// pools
		{
			name:   "pool name missing",
			mutate: func(c *Cluster) { c.NodePools[2].Name = "" },
			want:   []string{`nodePools[2].name: Required value: set name, e.g. name: win2022`},
		},
		{
			name:   "pool name not a DNS label",
			mutate: func(c *Cluster) { c.NodePools[0].Name = "Win2022" },
			want:   []string{`nodePools[0].name: Invalid value: "Win2022": must be a DNS-1123 label; ` + dnsLabelFix + `, e.g. "win2022"`},
		},
		{
			name:   "pool names repeated",
			mutate: func(c *Cluster) { c.NodePools[2].Name = "win2022" },
			want:   []string{`nodePools[2].name: Duplicate value: "win2022": nodePools[0] has the same name; give every pool a name of its own`},
		},
		{
			name: "node names too long for the hostname label",
			mutate: func(c *Cluster) {
				c.Name = strings.Repeat("c", 30)
				c.NodePools[0].Name = strings.Repeat("p", 31)
				c.NodePools[1].Name = strings.Repeat("q", 30) // <cluster>-<pool>-0 is 63 characters: fine
			},
			want: []string{`nodePools[0].name: Invalid value: "` + strings.Repeat("p", 31) + `": node names such as "` +
				strings.Repeat("c", 30) + "-" + strings.Repeat("p", 31) + `-1" would have 64 characters, more than the 63 of a kubernetes.io/hostname label; shorten the pool or the cluster name`},
		},
		{
			name:   "os missing",
			mutate: func(c *Cluster) { c.NodePools[2].OS = "" },
			want:   []string{`nodePools[2].os: Required value: set os: windows or os: linux`},
		},
		{
			name:   "os unknown",
			mutate: func(c *Cluster) { c.NodePools[2].OS = "darwin" },
			want:   []string{`nodePools[2].os: Unsupported value: "darwin": supported values: "windows", "linux"`},
		},
		{
			name:   "windowsBuild unknown",
			mutate: func(c *Cluster) { c.NodePools[0].WindowsBuild = "10.0.1" },
			want:   []string{`nodePools[0].windowsBuild: Unsupported value: "10.0.1": supported values: "10.0.17763" (Windows Server 2019), "10.0.20348" (2022), "10.0.26100" (2025)`},
		},
		{
			name:   "windowsBuild missing on a windows pool",
			mutate: func(c *Cluster) { c.NodePools[1].WindowsBuild = "" },
			want:   []string{`nodePools[1].windowsBuild: Required value: supported values: "10.0.17763" (Windows Server 2019), "10.0.20348" (2022), "10.0.26100" (2025)`},
		},
		{
			name:   "windowsBuild on a linux pool",
			mutate: func(c *Cluster) { c.NodePools[2].WindowsBuild = WindowsServer2022 },
			want:   []string{`nodePools[2].windowsBuild: Forbidden: only windows pools have a Windows build; remove it, or set os: windows`},
		},
		{
			name:   "count negative",
			mutate: func(c *Cluster) { c.NodePools[1].Count = intPtr(-1) },
			want:   []string{`nodePools[1].count: Invalid value: -1: must not be negative; set count to 0 or more`},
		},
		{
			name:   "count zero",
			mutate: func(c *Cluster) { c.NodePools[1].Count = intPtr(0) },
		},
		{
			name: "5000 nodes",
			mutate: func(c *Cluster) {
				c.Networking.PodSubnet = "100.64.0.0/10"
				c.NodePools[0].Count = intPtr(4998)
			},
		},
		{
			name: "too many nodes",
			mutate: func(c *Cluster) {
				c.Networking.PodSubnet = "100.64.0.0/10"
				c.NodePools[0].Count = intPtr(4999)
			},
			want: []string{`nodePools: Invalid value: 5001: the pools have 5001 nodes, more than 5000, the largest cluster Kubernetes supports; lower the counts`},
		},

		// labels
		{
			name:   "label key invalid",
			mutate: func(c *Cluster) { c.NodePools[0].Labels = map[string]string{"example.com/my team": "x"} },
			want: []string{`nodePools[0].labels[example.com/my team]: Invalid value: "example.com/my team": not a label key: ` +
				qualifiedName + `; use a key such as example.com/team`},
		},
		{
			name:   "label value invalid",
			mutate: func(c *Cluster) { c.NodePools[0].Labels = map[string]string{"example.com/team": "-windows"} },
			want:   []string{`nodePools[0].labels[example.com/team]: Invalid value: "-windows": ` + labelValueMsg + `; ` + labelValueFix},
		},
		{
			name: "labels wink sets itself",
			mutate: func(c *Cluster) {
				c.NodePools[0].Labels = map[string]string{"kubernetes.io/os": "linux", "node.kubernetes.io/windows-build": "10.0.17763"}
			},
			want: []string{
				`nodePools[0].labels[kubernetes.io/os]: Forbidden: wink sets this label from the pool's os and windowsBuild (N1, N2); remove it, and set os or windowsBuild instead`,
				`nodePools[0].labels[node.kubernetes.io/windows-build]: Forbidden: wink sets this label from the pool's os and windowsBuild (N1, N2); remove it, and set os or windowsBuild instead`,
			},
		},
		{
			name:   "kubernetes.io label the kubelet refuses",
			mutate: func(c *Cluster) { c.NodePools[2].Labels = map[string]string{"node-role.kubernetes.io/worker": ""} },
			want:   []string{`nodePools[2].labels[node-role.kubernetes.io/worker]: Forbidden: the kubelet refuses kubernetes.io and k8s.io labels other than its own in --node-labels; use a key under node.kubernetes.io/ or a prefix of your own such as example.com/`},
		},

		// taints
		{
			name: "taint fields invalid",
			mutate: func(c *Cluster) {
				now := metav1.Now()
				c.NodePools[2].Taints = []corev1.Taint{
					{Value: "x", Effect: corev1.TaintEffectNoSchedule},
					{Key: "a b", Value: "-x", Effect: "NoRun"},
					{Key: "dedicated", TimeAdded: &now},
				}
			},
			want: []string{
				`nodePools[2].taints[0].key: Required value: set key, e.g. key: os`,
				`nodePools[2].taints[1].key: Invalid value: "a b": not a taint key: ` + qualifiedName + `; use a key such as os or example.com/dedicated`,
				`nodePools[2].taints[1].value: Invalid value: "-x": ` + labelValueMsg + `; ` + labelValueFix,
				`nodePools[2].taints[1].effect: Unsupported value: "NoRun": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"`,
				`nodePools[2].taints[2].effect: Required value: set effect: "NoSchedule", "PreferNoSchedule", "NoExecute"`,
				`nodePools[2].taints[2].timeAdded: Forbidden: the node lifecycle controller sets it; remove timeAdded`,
			},
		},
		{
			name: "taints repeated",
			mutate: func(c *Cluster) {
				c.NodePools[0].Taints = append(c.NodePools[0].Taints, corev1.Taint{Key: "os", Value: "other", Effect: corev1.TaintEffectNoSchedule})
			},
			want: []string{`nodePools[0].taints[1]: Duplicate value: "os:NoSchedule": nodePools[0].taints[0] has the same key and effect; taints must be unique by key and effect: remove one`},
		},
		{
			name: "same taint key with another effect",
			mutate: func(c *Cluster) {
				c.NodePools[0].Taints = append(c.NodePools[0].Taints, corev1.Taint{Key: "os", Value: "windows", Effect: corev1.TaintEffectNoExecute})
			},
		},

		// resources
		{
			name: "resource names not supported",
			mutate: func(c *Cluster) {
				c.NodePools[0].Capacity["nvidia.com/gpu"] = resource.MustParse("1")
				c.NodePools[0].KubeReserved = resources("pods", "10")
			},
			want: []string{
				`nodePools[0].capacity[nvidia.com/gpu]: Unsupported value: "nvidia.com/gpu": supported values: "cpu", "memory", "pods", "ephemeral-storage"`,
				`nodePools[0].kubeReserved[pods]: Unsupported value: "pods": supported values: "cpu", "memory", "ephemeral-storage"`,
			},
		},
		{
			name: "negative and zero quantities",
			mutate: func(c *Cluster) {
				c.NodePools[2].Capacity["pods"] = resource.MustParse("0")
				c.NodePools[2].SystemReserved = resources("cpu", "-1")
			},
			want: []string{
				`nodePools[2].capacity[pods]: Invalid value: "0": must be positive; write a capacity above 0`,
				`nodePools[2].systemReserved[cpu]: Invalid value: "-1": must not be negative; write 0 or more`,
			},
		},
		{
			name:   "allocatable memory not positive",
			mutate: func(c *Cluster) { c.NodePools[0].SystemReserved["memory"] = resource.MustParse("16Gi") },
			want:   []string{`nodePools[0].capacity[memory]: Invalid value: "16Gi": allocatable memory would be -500Mi (capacity 16Gi - kubeReserved 0 - systemReserved 16Gi - evictionHard memory.available 500Mi); raise capacity[memory] or lower the reservations (N5)`},
		},
		{
			name: "allocatable cpu and ephemeral-storage not positive",
			mutate: func(c *Cluster) {
				c.NodePools[2].KubeReserved = resources("cpu", "4", "ephemeral-storage", "10Gi")
				c.NodePools[2].EvictionHard["nodefs.available"] = "90%"
			},
			want: []string{
				`nodePools[2].capacity[cpu]: Invalid value: "4": allocatable cpu would be 0 (capacity 4 - kubeReserved 4 - systemReserved 0); raise capacity[cpu] or lower the reservations (N5)`,
				`nodePools[2].capacity[ephemeral-storage]: Invalid value: "100Gi": allocatable ephemeral-storage would be 0 (capacity 100Gi - kubeReserved 10Gi - systemReserved 0 - evictionHard nodefs.available 90%); raise capacity[ephemeral-storage] or lower the reservations (N5)`,
			},
		},
		{
			name:   "allocatable memory with a percentage threshold",
			mutate: func(c *Cluster) { c.NodePools[2].EvictionHard["memory.available"] = "100%" },
			want:   []string{`nodePools[2].capacity[memory]: Invalid value: "16Gi": allocatable memory would be 0 (capacity 16Gi - kubeReserved 0 - systemReserved 0 - evictionHard memory.available 100%); raise capacity[memory] or lower the reservations (N5)`},
		},

		// evictionHard
		{
			name: "evictionHard signals and values",
			mutate: func(c *Cluster) {
				c.NodePools[2].EvictionHard = map[string]string{
					"memory.avail":      "100Mi",
					"memory.available":  "lots",
					"nodefs.available":  "150%",
					"imagefs.available": "-1Gi",
				}
			},
			want: []string{
				`nodePools[2].evictionHard[imagefs.available]: Invalid value: "-1Gi": must not be negative; ` + quantityFix,
				`nodePools[2].evictionHard[memory.avail]: Unsupported value: "memory.avail": supported values: "memory.available", "nodefs.available", "nodefs.inodesFree", "imagefs.available", "imagefs.inodesFree", "pid.available"`,
				`nodePools[2].evictionHard[memory.available]: Invalid value: "lots": must be a quantity or a percentage; ` + quantityFix,
				`nodePools[2].evictionHard[nodefs.available]: Invalid value: "150%": must be a percentage from 0% to 100%; ` + quantityFix,
			},
		},

		// versions
		{
			name: "kubeletVersion malformed or out of range",
			mutate: func(c *Cluster) {
				c.NodePools[0].KubeletVersion = "1.30.0"
				c.NodePools[1].KubeletVersion = "v1.30"
				c.NodePools[2].KubeletVersion = "v1.28.15"
			},
			want: []string{
				`nodePools[0].kubeletVersion: Invalid value: "1.30.0": must start with v; ` + kubeletFix,
				`nodePools[1].kubeletVersion: Invalid value: "v1.30": must be a semantic version vX.Y.Z; ` + kubeletFix,
				`nodePools[2].kubeletVersion: Invalid value: "v1.28.15": outside the supported kubelet versions v1.29 to v1.35 (a kubelet may not be newer than the control plane); ` + kubeletFix,
			},
		},
		{
			name: "kubeletVersion newer than the control plane",
			mutate: func(c *Cluster) {
				c.NodePools[0].KubeletVersion = "v1.36.0"
				c.NodePools[1].KubeletVersion = "v2.0.0"
			},
			want: []string{
				`nodePools[0].kubeletVersion: Invalid value: "v1.36.0": outside the supported kubelet versions v1.29 to v1.35 (a kubelet may not be newer than the control plane); ` + kubeletFix,
				`nodePools[1].kubeletVersion: Invalid value: "v2.0.0": outside the supported kubelet versions v1.29 to v1.35 (a kubelet may not be newer than the control plane); ` + kubeletFix,
			},
		},
		{
			name:   "containerRuntimeVersion without a runtime",
			mutate: func(c *Cluster) { c.NodePools[0].ContainerRuntimeVersion = "1.7.27" },
			want:   []string{`nodePools[0].containerRuntimeVersion: Invalid value: "1.7.27": must have the shape <runtime>://<version>; e.g. "containerd://1.7.27"`},
		},

		// graceful node shutdown (B15), as the kubelet's config validation
		{
			name: "shutdown grace periods: off, equal, and critical pods only",
			mutate: func(c *Cluster) {
				c.NodePools[0].ShutdownGracePeriod, c.NodePools[0].ShutdownGracePeriodCriticalPods = duration("0s"), duration("0s")
				c.NodePools[1].ShutdownGracePeriod, c.NodePools[1].ShutdownGracePeriodCriticalPods = duration("20s"), duration("20s")
				c.NodePools[2].ShutdownGracePeriod, c.NodePools[2].ShutdownGracePeriodCriticalPods = duration("1s"), duration("0s")
			},
		},
		{
			name: "shutdown grace periods: negative",
			mutate: func(c *Cluster) {
				c.NodePools[0].ShutdownGracePeriod = duration("-30s")
				c.NodePools[1].ShutdownGracePeriodCriticalPods = duration("-1s")
			},
			want: []string{
				`nodePools[0].shutdownGracePeriod: Invalid value: "-30s": must not be negative; ` + shutdownFix,
				`nodePools[1].shutdownGracePeriodCriticalPods: Invalid value: "-1s": must not be negative; ` + shutdownFix,
			},
		},
		{
			name: "shutdown grace periods: below a second",
			mutate: func(c *Cluster) {
				c.NodePools[0].ShutdownGracePeriod = duration("500ms")
				c.NodePools[0].ShutdownGracePeriodCriticalPods = duration("0s")
				c.NodePools[1].ShutdownGracePeriodCriticalPods = duration("100ms")
			},
			want: []string{
				`nodePools[0].shutdownGracePeriod: Invalid value: "500ms": must be zero or at least 1s, as the kubelet's (its grace periods are whole seconds); write whole seconds such as "1s" or "30s", or "0s"`,
				`nodePools[1].shutdownGracePeriodCriticalPods: Invalid value: "100ms": must be zero or at least 1s, as the kubelet's (its grace periods are whole seconds); write whole seconds such as "1s" or "30s", or "0s"`,
			},
		},
		{
			name: "shutdown grace periods: critical pods' part longer than the whole",
			mutate: func(c *Cluster) {
				c.NodePools[0].ShutdownGracePeriod, c.NodePools[0].ShutdownGracePeriodCriticalPods = duration("20s"), duration("30s")
				c.NodePools[1].ShutdownGracePeriod, c.NodePools[1].ShutdownGracePeriodCriticalPods = duration("0s"), duration("10s")
			},
			want: []string{
				`nodePools[0].shutdownGracePeriodCriticalPods: Invalid value: "30s": longer than shutdownGracePeriod 20s: critical pods get the last part of it; lower shutdownGracePeriodCriticalPods to at most 20s, or raise shutdownGracePeriod to at least 30s`,
				`nodePools[1].shutdownGracePeriodCriticalPods: Invalid value: "10s": longer than shutdownGracePeriod 0s: critical pods get the last part of it; set shutdownGracePeriodCriticalPods to "0s" to keep graceful node shutdown off, or set shutdownGracePeriod to at least 10s`,
			},
		},
		{
			name: "shutdown grace periods: unset fields (not defaulted) pass",
			mutate: func(c *Cluster) {
				c.NodePools[0].ShutdownGracePeriod, c.NodePools[0].ShutdownGracePeriodCriticalPods = nil, nil
				c.NodePools[1].ShutdownGracePeriod = nil
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := defaultCluster()
			tc.mutate(c)
			assert.DeepEqual(t, messages(Validate(c)), tc.want)
		})
	}
}

func TestFieldError(t *testing.T) {
	tests := []struct {
		name string
		err  *FieldError
		want string
	}{
		{
			name: "value, message and fix",
			err:  &FieldError{Path: "a.b", Type: ErrorTypeInvalid, Value: "x", Message: "is bad", Fix: "write y"},
			want: `a.b: Invalid value: "x": is bad; write y`,
		},
		{
			name: "fix only",
			err:  &FieldError{Path: "a", Type: ErrorTypeNotSupported, Value: 3, Fix: "supported values: 1, 2"},
			want: `a: Unsupported value: 3: supported values: 1, 2`,
		},
		{
			name: "nil value",
			err:  &FieldError{Path: "a", Type: ErrorTypeInvalid},
			want: `a: Invalid value: null`,
		},
		{
			name: "no value for required, forbidden and unknown fields",
			err:  &FieldError{Path: "a", Type: ErrorTypeUnknownField, Value: "ignored", Fix: `did you mean "b"?`},
			want: `a: Unknown field: did you mean "b"?`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.err.Error(), tc.want)
		})
	}
}

func TestValidateErrorsAs(t *testing.T) {
	c := defaultCluster()
	c.NodePools[1].WindowsBuild = "10.0.1"
	var fe *FieldError
	assert.Assert(t, errors.As(Validate(c), &fe))
	assert.Equal(t, fe.Path, "nodePools[1].windowsBuild")
	assert.Equal(t, fe.Type, ErrorTypeNotSupported)
	assert.Equal(t, fe.Value, "10.0.1")
}
