package kindcluster

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/kind/pkg/apis/config/v1alpha4"
	"sigs.k8s.io/yaml"

	"wink.dev/wink/harness/config/v1alpha1"
	"wink.dev/wink/harness/internal/cluster"
	"wink.dev/wink/harness/internal/dockershim"
	"wink.dev/wink/harness/internal/simnodeplan"
)

// kindNetwork is `docker network inspect kind` on a Linux host (Docker 27),
// shortened: kind creates it dual-stack with a ULA IPv6 subnet first.
const kindNetwork = `[
    {
        "Name": "kind",
        "Id": "8f1c1e0e5f0a",
        "Scope": "local",
        "Driver": "bridge",
        "EnableIPv6": true,
        "IPAM": {
            "Driver": "default",
            "Options": {},
            "Config": [
                {"Subnet": "fc00:f853:ccd:e793::/64", "Gateway": "fc00:f853:ccd:e793::1"},
                {"Subnet": "172.18.0.0/16", "Gateway": "172.18.0.1"}
            ]
        },
        "Containers": {
            "3b1f": {"Name": "wink-demo-control-plane", "IPv4Address": "172.18.0.2/16", "IPv6Address": "fc00:f853:ccd:e793::2/64"}
        },
        "Options": {"com.docker.network.bridge.enable_ip_masquerade": "true", "com.docker.network.driver.mtu": "1500"}
    }
]`

func TestParseGateway(t *testing.T) {
	tests := []struct {
		name    string
		data    string
		want    string
		wantErr string
	}{
		{name: "kind dual-stack network", data: kindNetwork, want: "172.18.0.1"},
		{name: "IPv4 only", data: `[{"Name":"kind","IPAM":{"Config":[{"Subnet":"172.19.0.0/16","Gateway":"172.19.0.1"}]}}]`, want: "172.19.0.1"},
		{name: "no Gateway field: first address", data: `[{"Name":"kind","IPAM":{"Config":[{"Subnet":"fc00::/64"},{"Subnet":"10.89.0.0/24"}]}}]`, want: "10.89.0.1"},
		{name: "IPv6 only", data: `[{"Name":"kind","IPAM":{"Config":[{"Subnet":"fc00:1::/64","Gateway":"fc00:1::1"}]}}]`, want: "fc00:1::1"},
		{name: "IPv6 only, no Gateway field", data: `[{"Name":"kind","IPAM":{"Config":[{"Subnet":"fc00:1::/64"}]}}]`, want: "fc00:1::1"},
		{name: "no IPAM config", data: `[{"Name":"kind","IPAM":{"Config":[]}}]`, wantErr: "no gateway"},
		{name: "bad subnet", data: `[{"Name":"kind","IPAM":{"Config":[{"Subnet":"nonsense"}]}}]`, wantErr: "nonsense"},
		{name: "no network", data: `[]`, wantErr: "0 networks"},
		{name: "two networks", data: `[{"Name":"a"},{"Name":"b"}]`, wantErr: "2 networks"},
		{name: "not JSON", data: `Error: No such network: kind`, wantErr: "parsing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ip, err := ParseGateway([]byte(tt.data))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to mention %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !ip.Equal(net.ParseIP(tt.want)) || ip.String() != tt.want {
				t.Errorf("gateway %s, want %s", ip, tt.want)
			}
		})
	}
}

func TestKindConfig(t *testing.T) {
	tests := []struct {
		name        string
		networking  v1alpha1.Networking
		wantPod     string
		wantService string
		engine      dockershim.Engine
		wantPatch   string
		wantKinds   []string
		wantCtrd    string
	}{
		{name: "kind defaults"},
		{name: "wink defaults", networking: v1alpha1.Networking{PodSubnet: "10.244.0.0/16", ServiceSubnet: "10.96.0.0/12", DNSDomain: "cluster.local", NodeCIDRMaskSize: 24},
			wantPod: "10.244.0.0/16", wantService: "10.96.0.0/12"},
		{name: "custom DNS domain", networking: v1alpha1.Networking{DNSDomain: "wink.test"}, wantPatch: "dnsDomain: \"wink.test\"", wantKinds: []string{"ClusterConfiguration"}},
		// kubelet 1.35 refuses cgroup v1 unless failCgroupV1 is false
		// (k8s.io/kubernetes@v1.35.4 pkg/kubelet/apis/config/validation/validation_linux.go);
		// runc cannot lower oom_score_adj without CAP_SYS_RESOURCE.
		{name: "restricted cgroup v1 engine", engine: dockershim.Engine{CgroupV1: true, DropCaps: []string{"SYS_RESOURCE"}},
			wantPatch: "failCgroupV1: false", wantKinds: []string{"KubeletConfiguration"}, wantCtrd: "restrict_oom_score_adj = true"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := KindConfig(&v1alpha1.Cluster{Name: "demo", Networking: tt.networking, KindBackend: &v1alpha1.KindBackend{NodeImage: "kindest/node:v1.35.0"}}, tt.engine)
			if c.Kind != "Cluster" || c.APIVersion != "kind.x-k8s.io/v1alpha4" {
				t.Errorf("TypeMeta %+v", c.TypeMeta)
			}
			if len(c.Nodes) != 1 || c.Nodes[0].Role != v1alpha4.ControlPlaneRole {
				t.Errorf("nodes %+v, want one control-plane", c.Nodes)
			}
			if c.Nodes[0].Image != "" {
				t.Errorf("image %q set in the config; CreateWithNodeImage carries it", c.Nodes[0].Image)
			}
			if c.Networking.PodSubnet != tt.wantPod || c.Networking.ServiceSubnet != tt.wantService {
				t.Errorf("networking %+v", c.Networking)
			}
			patches := strings.Join(c.KubeadmConfigPatches, "---\n")
			if (tt.wantPatch == "") != (patches == "") || !strings.Contains(patches, tt.wantPatch) {
				t.Errorf("patches %q, want %q", patches, tt.wantPatch)
			}
			for i, p := range c.KubeadmConfigPatches {
				var m map[string]any
				if err := yaml.Unmarshal([]byte(p), &m); err != nil || i >= len(tt.wantKinds) || m["kind"] != tt.wantKinds[i] {
					t.Errorf("patch %q: %v %v, want kinds %v", p, m, err, tt.wantKinds)
				}
			}
			if ctrd := strings.Join(c.ContainerdConfigPatches, "\n"); (tt.wantCtrd == "") != (ctrd == "") || !strings.Contains(ctrd, tt.wantCtrd) {
				t.Errorf("containerd patches %q, want %q", ctrd, tt.wantCtrd)
			}
			// It survives kind's defaulting (as CreateWithV1Alpha4Config applies it).
			v1alpha4.SetDefaultsCluster(c)
			if c.Networking.IPFamily != v1alpha4.IPv4Family || c.Nodes[0].Image == "" {
				t.Errorf("after defaults: %+v", c)
			}
		})
	}
}

func TestCreateOptions(t *testing.T) {
	tests := []struct {
		name string
		kind *v1alpha1.KindBackend
		want int
	}{
		{name: "no kind settings", want: 3},
		{name: "no image", kind: &v1alpha1.KindBackend{}, want: 3},
		{name: "image", kind: &v1alpha1.KindBackend{NodeImage: "kindest/node:v1.35.0"}, want: 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := len(createOptions(&v1alpha1.Cluster{Name: "demo", KindBackend: tt.kind}, dockershim.Engine{}, "/s/kubeconfig")); got != tt.want {
				t.Errorf("%d options, want %d", got, tt.want)
			}
		})
	}
}

// kindKubeconfig is what provider.KubeConfig returns (data shortened).
const kindKubeconfig = `apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: Q0E=
    server: https://127.0.0.1:40123
  name: kind-wink-demo
contexts:
- context:
    cluster: kind-wink-demo
    user: kind-wink-demo
  name: kind-wink-demo
current-context: kind-wink-demo
kind: Config
preferences: {}
users:
- name: kind-wink-demo
  user:
    client-certificate-data: Q0VSVA==
    client-key-data: S0VZ
`

func TestRenameContext(t *testing.T) {
	tests := []struct {
		name    string
		raw     string
		wantErr string
	}{
		{name: "kind kubeconfig", raw: kindKubeconfig},
		{name: "no current context", raw: strings.Replace(kindKubeconfig, "current-context: kind-wink-demo", "current-context: other", 1), wantErr: "no current context"},
		{name: "not YAML", raw: "{", wantErr: "yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := renameContext([]byte(tt.raw), "wink-demo")
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(strings.ToLower(err.Error()), tt.wantErr) {
					t.Fatalf("err = %v, want it to mention %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := clientcmd.Load(out)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.CurrentContext != "wink-demo" || len(cfg.Contexts) != 1 || len(cfg.Clusters) != 1 || len(cfg.AuthInfos) != 1 {
				t.Fatalf("config %s", out)
			}
			c := cfg.Clusters["wink-demo"]
			u := cfg.AuthInfos["wink-demo"]
			if c == nil || c.Server != "https://127.0.0.1:40123" || string(c.CertificateAuthorityData) != "CA" ||
				u == nil || string(u.ClientCertificateData) != "CERT" || string(u.ClientKeyData) != "KEY" {
				t.Errorf("config %s", out)
			}
		})
	}
}

func TestLogger(t *testing.T) {
	var buf bytes.Buffer
	l := &logger{w: &buf}
	l.V(0).Infof("Creating cluster %q ...", "wink-demo")
	l.V(1).Info("debug detail")
	l.Warn("careful")
	l.Errorf("failed: %d", 3)
	want := "Creating cluster \"wink-demo\" ...\nWARNING: careful\nERROR: failed: 3\n"
	if buf.String() != want {
		t.Errorf("logged %q, want %q", buf.String(), want)
	}
	if !l.V(0).Enabled() || l.V(2).Enabled() {
		t.Error("Enabled: want only V(0)")
	}
}

func TestComponents(t *testing.T) {
	st := &cluster.State{Dir: t.TempDir(), Config: &v1alpha1.Cluster{Name: "demo"}}
	if _, err := New().Components(st); err == nil {
		t.Error("Components before Prepare succeeded")
	}
	st.Ports.NodeAddressBase = "172.18.0.1"
	comps, err := New().Components(st)
	if err != nil {
		t.Fatal(err)
	}
	if len(comps) != 2 || comps[0].Task == nil || comps[1].Name != "simnode" ||
		strings.Join(comps[1].Args, " ") != "simnode --config "+filepath.Join(st.Dir, "simnode.yaml") {
		t.Errorf("components %+v", comps)
	}
	if simnodeplan.ConfigPath(st) != filepath.Join(st.Dir, "simnode.yaml") {
		t.Error("config path")
	}
}

// fakeDocker puts a docker script with body on PATH (and nothing else).
func fakeDocker(t *testing.T, body string) {
	t.Helper()
	dir := t.TempDir()
	script := "#!/bin/sh\n" + body + "\n"
	if err := os.WriteFile(filepath.Join(dir, "docker"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+"/bin:/usr/bin")
}

func TestDockerAvailable(t *testing.T) {
	tests := []struct {
		name    string
		docker  string // script body; empty: no docker on PATH
		timeout time.Duration
		wantErr string
	}{
		{name: "no CLI", wantErr: "no docker CLI"},
		{name: "no daemon", docker: `echo "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?" >&2; exit 1`,
			wantErr: "Cannot connect to the Docker daemon"},
		{name: "daemon hangs", docker: `exec sleep 30`, timeout: 300 * time.Millisecond, wantErr: "did not answer"},
		{name: "daemon hangs, child holds the pipe", docker: `sleep 5; echo late`, timeout: 300 * time.Millisecond, wantErr: "did not answer"},
		{name: "daemon answers", docker: `[ "$1 $2 $3" = "version --format {{.Server.Version}}" ] || exit 2; echo 27.5.1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.docker == "" {
				t.Setenv("PATH", t.TempDir())
			} else {
				fakeDocker(t, tt.docker)
			}
			ctx := context.Background()
			if tt.timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tt.timeout)
				defer cancel()
			}
			start := time.Now()
			err := DockerAvailable(ctx)
			if took := time.Since(start); took > DockerTimeout {
				t.Errorf("took %s, more than %s", took, DockerTimeout)
			}
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want it to mention %q", err, tt.wantErr)
			}
		})
	}
}

func TestNodeAddress(t *testing.T) {
	tests := []struct {
		name    string
		network string // KIND_EXPERIMENTAL_DOCKER_NETWORK
		want    string
		wantErr string
	}{
		{name: "kind network", want: "172.18.0.1"},
		{name: "network from the environment", network: "wink-net", want: "10.77.0.1"},
		{name: "missing network", network: "missing", wantErr: "No such network"},
	}
	fakeDocker(t, `[ "$1 $2" = "network inspect" ] || exit 2
case "$3" in
kind) cat <<'EOF'
`+kindNetwork+`
EOF
;;
wink-net) echo '[{"Name":"wink-net","IPAM":{"Config":[{"Subnet":"10.77.0.0/24","Gateway":"10.77.0.1"}]}}]' ;;
*) echo '[]'; echo "Error response from daemon: No such network: $3" >&2; exit 1 ;;
esac`)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(networkEnv, tt.network)
			ip, err := NodeAddress(context.Background())
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to mention %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ip.String() != tt.want {
				t.Errorf("got %s, want %s", ip, tt.want)
			}
		})
	}
}

// TestPrepareWithoutDocker checks that Prepare and Delete fail at once,
// saying why, when no Docker engine answers.
func TestPrepareWithoutDocker(t *testing.T) {
	fakeDocker(t, `echo "Cannot connect to the Docker daemon" >&2; exit 1`)
	st := &cluster.State{Dir: t.TempDir(), Config: &v1alpha1.Cluster{Name: "demo"}}
	var progress bytes.Buffer
	if _, err := New().Prepare(context.Background(), st, &progress); err == nil || !strings.Contains(err.Error(), "Cannot connect") {
		t.Errorf("Prepare: %v", err)
	}
	if err := New().Delete(context.Background(), st); err == nil || !strings.Contains(err.Error(), "Cannot connect") {
		t.Errorf("Delete: %v", err)
	}
	if entries, _ := os.ReadDir(st.Dir); len(entries) != 0 {
		t.Errorf("state directory not empty: %v", entries)
	}
}
