package simnodeplan

import (
	"context"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	apimachineryversion "k8s.io/apimachinery/pkg/version"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"sigs.k8s.io/yaml"

	"wink.dev/wink/harness/config/v1alpha1"
	"wink.dev/wink/harness/internal/cluster"
	simconfig "wink.dev/wink/simnode/config"
)

func testState(t *testing.T) *cluster.State {
	t.Helper()
	two := 2
	return &cluster.State{
		Dir: t.TempDir(),
		Config: &v1alpha1.Cluster{
			Name: "demo",
			NodePools: []v1alpha1.NodePool{
				{Name: "win", OS: v1alpha1.OSWindows, WindowsBuild: v1alpha1.WindowsServer2022, Count: &two},
				{Name: "linux", OS: v1alpha1.OSLinux},
			},
		},
		Ports: cluster.Ports{NodeAddressBase: "172.18.0.1"},
	}
}

func TestComponents(t *testing.T) {
	st := testState(t)
	comps := Components(st, "/k/kubeconfig", Network{ListenAddress: "0.0.0.0"})
	if len(comps) != 2 {
		t.Fatalf("%d components, want 2", len(comps))
	}
	tests := []struct {
		name     string
		c        int
		wantArgs []string
		wantTask bool
		wantRdy  bool
	}{
		{name: SetupComponent, c: 0, wantTask: true},
		{name: SimnodeComponent, c: 1, wantArgs: []string{"simnode", "--config", filepath.Join(st.Dir, "simnode.yaml")}, wantRdy: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := comps[tt.c]
			if c.Name != tt.name || !slices.Equal(c.Args, tt.wantArgs) || (c.Task != nil) != tt.wantTask || (c.Ready != nil) != tt.wantRdy || c.Parallel {
				t.Errorf("component %d = {Name:%q Args:%q Task:%v Ready:%v Parallel:%v}", tt.c, c.Name, c.Args, c.Task != nil, c.Ready != nil, c.Parallel)
			}
		})
	}
}

// Issue 19: simnode.shards: 3 starts three simnode processes together, each
// told its shard; the last waits for every node.
func TestComponentsShards(t *testing.T) {
	st := testState(t)
	st.Config.Simnode.Shards = 3
	comps := Components(st, "/k/kubeconfig", Network{ListenAddress: "0.0.0.0"})
	if len(comps) != 4 {
		t.Fatalf("%d components, want setup and 3 shards", len(comps))
	}
	cfgPath := filepath.Join(st.Dir, "simnode.yaml")
	for i, c := range comps[1:] {
		want := []string{"simnode", "--config", cfgPath, "--shard-index", fmt.Sprint(i), "--shard-count", "3"}
		last := i == 2
		if c.Name != fmt.Sprintf("simnode-%d", i) || !slices.Equal(c.Args, want) || c.Parallel == last || (c.Ready != nil) != last {
			t.Errorf("shard %d = {Name:%q Args:%q Ready:%v Parallel:%v}, want args %q, ready and not parallel only for the last", i, c.Name, c.Args, c.Ready != nil, c.Parallel, want)
		}
	}
}

func TestWriteConfig(t *testing.T) {
	st := testState(t)
	cfg := NewConfig(st, "/k/kubeconfig", "0.0.0.0", "v1.35.4")
	cfg.ClientCAFile = "/k/ca.crt"
	path := filepath.Join(st.Dir, "simnode.yaml")
	if err := WriteConfig(path, cfg); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
	var raw map[string]any
	if err := yaml.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		key  string
		want any
	}{
		{"clusterName", "demo"},
		{"kubeconfig", "/k/kubeconfig"},
		{"controlPlaneVersion", "v1.35.4"},
		{"nodeAddressBase", "172.18.0.1"},
		{"listenAddress", "0.0.0.0"},
		{"stateDir", filepath.Join(st.Dir, "simnode")},
		{"clientCAFile", "/k/ca.crt"},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			if raw[tt.key] != tt.want {
				t.Errorf("%s = %v, want %v\n%s", tt.key, raw[tt.key], tt.want, data)
			}
		})
	}
	var back simconfig.Config
	if err := yaml.UnmarshalStrict(data, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Pools) != 2 || back.Pools[0].Name != "win" || back.Pools[0].Count != 2 || back.Pools[0].WindowsBuild != v1alpha1.WindowsServer2022 {
		t.Errorf("pools = %+v", back.Pools)
	}
}

func TestEnsureRBAC(t *testing.T) {
	roles, bindings := RBAC()
	stale := roles[0].DeepCopy()
	stale.Rules = stale.Rules[:1]
	otherBinding := bindings[0].DeepCopy()
	otherBinding.RoleRef.Name = "view"

	tests := []struct {
		name     string
		existing []runtime.Object
		// wantRoleRef is the roleRef name of the wink:simnode binding after.
		wantRoleRef string
	}{
		{name: "empty cluster", wantRoleRef: ClusterRoleName},
		{name: "all present", existing: []runtime.Object{roles[0].DeepCopy(), bindings[0].DeepCopy(), bindings[1].DeepCopy()}, wantRoleRef: ClusterRoleName},
		{name: "stale rules updated", existing: []runtime.Object{stale}, wantRoleRef: ClusterRoleName},
		{name: "existing binding left alone", existing: []runtime.Object{otherBinding}, wantRoleRef: "view"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client := fake.NewClientset(tt.existing...)
			for range 2 { // idempotent
				if err := EnsureRBAC(context.Background(), client); err != nil {
					t.Fatal(err)
				}
			}
			role, err := client.RbacV1().ClusterRoles().Get(context.Background(), ClusterRoleName, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !rulesEqual(role.Rules, roles[0].Rules) {
				t.Errorf("rules = %+v", role.Rules)
			}
			if !slices.ContainsFunc(role.Rules, func(r rbacv1.PolicyRule) bool {
				return slices.Contains(r.Resources, "subjectaccessreviews") && slices.Contains(r.Verbs, "create")
			}) {
				t.Error("no subjectaccessreviews create rule")
			}
			b, err := client.RbacV1().ClusterRoleBindings().Get(context.Background(), ClusterRoleName, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if b.RoleRef.Name != tt.wantRoleRef {
				t.Errorf("roleRef %q, want %q", b.RoleRef.Name, tt.wantRoleRef)
			}
			k, err := client.RbacV1().ClusterRoleBindings().Get(context.Background(), KubeletAPIAdminBindingName, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if k.RoleRef.Name != "system:kubelet-api-admin" || len(k.Subjects) != 1 || k.Subjects[0].Name != "kube-apiserver-kubelet-client" || k.Subjects[0].Kind != rbacv1.UserKind {
				t.Errorf("kubelet client binding %+v", k)
			}
		})
	}
}

func node(name string, ready corev1.ConditionStatus) corev1.Node {
	n := corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}}
	if ready != "" {
		n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: ready}}
	}
	return n
}

func TestCheckNodesReady(t *testing.T) {
	two := 2
	pools := []v1alpha1.NodePool{{Name: "win", Count: &two}, {Name: "win-2019"}}
	tests := []struct {
		name    string
		nodes   []corev1.Node
		wantErr []string
	}{
		{name: "none", wantErr: []string{"pool win: 0 of 2", "pool win-2019: 0 of 1"}},
		{name: "all ready", nodes: []corev1.Node{node("demo-win-0", "True"), node("demo-win-1", "True"), node("demo-win-2019-0", "True")}},
		{name: "one not ready", nodes: []corev1.Node{node("demo-win-0", "True"), node("demo-win-1", "False"), node("demo-win-2019-0", "True")},
			wantErr: []string{"pool win: 1 of 2"}},
		{name: "no condition yet", nodes: []corev1.Node{node("demo-win-0", "True"), node("demo-win-1", ""), node("demo-win-2019-0", "True")},
			wantErr: []string{"pool win: 1 of 2"}},
		{name: "an index beyond the pool's count does not count", nodes: []corev1.Node{node("demo-win-0", "True"), node("demo-win-2", "True"), node("demo-win-2019-0", "True")},
			wantErr: []string{"pool win: 1 of 2"}},
		{name: "other pool's nodes do not count", nodes: []corev1.Node{node("demo-win-2019-0", "True"), node("demo-win-2019-1", "True")},
			wantErr: []string{"pool win: 0 of 2"}},
		{name: "other cluster's nodes do not count", nodes: []corev1.Node{node("other-win-0", "True"), node("other-win-1", "True"), node("demo-win-2019-0", "True")},
			wantErr: []string{"pool win: 0 of 2"}},
		{name: "kind's own node ignored", nodes: []corev1.Node{node("wink-demo-control-plane", "True"), node("demo-win-0", "True"), node("demo-win-1", "True"), node("demo-win-2019-0", "True")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckNodesReady(tt.nodes, "demo", pools)
			if len(tt.wantErr) == 0 {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil {
				t.Fatal("no error")
			}
			for _, want := range tt.wantErr {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q lacks %q", err, want)
				}
			}
			if got := strings.Count(err.Error(), "pool "); got != len(tt.wantErr) {
				t.Errorf("error %q names %d pools, want %d", err, got, len(tt.wantErr))
			}
		})
	}
}

// fakeAPIServer answers /version and stores RBAC objects created by POST.
type fakeAPIServer struct {
	mu      sync.Mutex
	created []string
}

func (f *fakeAPIServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.URL.Path == "/version":
		_, _ = io.WriteString(w, `{"major":"1","minor":"37","gitVersion":"v1.37.0"}`)
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/apis/rbac.authorization.k8s.io/v1/"):
		w.WriteHeader(http.StatusNotFound)
		_, _ = io.WriteString(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}`)
	case r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/apis/rbac.authorization.k8s.io/v1/"):
		// The body may be protobuf: find which object it is by its name.
		body, _ := io.ReadAll(r.Body)
		name := ""
		for _, n := range []string{KubeletAPIAdminBindingName, ClusterRoleName} {
			if strings.Contains(string(body), n) {
				name = n
				break
			}
		}
		f.created = append(f.created, r.URL.Path+"/"+name)
		kind := "ClusterRole"
		if strings.HasSuffix(r.URL.Path, "clusterrolebindings") {
			kind = "ClusterRoleBinding"
		}
		w.WriteHeader(http.StatusCreated)
		_ = json.NewEncoder(w).Encode(map[string]any{"kind": kind, "apiVersion": "rbac.authorization.k8s.io/v1", "metadata": map[string]string{"name": name}})
	default:
		http.Error(w, "unexpected "+r.Method+" "+r.URL.Path, http.StatusTeapot)
	}
}

func TestSetup(t *testing.T) {
	api := &fakeAPIServer{}
	srv := httptest.NewTLSServer(api)
	defer srv.Close()
	caPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})

	st := testState(t)
	kubeconfig := filepath.Join(st.Dir, "kubeconfig")
	kc := clientcmdapi.NewConfig()
	kc.Clusters["c"] = &clientcmdapi.Cluster{Server: srv.URL, CertificateAuthorityData: caPEM}
	kc.AuthInfos["u"] = &clientcmdapi.AuthInfo{Token: "t"}
	kc.Contexts["c"] = &clientcmdapi.Context{Cluster: "c", AuthInfo: "u"}
	kc.CurrentContext = "c"
	if err := clientcmd.WriteToFile(*kc, kubeconfig); err != nil {
		t.Fatal(err)
	}

	if err := Components(st, kubeconfig, Network{ListenAddress: "0.0.0.0"})[0].Task(context.Background()); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(ConfigPath(st))
	if err != nil {
		t.Fatal(err)
	}
	var cfg simconfig.Config
	if err := yaml.UnmarshalStrict(data, &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.ControlPlaneVersion != "v1.37.0" || cfg.Kubeconfig != kubeconfig || cfg.ListenAddress != "0.0.0.0" ||
		cfg.NodeAddressBase != "172.18.0.1" || cfg.ClientCAFile != ClientCAPath(st) || cfg.StateDir != StateDir(st) {
		t.Errorf("config:\n%s", data)
	}
	gotCA, err := os.ReadFile(cfg.ClientCAFile)
	if err != nil {
		t.Fatal(err)
	}
	if string(gotCA) != string(caPEM) {
		t.Error("client CA is not the kubeconfig's CA")
	}
	want := []string{
		"/apis/rbac.authorization.k8s.io/v1/clusterroles/wink:simnode",
		"/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/wink:simnode",
		"/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/wink:kube-apiserver-kubelet-client",
	}
	if !slices.Equal(api.created, want) {
		t.Errorf("created %q, want %q", api.created, want)
	}
}

func TestSetupUnreachable(t *testing.T) {
	st := testState(t)
	srv := httptest.NewTLSServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	kubeconfig := filepath.Join(st.Dir, "kubeconfig")
	kc := clientcmdapi.NewConfig()
	kc.Clusters["c"] = &clientcmdapi.Cluster{Server: url, InsecureSkipTLSVerify: true}
	kc.AuthInfos["u"] = &clientcmdapi.AuthInfo{}
	kc.Contexts["c"] = &clientcmdapi.Context{Cluster: "c", AuthInfo: "u"}
	kc.CurrentContext = "c"
	if err := clientcmd.WriteToFile(*kc, kubeconfig); err != nil {
		t.Fatal(err)
	}
	err := Setup(context.Background(), st, kubeconfig, Network{ListenAddress: "0.0.0.0"})
	if err == nil || !strings.Contains(err.Error(), url) {
		t.Fatalf("err = %v, want it to name %s", err, url)
	}
	if _, err := os.Stat(ConfigPath(st)); !os.IsNotExist(err) {
		t.Errorf("simnode.yaml written: %v", err)
	}
}

func TestReleaseVersion(t *testing.T) {
	tests := []struct {
		name    string
		info    apimachineryversion.Info
		want    string
		wantErr bool
	}{
		{name: "release", info: apimachineryversion.Info{GitVersion: "v1.35.4", Major: "1", Minor: "35"}, want: "v1.35.4"},
		{name: "vendor suffix", info: apimachineryversion.Info{GitVersion: "v1.33.5-eks-1a2b3c", Major: "1", Minor: "33"}, want: "v1.33.5-eks-1a2b3c"},
		{name: "build metadata", info: apimachineryversion.Info{GitVersion: "v1.34.1+k3s1", Major: "1", Minor: "34"}, want: "v1.34.1+k3s1"},
		// An apiserver built without version stamping (a development
		// build, as wink's own was) says v0.0.0-master: its major and
		// minor are the release.
		{name: "unstamped", info: apimachineryversion.Info{GitVersion: "v0.0.0-master+$Format:%H$", Major: "1", Minor: "35"}, want: "v1.35.0"},
		{name: "GKE minor", info: apimachineryversion.Info{GitVersion: "garbage", Major: "1", Minor: "35+"}, want: "v1.35.0"},
		{name: "nothing", info: apimachineryversion.Info{GitVersion: "v0.0.0-master+$Format:%H$"}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReleaseVersion(tt.info)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("ReleaseVersion(%+v) = %q, %v; want %q (error %v)", tt.info, got, err, tt.want, tt.wantErr)
			}
		})
	}
}
