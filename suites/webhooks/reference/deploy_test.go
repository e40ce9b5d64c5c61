package reference

import (
	"bufio"
	"bytes"

	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	admissionregv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	kjson "k8s.io/apimachinery/pkg/runtime/serializer/json"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/utils/ptr"
	sigsyaml "sigs.k8s.io/yaml"

	"wink.dev/wink/suites/webhooks/reference/deploy"
)

// deployObjects decodes deploy/webhook.yaml strictly (unknown or duplicate
// fields fail) into client-go types.
func deployObjects(t *testing.T) []runtime.Object {
	t.Helper()
	strict := kjson.NewSerializerWithOptions(kjson.DefaultMetaFactory, scheme.Scheme, scheme.Scheme, kjson.SerializerOptions{Yaml: true, Strict: true})
	dec := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(deploy.Manifest)))
	var objs []runtime.Object
	for {
		doc, err := dec.Read()
		if err != nil {
			break
		}
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		obj, _, err := strict.Decode(doc, nil, nil)
		if err != nil {
			t.Fatalf("webhook.yaml: %v\n%s", err, doc)
		}
		objs = append(objs, obj)
	}
	return objs
}

func TestDeployManifest(t *testing.T) {
	var (
		ns   *corev1.Namespace
		dep  *appsv1.Deployment
		svc  *corev1.Service
		role *rbacv1.ClusterRole
		bind *rbacv1.ClusterRoleBinding
		sa   *corev1.ServiceAccount
		m    *admissionregv1.MutatingWebhookConfiguration
		v    *admissionregv1.ValidatingWebhookConfiguration
	)
	for _, o := range deployObjects(t) {
		switch o := o.(type) {
		case *corev1.Namespace:
			ns = o
		case *appsv1.Deployment:
			dep = o
		case *corev1.Service:
			svc = o
		case *rbacv1.ClusterRole:
			role = o
		case *rbacv1.ClusterRoleBinding:
			bind = o
		case *corev1.ServiceAccount:
			sa = o
		case *admissionregv1.MutatingWebhookConfiguration:
			m = o
		case *admissionregv1.ValidatingWebhookConfiguration:
			v = o
		default:
			t.Errorf("unexpected %T", o)
		}
	}
	if ns == nil || dep == nil || svc == nil || role == nil || bind == nil || sa == nil || m == nil || v == nil {
		t.Fatal("webhook.yaml lacks one of Namespace, ServiceAccount, ClusterRole(Binding), Deployment, Service, the two configurations")
	}

	// The configurations are what reference.Configurations renders for the Service.
	wantM, wantV := Configurations(ConfigOptions{Service: &admissionregv1.ServiceReference{Namespace: svc.Namespace, Name: svc.Name, Port: ptr.To(svc.Spec.Ports[0].Port)}})
	for _, pair := range [][2]any{{m, wantM}, {v, wantV}} {
		got, _ := sigsyaml.Marshal(pair[0])
		want, _ := sigsyaml.Marshal(pair[1])
		if !bytes.Equal(got, want) {
			t.Errorf("webhook.yaml's configuration differs from reference.Configurations:\n--- webhook.yaml\n%s\n--- rendered\n%s", got, want)
		}
	}

	// The webhook's own namespace is skipped, so it never blocks itself.
	sel, _ := metav1.LabelSelectorAsSelector(m.Webhooks[0].NamespaceSelector)
	if sel.Matches(labels.Set(ns.Labels)) {
		t.Errorf("namespace %s (labels %v) is selected by the webhook", ns.Name, ns.Labels)
	}

	// Deployment: one replica, Recreate, args naming the configurations and
	// the Service's DNS names, a container port the Service targets.
	if dep.Spec.Replicas == nil || *dep.Spec.Replicas != 1 || dep.Spec.Strategy.Type != appsv1.RecreateDeploymentStrategyType {
		t.Errorf("Deployment: replicas %v strategy %s, want 1 and Recreate (each pod injects its own CA)", dep.Spec.Replicas, dep.Spec.Strategy.Type)
	}
	c := dep.Spec.Template.Spec.Containers[0]
	args := strings.Join(c.Args, " ")
	for _, want := range []string{
		"webhook serve", "--inject-ca-bundle=" + m.Name, "--cert-dir=/certs",
		"--host=" + svc.Name + "." + svc.Namespace + ".svc",
	} {
		if !strings.Contains(args, want) {
			t.Errorf("Deployment args %q lack %q", args, want)
		}
	}
	if c.Ports[0].Name != svc.Spec.Ports[0].TargetPort.StrVal || !strings.Contains(args, "--listen=:8443") || c.Ports[0].ContainerPort != 8443 {
		t.Errorf("Service targetPort %v, container port %v, args %q: inconsistent", svc.Spec.Ports[0].TargetPort, c.Ports[0], args)
	}
	if !labels.SelectorFromSet(svc.Spec.Selector).Matches(labels.Set(dep.Spec.Template.Labels)) {
		t.Errorf("Service selector %v does not select the pods %v", svc.Spec.Selector, dep.Spec.Template.Labels)
	}
	if dep.Spec.Template.Spec.ServiceAccountName != sa.Name || bind.Subjects[0].Name != sa.Name || bind.RoleRef.Name != role.Name {
		t.Error("ServiceAccount, ClusterRoleBinding and ClusterRole do not line up")
	}
	// RBAC: get/update of exactly the configurations the webhook injects into.
	if !reflect.DeepEqual(role.Rules[0].ResourceNames, []string{m.Name}) {
		t.Errorf("ClusterRole resourceNames %v, want [%s]", role.Rules[0].ResourceNames, m.Name)
	}
}

// TestKindIntegration deploys webhook.yaml on a kind cluster. It needs
// Docker, kind and kubectl, and WINK_KIND_CLUSTER naming a kind cluster to
// use; without them it skips.
func TestKindIntegration(t *testing.T) {
	for _, tool := range []string{"docker", "kind", "kubectl"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s on PATH: the kind deployment needs Docker, kind and kubectl", tool)
		}
	}
	if err := exec.Command("docker", "info").Run(); err != nil {
		t.Skipf("Docker is not running (docker info: %v)", err)
	}
	cluster := os.Getenv("WINK_KIND_CLUSTER")
	if cluster == "" {
		t.Skip("WINK_KIND_CLUSTER is not set: name a kind cluster to deploy the reference webhook on")
	}
	root := "../../.."
	run := func(name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	kubeconfig := t.TempDir() + "/kubeconfig"
	os.WriteFile(kubeconfig, []byte(run("kind", "get", "kubeconfig", "--name", cluster)), 0o600)
	run("docker", "build", "-f", "suites/webhooks/reference/deploy/Dockerfile", "-t", "wink:dev", ".")
	run("kind", "load", "docker-image", "wink:dev", "--name", cluster)
	run("kubectl", "--kubeconfig", kubeconfig, "apply", "-f", "suites/webhooks/reference/deploy/webhook.yaml")
	t.Cleanup(func() {
		exec.Command("kubectl", "--kubeconfig", kubeconfig, "delete", "--ignore-not-found", "-f", root+"/suites/webhooks/reference/deploy/webhook.yaml").Run()
	})
	run("kubectl", "--kubeconfig", kubeconfig, "-n", "wink-webhook", "rollout", "status", "deployment/wink-webhook", "--timeout=3m")
	// A Windows pod saying only spec.os comes back from a server-side dry run
	// with the nodeSelector and the toleration.
	pod := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"probe","namespace":"default"},"spec":{"os":{"name":"windows"},"containers":[{"name":"c","image":"mcr.microsoft.com/windows/nanoserver:ltsc2022"}]}}`
	f := t.TempDir() + "/pod.json"
	os.WriteFile(f, []byte(pod), 0o600)
	out := run("kubectl", "--kubeconfig", kubeconfig, "create", "--dry-run=server", "-o", "json", "-f", f)
	if !strings.Contains(out, `"kubernetes.io/os": "windows"`) || !strings.Contains(out, `"key": "os"`) {
		t.Errorf("dry-run pod not mutated:\n%s", out)
	}
}
