package embedded

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	flowcontrolv1 "k8s.io/api/flowcontrol/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/apis/flowcontrol/bootstrap"
	schedulerv1 "k8s.io/kube-scheduler/config/v1"
	"sigs.k8s.io/yaml"

	"wink.dev/wink/harness/config/v1alpha1"
	"wink.dev/wink/harness/internal/cluster"
)

func state(t *testing.T) *cluster.State {
	t.Helper()
	cfg := &v1alpha1.Cluster{APIVersion: v1alpha1.APIVersion, Kind: v1alpha1.Kind}
	v1alpha1.Default(cfg)
	return &cluster.State{Dir: t.TempDir(), Config: cfg, Binary: "/bin/wink", Ports: cluster.Ports{
		APIServer: 6443, EtcdClient: 2379, EtcdPeer: 2380, ControllerManager: 10257, Scheduler: 10259, NodeAddressBase: DefaultNodeAddressBase,
		MetricsServer: 10350,
	}}
}

// TestAddons checks the kubeadm-like objects every embedded cluster starts
// with: kube-dns at the tenth address of the Service range, CoreDNS and
// kube-proxy on Linux nodes only.
func TestAddons(t *testing.T) {
	objs, err := Addons(state(t))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, o := range objs {
		names = append(names, o.GetKind()+"/"+o.GetNamespace()+"/"+o.GetName())
	}
	for _, want := range []string{
		"ClusterRoleBinding//wink:apiserver-kubelet-client",
		"ClusterRole//wink:simnode",
		"Deployment/kube-system/coredns",
		"Service/kube-system/kube-dns",
		"DaemonSet/kube-system/kube-proxy",
		"ConfigMap/kube-system/kube-proxy",
		"ServiceAccount/kube-system/kube-proxy",
		"APIService//v1beta1.metrics.k8s.io",
		"Service/kube-system/metrics-server",
		"ClusterRoleBinding//system:metrics-server",
		"RoleBinding/kube-system/metrics-server-auth-reader",
	} {
		if !slices.Contains(names, want) {
			t.Errorf("addons lack %s; have %v", want, names)
		}
	}
	for _, o := range objs {
		switch o.GetKind() + "/" + o.GetName() {
		case "Service/kube-dns":
			if ip := nested(o.Object, "spec", "clusterIP"); ip != "10.96.0.10" {
				t.Errorf("kube-dns clusterIP %q, want 10.96.0.10", ip)
			}
		case "APIService/v1beta1.metrics.k8s.io":
			// ResolveCluster answers https://<externalName>:<this port>.
			if port, _, _ := unstructured.NestedFieldNoCopy(o.Object, "spec", "service", "port"); fmt.Sprint(port) != "10350" {
				t.Errorf("APIService port %v, want metrics-server's 10350", port)
			}
		case "Service/metrics-server":
			if typ, name := nested(o.Object, "spec", "type"), nested(o.Object, "spec", "externalName"); typ != "ExternalName" || name != "127.0.0.1" {
				t.Errorf("metrics-server Service %s %q, want ExternalName 127.0.0.1", typ, name)
			}
		case "Deployment/coredns", "DaemonSet/kube-proxy":
			if os := nested(o.Object, "spec", "template", "spec", "nodeSelector", "kubernetes.io/os"); os != "linux" {
				t.Errorf("%s nodeSelector kubernetes.io/os=%q, want linux", o.GetName(), os)
			}
		}
	}
}

func nested(obj map[string]any, path ...string) string {
	s, _, _ := unstructured.NestedString(obj, path...)
	return s
}

// TestComponentsFlags checks the flags that make the cluster what the issue
// asks for: loopback only, node IPAM, kubelet TLS verified with the kubelet CA.
func TestComponentsFlags(t *testing.T) {
	st := state(t)
	kubeconfig, err := Backend{}.Prepare(context.Background(), st, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("admin kubeconfig %s mode %v, want 0600", kubeconfig, fi.Mode().Perm())
	}
	comps, err := Backend{}.Components(st)
	if err != nil {
		t.Fatal(err)
	}
	args := map[string]string{}
	var order []string
	for _, c := range comps {
		order = append(order, c.Name)
		args[c.Name] = strings.Join(c.Args, " ")
	}
	if want := []string{"etcd", "kube-apiserver", "bootstrap", "kube-controller-manager", "kube-scheduler", "simnode", "metrics-server"}; !slices.Equal(order, want) {
		t.Errorf("component order %v, want %v", order, want)
	}
	tests := []struct{ component, flag string }{
		{"kube-apiserver", "--bind-address=127.0.0.1"},
		{"kube-apiserver", "--kubelet-certificate-authority="},
		{"kube-apiserver", "--egress-selector-config-file="},
		{"kube-apiserver", "--authorization-mode=Node,RBAC"},
		{"kube-controller-manager", "--allocate-node-cidrs=true"},
		{"kube-controller-manager", "--cluster-cidr=10.244.0.0/16"},
		{"kube-controller-manager", "--bind-address=127.0.0.1"},
		{"kube-controller-manager", "--node-monitor-grace-period=50s"},
		{"kube-scheduler", "--bind-address=127.0.0.1"},
		{"etcd", "--listen-client-urls=https://127.0.0.1:2379"},
		{"etcd", "--client-cert-auth=true"},
		{"metrics-server", "--secure-port=10350"},
		{"metrics-server", "--metric-resolution=10s"},
		{"metrics-server", "--egress-socket="},
		{"metrics-server", "--kubelet-certificate-authority="},
		{"metrics-server", "--kubelet-use-node-status-port"},
	}
	for _, tt := range tests {
		if !strings.Contains(args[tt.component], tt.flag) {
			t.Errorf("%s lacks %s", tt.component, tt.flag)
		}
	}
	if got := advertiseAddress(st); got != "172.18.0.1" {
		t.Errorf("advertise address %s, want 172.18.0.1", got)
	}
}

// TestNodeMonitorGracePeriod: the node lifecycle controller's grace is its
// default 50 s for the kubelet's 40 s lease, and 5/4 of the longest lease a
// pool's kubelet block sets (a 200 s lease renews every 50 s: a 50 s grace
// would mark its nodes Unknown between renewals).
func TestNodeMonitorGracePeriod(t *testing.T) {
	lease := func(s int32) v1alpha1.NodePool {
		return v1alpha1.NodePool{Kubelet: &v1alpha1.KubeletWritePath{NodeLeaseDurationSeconds: &s}}
	}
	for _, tt := range []struct {
		pools []v1alpha1.NodePool
		want  time.Duration
	}{
		{nil, 50 * time.Second},
		{[]v1alpha1.NodePool{{}, lease(40)}, 50 * time.Second},
		{[]v1alpha1.NodePool{lease(20)}, 50 * time.Second},
		{[]v1alpha1.NodePool{lease(40), lease(200)}, 250 * time.Second},
	} {
		if got := nodeMonitorGracePeriod(tt.pools); got != tt.want {
			t.Errorf("nodeMonitorGracePeriod(%d pools) = %s, want %s", len(tt.pools), got, tt.want)
		}
	}
}

// TestSchedulerConfig checks the scheduler's --config file: it decodes
// strictly as a kubescheduler.config.k8s.io/v1 KubeSchedulerConfiguration
// with two profiles (default-scheduler and wink-scheduler, for `wink test
// --scheduler-name`, rows S1–S5, A17, N4 and N5 against another scheduler name), and
// carries what the flags it replaces said: with --config the scheduler
// ignores --kubeconfig and --profiling.
func TestSchedulerConfig(t *testing.T) {
	st := state(t)
	if _, err := (Backend{}).Prepare(context.Background(), st, io.Discard); err != nil {
		t.Fatal(err)
	}
	p := layout(st)
	data, err := os.ReadFile(p.schedCfg)
	if err != nil {
		t.Fatal(err)
	}
	var cfg schedulerv1.KubeSchedulerConfiguration
	if err := yaml.UnmarshalStrict(data, &cfg); err != nil {
		t.Fatalf("%s: %v\n%s", p.schedCfg, err, data)
	}
	if cfg.APIVersion != "kubescheduler.config.k8s.io/v1" || cfg.Kind != "KubeSchedulerConfiguration" {
		t.Errorf("apiVersion %q kind %q", cfg.APIVersion, cfg.Kind)
	}
	var profiles []string
	for _, pr := range cfg.Profiles {
		if pr.SchedulerName != nil {
			profiles = append(profiles, *pr.SchedulerName)
		}
	}
	if want := []string{"default-scheduler", "wink-scheduler"}; !slices.Equal(profiles, want) {
		t.Errorf("profiles %v, want %v", profiles, want)
	}
	if cfg.ClientConnection.Kubeconfig != p.scheduler {
		t.Errorf("clientConnection.kubeconfig %q, want %q", cfg.ClientConnection.Kubeconfig, p.scheduler)
	}
	if cfg.LeaderElection.LeaderElect == nil || *cfg.LeaderElection.LeaderElect {
		t.Errorf("leaderElection.leaderElect %v, want false", cfg.LeaderElection.LeaderElect)
	}
	if cfg.EnableProfiling == nil || *cfg.EnableProfiling {
		t.Errorf("enableProfiling %v, want false", cfg.EnableProfiling)
	}
	comps, err := Backend{}.Components(st)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range comps {
		if c.Name != "kube-scheduler" {
			continue
		}
		if !slices.Contains(c.Args, "--config="+p.schedCfg) {
			t.Errorf("kube-scheduler args %q lack --config=%s", c.Args, p.schedCfg)
		}
		for _, a := range c.Args {
			for _, ignored := range []string{"--kubeconfig=", "--profiling=", "--leader-elect="} {
				if strings.HasPrefix(a, ignored) {
					t.Errorf("kube-scheduler arg %s: the config file says it (a deprecated flag is ignored with --config)", a)
				}
			}
		}
	}
}

// TestProfiling: the apiserver and etcd serve /debug/pprof only when
// WINK_PROFILING says so (the benchmarks' profiles), never by default.
func TestProfiling(t *testing.T) {
	for _, tt := range []struct {
		env  string
		want bool
	}{{"", false}, {"false", false}, {"true", true}, {"1", true}} {
		t.Run("env="+tt.env, func(t *testing.T) {
			t.Setenv(ProfilingEnv, tt.env)
			st := state(t)
			if _, err := (Backend{}).Prepare(context.Background(), st, io.Discard); err != nil {
				t.Fatal(err)
			}
			comps, err := Backend{}.Components(st)
			if err != nil {
				t.Fatal(err)
			}
			flags := map[string]string{"kube-apiserver": "--profiling=", "etcd": "--enable-pprof="}
			for _, c := range comps {
				flag, ok := flags[c.Name]
				if !ok {
					continue
				}
				delete(flags, c.Name)
				want := flag + strconv.FormatBool(tt.want)
				if !slices.Contains(c.Args, want) {
					t.Errorf("%s args lack %s", c.Name, want)
				}
			}
			for name := range flags {
				t.Errorf("no component %s", name)
			}
		})
	}
}

// TestSimnodeFlowSchemas: simnode's requests are classified by API Priority
// and Fairness as a real cluster's kubelets' are (upstream's system-node-high
// and system-nodes FlowSchemas, for user wink:simnode), not as unclassified
// traffic at the global-default level.
func TestSimnodeFlowSchemas(t *testing.T) {
	objs, err := Addons(state(t))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*flowcontrolv1.FlowSchema{}
	for _, o := range objs {
		if o.GetKind() != "FlowSchema" {
			continue
		}
		var fs flowcontrolv1.FlowSchema
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(o.Object, &fs); err != nil {
			t.Fatal(err)
		}
		got[fs.Name] = &fs
	}
	for _, tt := range []struct {
		name     string
		upstream *flowcontrolv1.FlowSchema
		level    string
	}{
		{"wink-simnode-system-node-high", bootstrap.SuggestedFlowSchemaSystemNodeHigh, "node-high"},
		{"wink-simnode-system-nodes", bootstrap.SuggestedFlowSchemaSystemNodes, "system"},
	} {
		fs, ok := got[tt.name]
		if !ok {
			t.Errorf("no FlowSchema %s; have %v", tt.name, slices.Collect(maps.Keys(got)))
			continue
		}
		if fs.Spec.PriorityLevelConfiguration.Name != tt.level {
			t.Errorf("%s: priority level %s, want %s", tt.name, fs.Spec.PriorityLevelConfiguration.Name, tt.level)
		}
		if fs.Spec.MatchingPrecedence != tt.upstream.Spec.MatchingPrecedence || !equality.Semantic.DeepEqual(fs.Spec.DistinguisherMethod, tt.upstream.Spec.DistinguisherMethod) {
			t.Errorf("%s: precedence %d, distinguisher %v; upstream %s has %d, %v", tt.name, fs.Spec.MatchingPrecedence, fs.Spec.DistinguisherMethod,
				tt.upstream.Name, tt.upstream.Spec.MatchingPrecedence, tt.upstream.Spec.DistinguisherMethod)
		}
		if len(fs.Spec.Rules) != len(tt.upstream.Spec.Rules) {
			t.Fatalf("%s: %d rules, upstream %d", tt.name, len(fs.Spec.Rules), len(tt.upstream.Spec.Rules))
		}
		for i, r := range fs.Spec.Rules {
			u := tt.upstream.Spec.Rules[i]
			if !equality.Semantic.DeepEqual(r.ResourceRules, u.ResourceRules) || !equality.Semantic.DeepEqual(r.NonResourceRules, u.NonResourceRules) {
				t.Errorf("%s rule %d: %+v, want upstream's %+v", tt.name, i, r, u)
			}
			want := []flowcontrolv1.Subject{{Kind: flowcontrolv1.SubjectKindUser, User: &flowcontrolv1.UserSubject{Name: "wink:simnode"}}}
			if !equality.Semantic.DeepEqual(r.Subjects, want) {
				t.Errorf("%s rule %d subjects %+v, want user wink:simnode", tt.name, i, r.Subjects)
			}
		}
	}
}
