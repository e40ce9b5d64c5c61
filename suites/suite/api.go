package suite

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/e2e-framework/pkg/envconf"
)

// Client-side rate limit of the suites' clientsets: client-go's default (5
// QPS, burst 10) would make a feature's polls wait on the limiter rather
// than on the cluster (30 polls of 3 GETs took 17 s instead of 3 s).
const (
	clientQPS   = 50
	clientBurst = 100
)

// Clientset is a client-go clientset for the suite's cluster.
func Clientset(t *testing.T, cfg *envconf.Config) kubernetes.Interface {
	t.Helper()
	rc := rest.CopyConfig(cfg.Client().RESTConfig())
	rc.QPS, rc.Burst = clientQPS, clientBurst
	cs, err := kubernetes.NewForConfig(rc)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// Namespace creates a namespace for one feature, waits for its default
// ServiceAccount (pods are refused until the controller makes it), and
// deletes it when the test ends.
func Namespace(ctx context.Context, t *testing.T, cs kubernetes.Interface, prefix string) string {
	t.Helper()
	ns, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: prefix + "-"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cs.CoreV1().Namespaces().Delete(context.Background(), ns.Name, metav1.DeleteOptions{})
	})
	err = wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		_, err := cs.CoreV1().ServiceAccounts(ns.Name).Get(ctx, "default", metav1.GetOptions{})
		return err == nil, nil
	})
	if err != nil {
		t.Fatalf("namespace %s: no default ServiceAccount: %v", ns.Name, err)
	}
	return ns.Name
}

// WaitPod polls a pod until done says it is, and fails the test with the
// pod's last status after timeout.
func WaitPod(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns, name string, timeout time.Duration, what string, done func(*corev1.Pod) bool) *corev1.Pod {
	t.Helper()
	var pod *corev1.Pod
	err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		p, err := cs.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		pod = p
		return done(p), nil
	})
	if err != nil {
		if pod == nil {
			t.Fatalf("pod %s/%s: never found (%v)", ns, name, err)
		}
		t.Fatalf("pod %s/%s is not %s after %s: phase %s, reason %q, message %q, node %q%s", ns, name, what, timeout, pod.Status.Phase, pod.Status.Reason, pod.Status.Message, pod.Spec.NodeName, unscheduledHint(pod))
	}
	return pod
}

// Running is a WaitPod condition: phase Running and Ready.
func Running(p *corev1.Pod) bool {
	if p.Status.Phase != corev1.PodRunning {
		return false
	}
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// Failed is a WaitPod condition: phase Failed.
func Failed(p *corev1.Pod) bool { return p.Status.Phase == corev1.PodFailed }

// WaitEvent waits for an event about the object kind/ns/name whose reason is
// reason and whose message contains substr, and returns it.
func WaitEvent(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns, kind, name, reason, substr string, timeout time.Duration) corev1.Event {
	t.Helper()
	selector := fields.Set{"involvedObject.kind": kind, "involvedObject.name": name, "reason": reason}.AsSelector().String()
	var found *corev1.Event
	var seen []string
	err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		list, err := cs.CoreV1().Events(ns).List(ctx, metav1.ListOptions{FieldSelector: selector})
		if err != nil {
			return false, nil
		}
		seen = seen[:0]
		for i, e := range list.Items {
			seen = append(seen, e.Message)
			if strings.Contains(e.Message, substr) {
				found = &list.Items[i]
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		t.Fatalf("no %s event for %s %s/%s containing %q within %s; %s events seen: %q", reason, kind, ns, name, substr, timeout, reason, seen)
	}
	return *found
}

// ApplyFS creates every object of the multi-document YAML file name of fsys
// (an embedded fixtures directory such as fixtures.Docs, so that a prebuilt
// suite binary needs no checkout) in ns, typed objects of the client-go
// scheme, and returns them. Pods and workloads name the suite's target
// scheduler (UseScheduler).
func ApplyFS(ctx context.Context, t *testing.T, cs kubernetes.Interface, fsys fs.FS, name, ns string) []runtime.Object {
	t.Helper()
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		t.Fatal(err)
	}
	dec := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var objs []runtime.Object
	for {
		doc, err := dec.Read()
		if err != nil {
			break
		}
		if strings.TrimSpace(string(doc)) == "" {
			continue
		}
		obj, _, err := scheme.Codecs.UniversalDeserializer().Decode(doc, nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		UseScheduler(obj)
		if err := create(ctx, cs, ns, obj); err != nil {
			t.Fatalf("%s: creating %T: %v", name, obj, err)
		}
		objs = append(objs, obj)
	}
	return objs
}

// create creates the kinds the fixtures use.
func create(ctx context.Context, cs kubernetes.Interface, ns string, obj runtime.Object) error {
	var err error
	opts := metav1.CreateOptions{}
	switch o := obj.(type) {
	case *corev1.Service:
		_, err = cs.CoreV1().Services(ns).Create(ctx, o, opts)
	case *corev1.Pod:
		_, err = cs.CoreV1().Pods(ns).Create(ctx, o, opts)
	case *corev1.ConfigMap:
		_, err = cs.CoreV1().ConfigMaps(ns).Create(ctx, o, opts)
	case *appsv1.Deployment:
		_, err = cs.AppsV1().Deployments(ns).Create(ctx, o, opts)
	case *appsv1.DaemonSet:
		_, err = cs.AppsV1().DaemonSets(ns).Create(ctx, o, opts)
	case *nodev1.RuntimeClass:
		_, err = cs.NodeV1().RuntimeClasses().Create(ctx, o, opts)
	default:
		return fmt.Errorf("suite.ApplyFS cannot create %T yet: add it to create()", obj)
	}
	if apierrors.IsAlreadyExists(err) {
		return nil
	}
	return err
}

// Fail reports an unexpected value with what the spec row says.
func Fail(t *testing.T, row, what string, got, want any) {
	t.Helper()
	t.Errorf("[%s] %s: got %v, want %v", row, what, got, want)
}
