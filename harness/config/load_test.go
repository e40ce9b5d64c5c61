package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"gotest.tools/v3/assert"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"wink.dev/wink/harness/config/v1alpha1"
	"wink.dev/wink/simnode/fuzzbound"
)

const fixture = "../../fixtures/wink.yaml"

// head is the first two lines of every test file.
const head = "apiVersion: wink.dev/v1alpha1\nkind: Cluster\n"

// defaultYAML is Marshal of the default cluster: the golden cluster.yaml of
// a `wink up` without --config.
const defaultYAML = `apiVersion: wink.dev/v1alpha1
kind: Cluster
name: wink
backend: embedded
networking:
  podSubnet: 10.244.0.0/16
  nodeCIDRMaskSize: 24
  serviceSubnet: 10.96.0.0/12
  dnsDomain: cluster.local
nodePools:
  - name: win2022
    os: windows
    windowsBuild: 10.0.20348
    count: 2
    taints:
      - key: os
        value: windows
        effect: NoSchedule
    capacity:
      cpu: "4"
      ephemeral-storage: 100Gi
      memory: 16Gi
      pods: "110"
    systemReserved:
      cpu: 500m
      memory: 2Gi
    evictionHard:
      memory.available: 500Mi
    containerRuntimeVersion: containerd://1.7.27
    shutdownGracePeriod: 30s
    shutdownGracePeriodCriticalPods: 10s
  - name: win2019
    os: windows
    windowsBuild: 10.0.17763
    count: 1
    taints:
      - key: os
        value: windows
        effect: NoSchedule
    capacity:
      cpu: "4"
      ephemeral-storage: 100Gi
      memory: 16Gi
      pods: "110"
    systemReserved:
      cpu: 500m
      memory: 2Gi
    evictionHard:
      memory.available: 500Mi
    containerRuntimeVersion: containerd://1.7.27
    shutdownGracePeriod: 30s
    shutdownGracePeriodCriticalPods: 10s
  - name: linux
    os: linux
    count: 1
    capacity:
      cpu: "4"
      ephemeral-storage: 100Gi
      memory: 16Gi
      pods: "110"
    evictionHard:
      memory.available: 100Mi
    containerRuntimeVersion: containerd://2.1.4
    shutdownGracePeriod: 30s
    shutdownGracePeriodCriticalPods: 10s
simnode:
  shards: 1
images:
  resolve: registry
`

// messages returns the message of every error joined in err.
func messages(err error) []string {
	if err == nil {
		return nil
	}
	var out []string
	for _, e := range unjoin(err) {
		out = append(out, e.Error())
	}
	return out
}

func TestLoadDefaults(t *testing.T) {
	c, err := Load("")
	assert.NilError(t, err)
	data, err := Marshal(c)
	assert.NilError(t, err)
	assert.Equal(t, string(data), defaultYAML)

	// A file with only apiVersion and kind gives the same cluster.
	fromFile, err := Parse([]byte(head), "wink.yaml")
	assert.NilError(t, err)
	assert.Assert(t, equality.Semantic.DeepEqual(fromFile, c))
}

func TestLoadFixture(t *testing.T) {
	c, err := Load(fixture)
	assert.NilError(t, err)

	assert.Equal(t, len(c.NodePools), 3)
	win2022, win2019, linux := c.NodePools[0], c.NodePools[1], c.NodePools[2]
	assert.Equal(t, *win2022.Count, 2)
	assert.DeepEqual(t, win2022.Labels, map[string]string{"example.com/team": "windows", "topology.kubernetes.io/zone": "zone-a"})
	assert.DeepEqual(t, win2022.Taints, []corev1.Taint{v1alpha1.WindowsTaint()})
	assert.Equal(t, win2022.Capacity.Cpu().String(), "4") // written as a number
	assert.Equal(t, win2022.KubeReserved.Memory().String(), "500Mi")
	assert.Equal(t, win2022.EvictionHard["nodefs.available"], "10%")
	assert.Equal(t, win2019.WindowsBuild, v1alpha1.WindowsServer2019)
	assert.Equal(t, win2019.EvictionHard["memory.available"], "100Mi") // kubelet v1.30
	assert.DeepEqual(t, win2019.Taints, []corev1.Taint{v1alpha1.WindowsTaint()})
	assert.Equal(t, linux.WindowsBuild, "")
	assert.Assert(t, linux.Taints == nil)

	// The fixture's values are the defaults, except where it says otherwise.
	want, err := Load("")
	assert.NilError(t, err)
	want.KindBackend = &v1alpha1.KindBackend{}
	want.NodePools[0].Labels = win2022.Labels
	want.NodePools[0].KubeReserved = win2022.KubeReserved
	want.NodePools[0].EvictionHard["nodefs.available"] = "10%"
	want.NodePools[0].KubeletVersion = "v1.35.0"
	want.NodePools[1].KubeletVersion = "v1.30.2"
	want.NodePools[1].EvictionHard["memory.available"] = "100Mi"
	// The write path the fixture shows is the kubelet's defaults, which
	// a pool without one runs with (simnode's nodes.KubeletConfig).
	assert.DeepEqual(t, win2022.Kubelet, &v1alpha1.KubeletWritePath{
		EventRecordQPS: ptr.To[int32](50), EventBurst: ptr.To[int32](100),
		NodeLeaseDurationSeconds: ptr.To[int32](40), NodeStatusReportFrequency: &metav1.Duration{Duration: 5 * time.Minute},
		ContainerLogMaxSize: "10Mi", ContainerLogMaxFiles: ptr.To[int32](5), ContainerLogMaxWorkers: ptr.To[int32](1),
		ContainerLogMonitorInterval: &metav1.Duration{Duration: 10 * time.Second},
	})
	want.NodePools[0].Kubelet = win2022.Kubelet
	assert.Assert(t, equality.Semantic.DeepEqual(c, want))
}

func TestRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		path string
		data string
	}{
		{name: "fixture", path: fixture},
		{name: "defaults", data: head},
		{
			name: "explicit empty lists stay empty",
			data: head + "nodePools:\n  - name: w\n    os: windows\n    taints: []\n",
		},
		{name: "no nodes", data: head + "nodePools: []\n"},
		{
			name: "values that look like other types",
			data: head + "name: \"123\"\nnodePools:\n  - name: l\n    os: linux\n    labels:\n      example.com/on: \"yes\"\n      example.com/version: \"1.10\"\n      example.com/empty: \"\"\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var first *v1alpha1.Cluster
			var err error
			if tc.path != "" {
				first, err = Load(tc.path)
			} else {
				first, err = Parse([]byte(tc.data), "wink.yaml")
			}
			assert.NilError(t, err)

			path := filepath.Join(t.TempDir(), "cluster.yaml")
			assert.NilError(t, Write(path, first))
			info, err := os.Stat(path)
			assert.NilError(t, err)
			assert.Equal(t, info.Mode().Perm(), fs.FileMode(0o644))
			entries, err := os.ReadDir(filepath.Dir(path))
			assert.NilError(t, err)
			assert.Equal(t, len(entries), 1, "no temporary file is left")

			second, err := Load(path)
			assert.NilError(t, err)
			assert.Assert(t, equality.Semantic.DeepEqual(first, second))

			// Writing is a fixpoint.
			written, err := os.ReadFile(path)
			assert.NilError(t, err)
			again, err := Marshal(second)
			assert.NilError(t, err)
			assert.Equal(t, string(again), string(written))
		})
	}
}

func TestRoundTripKeepsExplicitEmpties(t *testing.T) {
	c, err := Parse([]byte(head+"nodePools:\n  - name: w\n    os: windows\n    taints: []\n"), "wink.yaml")
	assert.NilError(t, err)
	assert.Assert(t, c.NodePools[0].Taints != nil && len(c.NodePools[0].Taints) == 0)
	data, err := Marshal(c)
	assert.NilError(t, err)
	assert.Assert(t, strings.Contains(string(data), "    taints: []\n"), string(data))

	c, err = Parse([]byte(head+"nodePools: []\n"), "wink.yaml")
	assert.NilError(t, err)
	assert.Assert(t, c.NodePools != nil && len(c.NodePools) == 0)
	data, err = Marshal(c)
	assert.NilError(t, err)
	assert.Assert(t, strings.Contains(string(data), "\nnodePools: []\n"), string(data))
}

func TestParseValues(t *testing.T) {
	tests := []struct {
		name  string
		data  string
		check func(t *testing.T, c *v1alpha1.Cluster)
	}{
		{
			name: "quantities as numbers and strings",
			data: head + "nodePools:\n- name: l\n  os: linux\n  capacity:\n    cpu: 8\n    memory: \"32Gi\"\n    pods: 250\n    ephemeral-storage: 1.5e11\n  kubeReserved:\n    cpu: 0.5\n",
			check: func(t *testing.T, c *v1alpha1.Cluster) {
				capacity := c.NodePools[0].Capacity
				assert.Equal(t, capacity.Cpu().Cmp(resource.MustParse("8")), 0)
				assert.Equal(t, capacity.Memory().Cmp(resource.MustParse("32Gi")), 0)
				assert.Equal(t, capacity.Pods().Value(), int64(250))
				assert.Equal(t, capacity.StorageEphemeral().Value(), int64(150_000_000_000))
				assert.Equal(t, c.NodePools[0].KubeReserved.Cpu().MilliValue(), int64(500))
			},
		},
		{
			name: "strings keep their YAML text",
			data: head + "name: 0123\nnodePools:\n- name: w\n  os: windows\n  windowsBuild: 10.0.17763\n  labels:\n    example.com/on: yes\n    example.com/version: 1.10\n    example.com/flag: true\n",
			check: func(t *testing.T, c *v1alpha1.Cluster) {
				assert.Equal(t, c.Name, "0123")
				assert.Equal(t, c.NodePools[0].WindowsBuild, "10.0.17763")
				assert.DeepEqual(t, c.NodePools[0].Labels, map[string]string{
					"example.com/on": "yes", "example.com/version": "1.10", "example.com/flag": "true",
				})
			},
		},
		{
			name: "YAML integers and nulls",
			data: head + "name: ~\nnetworking:\n  nodeCIDRMaskSize: 0x18\nnodePools:\n- name: l\n  os: linux\n  count: 0o3\n  taints:\n",
			check: func(t *testing.T, c *v1alpha1.Cluster) {
				assert.Equal(t, c.Name, "wink")
				assert.Equal(t, c.Networking.NodeCIDRMaskSize, 24)
				assert.Equal(t, *c.NodePools[0].Count, 3)
				assert.Assert(t, c.NodePools[0].Taints == nil)
			},
		},
		{
			name: "anchors, aliases and merge keys",
			data: head + "nodePools:\n- &win\n  name: a\n  os: windows\n  capacity: {cpu: 2}\n  labels: &labels {example.com/team: w}\n" +
				"- <<: *win\n  name: b\n  windowsBuild: 10.0.26100\n- name: c\n  os: linux\n  labels: *labels\n",
			check: func(t *testing.T, c *v1alpha1.Cluster) {
				assert.Equal(t, len(c.NodePools), 3)
				b := c.NodePools[1]
				assert.Equal(t, b.Name, "b")
				assert.Equal(t, b.OS, v1alpha1.OSWindows)
				assert.Equal(t, b.WindowsBuild, v1alpha1.WindowsServer2025)
				assert.Equal(t, b.Capacity.Cpu().Value(), int64(2))
				assert.DeepEqual(t, b.Labels, map[string]string{"example.com/team": "w"})
				assert.DeepEqual(t, c.NodePools[2].Labels, map[string]string{"example.com/team": "w"})
			},
		},
		{
			name: "a leading --- and a trailing empty document",
			data: "---\n" + head + "---\n",
			check: func(t *testing.T, c *v1alpha1.Cluster) {
				assert.Equal(t, len(c.NodePools), 3)
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse([]byte(tc.data), "wink.yaml")
			assert.NilError(t, err)
			tc.check(t, c)
		})
	}
}

func TestParseErrors(t *testing.T) {
	const yamlFix = "check the indentation and the quoting on this line and the one before"
	tests := []struct {
		name string
		data string
		want []string
	}{
		// malformed YAML
		{
			name: "mapping value in a scalar",
			data: head + "name: x: y\n",
			want: []string{`wink.yaml:3: malformed YAML: mapping values are not allowed in this context; ` + yamlFix},
		},
		{
			name: "tab indentation",
			data: head + "nodePools:\n- name: a\n\tos: windows\n",
			want: []string{`wink.yaml:5: malformed YAML: found a tab character that violates indentation; indent with spaces: YAML does not allow tabs`},
		},
		{
			name: "bad indentation below a comment header",
			data: "# my cluster\n\n" + head + "nodePools:\n  - name: a\n    os: windows\n   count: 2\n",
			want: []string{`wink.yaml:8: malformed YAML: did not find expected '-' indicator; ` + yamlFix},
		},
		{
			name: "unclosed flow list",
			data: head + "nodePools: [a, b\nname: x\n",
			want: []string{`wink.yaml:4: malformed YAML: did not find expected ',' or ']'; ` + yamlFix},
		},
		{
			name: "unterminated quote",
			data: head + "name: 'wink\n",
			want: []string{`wink.yaml:3: malformed YAML: found unexpected end of stream; ` + yamlFix},
		},
		{
			name: "two documents",
			data: head + "---\n" + head,
			want: []string{`wink.yaml:3: a second YAML document: wink.yaml holds one Cluster; remove the --- and what follows`},
		},
		{
			name: "not a mapping",
			data: "- apiVersion: wink.dev/v1alpha1\n",
			want: []string{`wink.yaml:1: the file must be a YAML mapping that starts with apiVersion: wink.dev/v1alpha1 and kind: Cluster`},
		},

		// identity
		{
			name: "empty file",
			data: "# nothing yet\n",
			want: []string{
				`wink.yaml: apiVersion: Required value: set apiVersion: wink.dev/v1alpha1`,
				`wink.yaml: kind: Required value: set kind: Cluster`,
			},
		},
		{
			name: "a kind config is reported as such, not as unknown fields",
			data: "kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnodes:\n- role: control-plane\n",
			want: []string{`wink.yaml:2: apiVersion: Unsupported value: "kind.x-k8s.io/v1alpha4": this is a kind cluster config, wink.yaml has its own format (see fixtures/wink.yaml); supported values: "wink.dev/v1alpha1"`},
		},

		{
			name: "kind backend settings under kind",
			data: "apiVersion: wink.dev/v1alpha1\nkind:\n  nodeImage: kindest/node:v1.35.0\n",
			want: []string{`wink.yaml:2: kind: Invalid value: "<mapping>": must be Cluster; write kind: Cluster, and put the kind backend's settings under kindBackend:`},
		},

		// strict decoding
		{
			name: "unknown fields",
			data: head +
				"Name: x\n" + // 3
				"network:\n  podSubnet: 10.244.0.0/16\n" + // 4
				"podSubnet: 10.244.0.0/16\n" + // 6
				"windowsBuild: 10.0.17763\n" + // 7
				"color: blue\n" + // 8
				"nodePools:\n- name: a\n  os: windows\n  windowsbuild: 10.0.17763\n  cout: 2\n  taints:\n  - key: os\n    efect: NoSchedule\n",
			want: []string{
				`wink.yaml:3: Name: Unknown field: did you mean "name"? (field names are case-sensitive)`,
				`wink.yaml:4: network: Unknown field: did you mean "networking"?`,
				`wink.yaml:6: podSubnet: Unknown field: podSubnet is a field of networking: move it there`,
				`wink.yaml:7: windowsBuild: Unknown field: windowsBuild is a field of each item of nodePools: move it there`,
				`wink.yaml:8: color: Unknown field: known fields: apiVersion, backend, images, kind, kindBackend, kubeconfig, name, networking, nodePools, simnode`,
				`wink.yaml:12: nodePools[0].windowsbuild: Unknown field: did you mean "windowsBuild"? (field names are case-sensitive)`,
				`wink.yaml:13: nodePools[0].cout: Unknown field: did you mean "count"?`,
				`wink.yaml:16: nodePools[0].taints[0].efect: Unknown field: did you mean "effect"?`,
			},
		},
		{
			name: "repeated keys",
			data: head + "name: a\nname: b\nnodePools:\n- name: a\n  os: linux\n  labels:\n    example.com/x: \"1\"\n    example.com/x: \"2\"\n",
			want: []string{
				`wink.yaml:4: name: Duplicate value: "b": name is already set on line 3; remove one of the two`,
				`wink.yaml:10: nodePools[0].labels[example.com/x]: Duplicate value: "2": example.com/x is already set on line 9; remove one of the two`,
			},
		},
		{
			name: "wrong types",
			data: head +
				"name: [a, b]\n" + // 3
				"networking: 10.244.0.0/16\n" + // 4
				"nodePools:\n" +
				"- name: a\n" +
				"  os: windows\n" +
				"  count: two\n" + // 8
				"  labels: [a]\n" + // 9
				"  capacity:\n" +
				"    memory: 16GB\n" + // 11
				"    cpu: [1]\n" + // 12
				"- name: b\n" +
				"  os: linux\n" +
				"  count: 1.5\n" + // 15
				"  taints: os=windows:NoSchedule\n", // 16
			want: []string{
				`wink.yaml:3: name: Invalid value: "<list>": must be a single value; write it on one line after the colon, quoted if need be`,
				`wink.yaml:4: networking: Invalid value: "10.244.0.0/16": must be a mapping; write its fields indented on the lines below networking:`,
				`wink.yaml:8: nodePools[0].count: Invalid value: "two": must be a whole number; write a number without quotes, e.g. count: 2`,
				`wink.yaml:9: nodePools[0].labels: Invalid value: "<list>": must be a mapping; write key: value lines indented below labels:`,
				`wink.yaml:11: nodePools[0].capacity[memory]: Invalid value: "16GB": not a quantity; write a quantity such as 4, 500m, 16Gi or 100G (Gi = 2^30 bytes, G = 10^9)`,
				`wink.yaml:12: nodePools[0].capacity[cpu]: Invalid value: "<list>": must be a quantity; write a quantity such as 4, 500m, 16Gi or 100G`,
				`wink.yaml:15: nodePools[1].count: Invalid value: "1.5": must be a whole number; write a number without quotes, e.g. count: 2`,
				`wink.yaml:16: nodePools[1].taints: Invalid value: "os=windows:NoSchedule": must be a list; write each item on a line of its own starting with "- ", or write []`,
			},
		},
		{
			name: "errors in merged fields point at the anchored mapping",
			data: head + "nodePools:\n- &win\n  name: a\n  os: windows\n  windowsBuild: 10.0.1\n- <<: *win\n  name: b\n",
			want: []string{
				`wink.yaml:7: nodePools[0].windowsBuild: Unsupported value: "10.0.1": supported values: "10.0.17763" (Windows Server 2019), "10.0.20348" (2022), "10.0.26100" (2025)`,
				`wink.yaml:7: nodePools[1].windowsBuild: Unsupported value: "10.0.1": supported values: "10.0.17763" (Windows Server 2019), "10.0.20348" (2022), "10.0.26100" (2025)`,
			},
		},
		{
			name: "quoted number for a count",
			data: head + "nodePools:\n- name: a\n  os: linux\n  count: \"2\"\n",
			want: []string{`wink.yaml:6: nodePools[0].count: Invalid value: "2": must be a whole number; write a number without quotes, e.g. count: 2`},
		},

		// validation, mapped back to lines
		{
			name: "validation errors at their lines",
			data: head +
				"name: Wink\n" + // 3
				"nodePools:\n" +
				"- name: win\n" + // 5
				"  os: windows\n" +
				"  windowsBuild: 10.0.1\n" + // 7
				"  labels:\n" +
				"    example.com/ok: x\n" +
				"    kubernetes.io/os: linux\n" + // 10
				"  systemReserved:\n" +
				"    memory: 16Gi\n" + // 12
				"- name: win\n" + // 13
				"  os: linux\n" +
				"  windowsBuild: 10.0.20348\n" + // 15
				"  evictionHard: {memory.available: lots}\n", // 16
			want: []string{
				`wink.yaml:3: name: Invalid value: "Wink": must be a DNS-1123 label; use at most 63 lower-case letters, digits and '-', starting and ending with a letter or digit, e.g. "wink"`,
				`wink.yaml:7: nodePools[0].windowsBuild: Unsupported value: "10.0.1": supported values: "10.0.17763" (Windows Server 2019), "10.0.20348" (2022), "10.0.26100" (2025)`,
				`wink.yaml:10: nodePools[0].labels[kubernetes.io/os]: Forbidden: wink sets this label from the pool's os and windowsBuild (N1, N2); remove it, and set os or windowsBuild instead`,
				// capacity[memory] is a default: the pool's line is the nearest.
				`wink.yaml:5: nodePools[0].capacity[memory]: Invalid value: "16Gi": allocatable memory would be -500Mi (capacity 16Gi - kubeReserved 0 - systemReserved 16Gi - evictionHard memory.available 500Mi); raise capacity[memory] or lower the reservations (N5)`,
				`wink.yaml:13: nodePools[1].name: Duplicate value: "win": nodePools[0] has the same name; give every pool a name of its own`,
				`wink.yaml:15: nodePools[1].windowsBuild: Forbidden: only windows pools have a Windows build; remove it, or set os: windows`,
				`wink.yaml:16: nodePools[1].evictionHard[memory.available]: Invalid value: "lots": must be a quantity or a percentage; write a quantity such as "500Mi" or a percentage such as "10%"`,
			},
		},
		{
			name: "shutdown grace period (B15) not a duration: decoding errors come before validation ones",
			data: head + "nodePools:\n" + // 3
				"- name: a\n" +
				"  os: linux\n" + // 5
				"  shutdownGracePeriod: 30\n" +
				"- name: b\n" + // 7
				"  os: linux\n" +
				"  shutdownGracePeriod: 10s\n" + // 9
				"  shutdownGracePeriodCriticalPods: 20s\n",
			want: []string{
				`wink.yaml:6: nodePools[0].shutdownGracePeriod: Invalid value: "30": time: missing unit in duration "30"; correct or remove it`,
			},
		},
		{
			name: "shutdown grace period (B15) longer for critical pods",
			data: head + "nodePools:\n" + // 3
				"- name: b\n" +
				"  os: linux\n" + // 5
				"  shutdownGracePeriod: 10s\n" +
				"  shutdownGracePeriodCriticalPods: 20s\n", // 7
			want: []string{
				`wink.yaml:7: nodePools[0].shutdownGracePeriodCriticalPods: Invalid value: "20s": longer than shutdownGracePeriod 10s: critical pods get the last part of it; lower shutdownGracePeriodCriticalPods to at most 10s, or raise shutdownGracePeriod to at least 20s`,
			},
		},
		{
			name: "kubelet write path settings out of range",
			data: head + "nodePools:\n" + // 3
				"- name: b\n" +
				"  os: linux\n" + // 5
				"  kubelet:\n" +
				"    eventRecordQPS: -1\n" + // 7
				"    eventBurst: -2\n" +
				"    nodeLeaseDurationSeconds: 0\n" + // 9
				"    nodeStatusReportFrequency: 0s\n",
			want: []string{
				`wink.yaml:7: nodePools[0].kubelet.eventRecordQPS: Invalid value: -1: must not be negative; write a number such as 50, or leave it out for the kubelet's default`,
				`wink.yaml:8: nodePools[0].kubelet.eventBurst: Invalid value: -2: must not be negative; write a number such as 50, or leave it out for the kubelet's default`,
				`wink.yaml:9: nodePools[0].kubelet.nodeLeaseDurationSeconds: Invalid value: 0: must be above zero; write seconds such as 40 (the kubelet's default), or leave it out`,
				`wink.yaml:10: nodePools[0].kubelet.nodeStatusReportFrequency: Invalid value: "0s": must be above zero; write a duration such as "5m" (the kubelet's default), or leave it out`,
			},
		},
		{
			// Issue 22: the kubelet's validation of its log rotation.
			name: "kubelet container log settings out of range",
			data: head + "nodePools:\n" + // 3
				"- name: b\n" +
				"  os: linux\n" + // 5
				"  kubelet:\n" +
				"    containerLogMaxSize: lots\n" + // 7
				"    containerLogMaxFiles: 1\n" +
				"    containerLogMaxWorkers: 0\n" + // 9
				"    containerLogMonitorInterval: 2s\n",
			want: []string{
				`wink.yaml:7: nodePools[0].kubelet.containerLogMaxSize: Invalid value: "lots": must be a positive quantity; write a size such as "10Mi" (the kubelet's default), or leave it out`,
				`wink.yaml:8: nodePools[0].kubelet.containerLogMaxFiles: Invalid value: 1: must be greater than 1; write a number such as 5 (the kubelet's default), or leave it out`,
				`wink.yaml:9: nodePools[0].kubelet.containerLogMaxWorkers: Invalid value: 0: must be greater than or equal to 1; write a number such as 1 (the kubelet's default), or leave it out`,
				`wink.yaml:10: nodePools[0].kubelet.containerLogMonitorInterval: Invalid value: "2s": must be a positive time duration greater than or equal to 3s; write a duration such as "10s" (the kubelet's default), or leave it out`,
			},
		},
		{
			name: "validation error in a default pool has no line",
			data: head + "name: " + strings.Repeat("c", 54) + "\n",
			want: []string{
				`wink.yaml: nodePools[0].name: Invalid value: "win2022": node names such as "` + strings.Repeat("c", 54) +
					`-win2022-1" would have 64 characters, more than the 63 of a kubernetes.io/hostname label; shorten the pool or the cluster name`,
				`wink.yaml: nodePools[1].name: Invalid value: "win2019": node names such as "` + strings.Repeat("c", 54) +
					`-win2019-0" would have 64 characters, more than the 63 of a kubernetes.io/hostname label; shorten the pool or the cluster name`,
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse([]byte(tc.data), "wink.yaml")
			assert.Assert(t, c == nil)
			assert.DeepEqual(t, messages(err), tc.want)
		})
	}
}

func TestErrorsAs(t *testing.T) {
	_, err := Parse([]byte(head+"nodePools:\n- name: a\n  os: windows\n  windowsBuild: 10.0.1\n"), "wink.yaml")
	var located *Error
	assert.Assert(t, errors.As(err, &located))
	assert.Equal(t, located.Source, "wink.yaml")
	assert.Equal(t, located.Line, 6)
	var fe *v1alpha1.FieldError
	assert.Assert(t, errors.As(err, &fe))
	assert.Equal(t, fe.Path, "nodePools[0].windowsBuild")
	assert.Equal(t, fe.Value, "10.0.1")
}

func TestLoadMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing.yaml")
	_, err := Load(path)
	assert.Assert(t, errors.Is(err, fs.ErrNotExist))
	assert.ErrorContains(t, err, path)
}

func TestWriteFails(t *testing.T) {
	c, err := Load("")
	assert.NilError(t, err)
	err = Write(filepath.Join(t.TempDir(), "no-such-dir", "cluster.yaml"), c)
	assert.Assert(t, errors.Is(err, fs.ErrNotExist))
}

func TestErrorFormat(t *testing.T) {
	tests := []struct {
		name string
		err  *Error
		want string
	}{
		{name: "source and line", err: &Error{Source: "a.yaml", Line: 3, Err: errors.New("x")}, want: "a.yaml:3: x"},
		{name: "source only", err: &Error{Source: "a.yaml", Err: errors.New("x")}, want: "a.yaml: x"},
		{name: "line only", err: &Error{Line: 3, Err: errors.New("x")}, want: "line 3: x"},
		{name: "neither", err: &Error{Err: errors.New("x")}, want: "x"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.err.Error(), tc.want)
		})
	}
}

func TestSplitPath(t *testing.T) {
	assert.DeepEqual(t, splitPath("nodePools[0].labels[example.com/a.b].x"), []segment{
		{name: "nodePools"}, {name: "0", bracket: true}, {name: "labels"},
		{name: "example.com/a.b", bracket: true}, {name: "x"},
	}, cmp.AllowUnexported(segment{}))
}

// FuzzParse checks that no input makes Parse panic, and that whatever it
// accepts survives Marshal and Parse unchanged.
func FuzzParse(f *testing.F) {
	data, err := os.ReadFile(fixture)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte(head))
	f.Add([]byte(head + "nodePools:\n- &w {name: a, os: windows}\n- <<: *w\n  name: b\n"))
	f.Add([]byte(head + "nodePools: [{name: l, os: linux, capacity: {cpu: 1.5}, taints: []}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		// A hang is a bug too, and so is a config that grows the heap
		// past 64 MiB (issue 18: bounded by construction).
		var c *v1alpha1.Cluster
		var err error
		fuzzbound.Run(t, fmt.Sprintf("Parse of %d bytes", len(data)), 10*time.Second, 64<<20, func() {
			c, err = Parse(data, "fuzz.yaml")
		})
		if err != nil {
			return
		}
		out, err := Marshal(c)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		again, err := Parse(out, "fuzz.yaml")
		if err != nil {
			t.Fatalf("parse of marshalled config: %v\n%s", err, out)
		}
		if !equality.Semantic.DeepEqual(c, again) {
			t.Fatalf("round trip changed the config:\n%s", out)
		}
	})
}
