package deploy

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"helm.sh/helm/v4/pkg/action"
	"helm.sh/helm/v4/pkg/chart/common"
	"helm.sh/helm/v4/pkg/chart/v2/lint/support"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/yaml"

	"wink.dev/wink/harness/check"
	simconfig "wink.dev/wink/simnode/config"
)

const (
	chartDir    = "chart"
	kubeVersion = "v1.35.4"
	release     = "sim"
	namespace   = "wink-system"
)

// rendered are the objects of one rendering of the chart.
type rendered struct {
	sts          *appsv1.StatefulSet
	cm           *corev1.ConfigMap
	sa           *corev1.ServiceAccount
	clusterRole  *rbacv1.ClusterRole
	role         *rbacv1.Role
	crb          *rbacv1.ClusterRoleBinding
	rb           *rbacv1.RoleBinding
	simnodeCfg   *simconfig.Config
	kinds        []string
	fullManifest string
}

func render(t *testing.T, values map[string]any) *rendered {
	t.Helper()
	ch, err := loader.Load(chartDir)
	if err != nil {
		t.Fatal(err)
	}
	manifest, _, err := check.Template(ch, check.InstallOptions{Release: release, Namespace: namespace, Values: values}, kubeVersion)
	if err != nil {
		t.Fatalf("render: %v", err)
	}
	r := &rendered{fullManifest: manifest}
	codecs := serializer.NewCodecFactory(scheme.Scheme)
	dec := utilyaml.NewYAMLReader(bufio.NewReader(strings.NewReader(manifest)))
	for {
		doc, err := dec.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		obj, gvk, err := codecs.UniversalDeserializer().Decode(doc, nil, nil)
		if err != nil {
			t.Fatalf("decode %s: %v", doc, err)
		}
		r.kinds = append(r.kinds, gvk.Kind)
		switch o := obj.(type) {
		case *appsv1.StatefulSet:
			r.sts = o
		case *corev1.ConfigMap:
			r.cm = o
		case *corev1.ServiceAccount:
			r.sa = o
		case *rbacv1.ClusterRole:
			r.clusterRole = o
		case *rbacv1.Role:
			r.role = o
		case *rbacv1.ClusterRoleBinding:
			r.crb = o
		case *rbacv1.RoleBinding:
			r.rb = o
		}
	}
	if r.sts == nil || r.cm == nil || r.sa == nil || r.clusterRole == nil || r.role == nil || r.crb == nil || r.rb == nil {
		t.Fatalf("rendered kinds %v: want a StatefulSet, ConfigMap, ServiceAccount, ClusterRole(Binding) and Role(Binding)", r.kinds)
	}
	r.simnodeCfg = &simconfig.Config{}
	if err := yaml.UnmarshalStrict([]byte(r.cm.Data["simnode.yaml"]), r.simnodeCfg); err != nil {
		t.Fatalf("simnode.yaml does not load as simnode's configuration: %v\n%s", err, r.cm.Data["simnode.yaml"])
	}
	return r
}

// Issue 19: `helm lint` passes, with the default values and with the
// values of "3 replicas share 300 nodes".
func TestLint(t *testing.T) {
	for _, vals := range []map[string]any{nil, values300()} {
		l := action.NewLint()
		kv, err := common.ParseKubeVersion(kubeVersion)
		if err != nil {
			t.Fatal(err)
		}
		l.KubeVersion, l.Namespace, l.Strict = kv, namespace, true
		res := l.Run([]string{chartDir}, vals)
		for _, m := range res.Messages {
			// Infos (no icon) are advice; warnings and errors fail.
			if m.Severity > support.InfoSev {
				t.Errorf("lint: %s", m)
			}
		}
		for _, err := range res.Errors {
			t.Errorf("lint: %v", err)
		}
	}
}

func values300() map[string]any {
	return map[string]any{
		"replicas": 3,
		"nodePools": []any{
			map[string]any{"name": "win2022", "os": "windows", "windowsBuild": "10.0.20348", "count": 200},
			map[string]any{"name": "win2019", "os": "windows", "windowsBuild": "10.0.17763", "count": 100},
		},
	}
}

// Issue 19: each replica is told the StatefulSet it belongs to and its
// ordinal, its nodes' address is the pod's IP, and its state directory is
// its volume claim.
func TestStatefulSetShards(t *testing.T) {
	r := render(t, values300())
	sts := r.sts
	if sts.Spec.Replicas == nil || *sts.Spec.Replicas != 3 || sts.Spec.PodManagementPolicy != appsv1.ParallelPodManagement {
		t.Errorf("replicas %v, policy %s: want 3, Parallel", sts.Spec.Replicas, sts.Spec.PodManagementPolicy)
	}
	pod := sts.Spec.Template.Spec
	if len(pod.Containers) != 1 {
		t.Fatalf("%d containers", len(pod.Containers))
	}
	c := pod.Containers[0]
	for _, want := range []string{"--statefulset=$(POD_NAMESPACE)/" + sts.Name, "--shard-index=$(POD_INDEX)", "--node-address=$(POD_IP)", "--config=/etc/wink/simnode.yaml"} {
		if !slices.Contains(c.Args, want) {
			t.Errorf("args %q lack %q", c.Args, want)
		}
	}
	env := map[string]string{}
	for _, e := range c.Env {
		if e.ValueFrom != nil && e.ValueFrom.FieldRef != nil {
			env[e.Name] = e.ValueFrom.FieldRef.FieldPath
		}
	}
	for name, path := range map[string]string{"POD_IP": "status.podIP", "POD_NAMESPACE": "metadata.namespace", "POD_INDEX": "metadata.labels['apps.kubernetes.io/pod-index']"} {
		if env[name] != path {
			t.Errorf("env %s from %q, want %q", name, env[name], path)
		}
	}
	if pod.HostNetwork {
		t.Error("hostNetwork: the nodes' address is the pod's own IP")
	}
	mounts := map[string]string{}
	for _, m := range c.VolumeMounts {
		mounts[m.Name] = m.MountPath
	}
	if mounts["state"] != r.simnodeCfg.StateDir || r.simnodeCfg.StateDir == "" {
		t.Errorf("state mounted at %q, simnode's stateDir %q", mounts["state"], r.simnodeCfg.StateDir)
	}
	if len(sts.Spec.VolumeClaimTemplates) != 1 || sts.Spec.VolumeClaimTemplates[0].Name != "state" {
		t.Errorf("volumeClaimTemplates %v, want one named state", sts.Spec.VolumeClaimTemplates)
	}
	if sc := pod.SecurityContext; sc == nil || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot || sc.FSGroup == nil {
		t.Errorf("pod security context %+v: want non-root with an fsGroup (the claim's owner)", sc)
	}
	if c.SecurityContext == nil || c.SecurityContext.ReadOnlyRootFilesystem == nil || !*c.SecurityContext.ReadOnlyRootFilesystem {
		t.Error("container: want a read-only root file system")
	}
	if pod.ServiceAccountName != r.sa.Name {
		t.Errorf("service account %q, the chart's is %q", pod.ServiceAccountName, r.sa.Name)
	}
}

// Issue 19: 3 replicas share 300 nodes, each owned exactly once, about
// 100 each, by the rule every replica applies (simnode/config.Owner).
func TestConfigShards300(t *testing.T) {
	r := render(t, values300())
	cfg := r.simnodeCfg
	all := cfg.NodeNames()
	if len(all) != 300 {
		t.Fatalf("%d nodes, want 300", len(all))
	}
	owners := map[string]int{}
	for i := range int(*r.sts.Spec.Replicas) {
		shard := *cfg
		shard.Shard = simconfig.Shard{Index: i, Count: int(*r.sts.Spec.Replicas)}
		owned := shard.OwnedNodeNames()
		if len(owned) < 70 || len(owned) > 130 {
			t.Errorf("replica %d owns %d nodes, want about 100", i, len(owned))
		}
		for _, n := range owned {
			owners[n]++
		}
	}
	for _, n := range all {
		if owners[n] != 1 {
			t.Errorf("node %s has %d owners", n, owners[n])
		}
	}
	if !cfg.CSRServingCerts || cfg.ClientCAFile == "" || cfg.Kubeconfig != "" {
		t.Errorf("csrServingCerts %v, clientCAFile %q, kubeconfig %q: want serving certificates from CSRs, the service account's CA, in-cluster credentials", cfg.CSRServingCerts, cfg.ClientCAFile, cfg.Kubeconfig)
	}
}

// The simnode pods never land on a simulated node: every pool's nodes carry
// wink.dev/simulated and the pods require its absence.
func TestNotOnSimulatedNodes(t *testing.T) {
	r := render(t, values300())
	for _, p := range r.simnodeCfg.Pools {
		if p.Labels["wink.dev/simulated"] != "true" {
			t.Errorf("pool %s labels %v lack wink.dev/simulated=true", p.Name, p.Labels)
		}
	}
	aff := r.sts.Spec.Template.Spec.Affinity
	ok := false
	if aff != nil && aff.NodeAffinity != nil && aff.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		for _, term := range aff.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
			for _, e := range term.MatchExpressions {
				ok = ok || (e.Key == "wink.dev/simulated" && e.Operator == corev1.NodeSelectorOpDoesNotExist)
			}
		}
	}
	if !ok {
		t.Errorf("affinity %+v: want wink.dev/simulated DoesNotExist", aff)
	}
}

// Issue 19: RBAC is the least the kubelet needs: simnode/config.APIRules (the
// harness's wink:simnode rules) for the service account, and reading the one StatefulSet.
func TestLeastRBAC(t *testing.T) {
	r := render(t, nil)
	if want := simconfig.APIRules(); !rulesEqual(r.clusterRole.Rules, want) {
		t.Errorf("ClusterRole rules differ from simnode's (simnode/config.APIRules, the harness's wink:simnode):\nchart   %v\nsimnode %v", r.clusterRole.Rules, want)
	}
	for _, rule := range append(slices.Clone(r.clusterRole.Rules), r.role.Rules...) {
		for _, f := range [][]string{rule.Verbs, rule.Resources, rule.APIGroups} {
			if slices.Contains(f, "*") {
				t.Errorf("rule %v has a wildcard", rule)
			}
		}
	}
	if len(r.role.Rules) != 1 || !slices.Equal(r.role.Rules[0].Verbs, []string{"get"}) || !slices.Equal(r.role.Rules[0].ResourceNames, []string{r.sts.Name}) {
		t.Errorf("Role rules %v: want get of the StatefulSet %s only", r.role.Rules, r.sts.Name)
	}
	for _, subjects := range [][]rbacv1.Subject{r.crb.Subjects, r.rb.Subjects} {
		if len(subjects) != 1 || subjects[0].Kind != rbacv1.ServiceAccountKind || subjects[0].Name != r.sa.Name || subjects[0].Namespace != namespace {
			t.Errorf("binding subjects %v: want the chart's service account only", subjects)
		}
	}
	if r.crb.RoleRef.Name != r.clusterRole.Name || r.rb.RoleRef.Name != r.role.Name {
		t.Errorf("bindings refer to %s and %s", r.crb.RoleRef.Name, r.rb.RoleRef.Name)
	}
}

// Without persistence the state is an emptyDir (lost with the pod).
func TestNoPersistence(t *testing.T) {
	r := render(t, map[string]any{"persistence": map[string]any{"enabled": false}})
	if len(r.sts.Spec.VolumeClaimTemplates) != 0 {
		t.Errorf("volumeClaimTemplates %v with persistence off", r.sts.Spec.VolumeClaimTemplates)
	}
	found := false
	for _, v := range r.sts.Spec.Template.Spec.Volumes {
		found = found || (v.Name == "state" && v.EmptyDir != nil)
	}
	if !found {
		t.Error("no emptyDir state volume with persistence off")
	}
	if n := len(r.sts.Spec.Template.Spec.InitContainers); n != 0 {
		t.Errorf("%d init containers with persistence off, want none", n)
	}
}

// With persistence the state volume's root is handed to simnode's user by
// an init container (root with CAP_CHOWN only) before simnode starts:
// host-path volumes ignore fsGroup. fixOwnership=false leaves it out.
func TestPersistenceOwner(t *testing.T) {
	r := render(t, nil)
	spec := r.sts.Spec.Template.Spec
	if len(spec.InitContainers) != 1 {
		t.Fatalf("%d init containers, want 1", len(spec.InitContainers))
	}
	init, main := spec.InitContainers[0], spec.Containers[0]
	owner := fmt.Sprintf("--own-state-dir=%d:%d", *spec.SecurityContext.RunAsUser, *spec.SecurityContext.RunAsGroup)
	if init.Image != main.Image || !slices.Contains(init.Args, owner) {
		t.Errorf("init container %s %v, want image %s and %s", init.Image, init.Args, main.Image, owner)
	}
	sc := init.SecurityContext
	if sc == nil || sc.RunAsUser == nil || *sc.RunAsUser != 0 || sc.Capabilities == nil ||
		!slices.Equal(sc.Capabilities.Add, []corev1.Capability{"CHOWN"}) || !slices.Equal(sc.Capabilities.Drop, []corev1.Capability{"ALL"}) {
		t.Errorf("init container securityContext %+v, want root with CAP_CHOWN only", sc)
	}
	mounts := map[string]string{}
	for _, m := range main.VolumeMounts {
		mounts[m.Name] = m.MountPath
	}
	for _, m := range init.VolumeMounts {
		if mounts[m.Name] != m.MountPath {
			t.Errorf("init container mounts %s at %s, simnode at %s", m.Name, m.MountPath, mounts[m.Name])
		}
	}
	r = render(t, map[string]any{"persistence": map[string]any{"fixOwnership": false}})
	if n := len(r.sts.Spec.Template.Spec.InitContainers); n != 0 {
		t.Errorf("%d init containers with fixOwnership false, want none", n)
	}
}

func rulesEqual(a, b []rbacv1.PolicyRule) bool {
	return slices.EqualFunc(a, b, func(x, y rbacv1.PolicyRule) bool {
		return slices.Equal(x.Verbs, y.Verbs) && slices.Equal(x.APIGroups, y.APIGroups) &&
			slices.Equal(x.Resources, y.Resources) && slices.Equal(x.ResourceNames, y.ResourceNames)
	})
}
