package validation

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/e2e-framework/pkg/envconf"
	"sigs.k8s.io/e2e-framework/pkg/features"

	"wink.dev/wink/suites/suite"
)

const area = "validation"

// image is the container image of every pod here: nanoserver of the 2022
// build, which the pods' build selector matches (rows S3, B4).
const image = "mcr.microsoft.com/windows/nanoserver:ltsc2022"

// winPod is a Windows pod as the docs write it (spec.os, the OS and build
// selectors, the os=windows toleration) with one container "c", the name the
// catalog's Pod Security messages use (rows A18, A19).
func winPod(name string) *corev1.Pod {
	p := suite.WindowsPod(name, suite.Build2022, "cmd", "/c", "ping -t localhost")
	p.Spec.Containers[0].Name = "c"
	return p
}

// withInit adds an init container "init" to a pod.
func withInit(p *corev1.Pod) *corev1.Pod {
	p.Spec.InitContainers = append(p.Spec.InitContainers, corev1.Container{
		Name: "init", Image: p.Spec.Containers[0].Image, Command: []string{"cmd", "/c", "exit 0"},
	})
	return p
}

// linuxPod is a pod with spec.os.name=linux and one container "c".
func linuxPod(name string) *corev1.Pod {
	p := suite.LinuxPod(name, "sh", "-c", "sleep 3600")
	p.Spec.Containers[0].Name = "c"
	return p
}

// deploymentOf wraps a pod's spec in a Deployment of the same name: its
// errors carry the template's path, spec.template.spec.
func deploymentOf(p *corev1.Pod) *appsv1.Deployment {
	labels := map[string]string{"app": p.Name}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: p.Name, Labels: labels},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](1),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels}, Spec: p.Spec},
		},
	}
}

// invalid is the apiserver's message for a validation failure:
// `<Kind> "<name>" is invalid: <err>`, several errors joined as `[e1, e2]`
// (k8s.io/apimachinery@v0.35.4 pkg/api/errors/errors.go:309 NewInvalid,
// pkg/util/errors/errors.go aggregate.Error).
func invalid(kind, name string, errs ...string) string {
	msg := errs[0]
	if len(errs) > 1 {
		msg = "[" + strings.Join(errs, ", ") + "]"
	}
	return fmt.Sprintf("%s %q is invalid: %s", kind, name, msg)
}

// podInvalid and deploymentInvalid are invalid for pods and Deployments.
func podInvalid(name string, errs ...string) string { return invalid("Pod", name, errs...) }
func deploymentInvalid(name string, errs ...string) string {
	return invalid("Deployment.apps", name, errs...)
}

// podForbidden is an admission plugin's refusal: `pods "<name>" is
// forbidden: <err>` (k8s.io/apiserver@v0.35.4 pkg/admission/errors.go
// NewForbidden).
func podForbidden(name, err string) string {
	return fmt.Sprintf("pods %q is forbidden: %s", name, err)
}

// expectError checks that err is the API error want, exactly, and records
// the apiserver's Status as evidence.
func expectError(t *testing.T, row, what string, err error, want string) {
	t.Helper()
	if err == nil {
		t.Errorf("[%s] %s was accepted, want the error\n%s", row, what, elide(want))
		return
	}
	var st apierrors.APIStatus
	if errors.As(err, &st) {
		s := st.Status()
		suite.Evidence(t, suite.EvidenceObject, fmt.Sprintf("[%s] %s refused: %d %s", row, what, s.Code, s.Reason), elide(s.Message))
	} else {
		suite.Evidence(t, suite.EvidenceObject, fmt.Sprintf("[%s] %s refused", row, what), elide(err.Error()))
	}
	if got := err.Error(); got != want {
		t.Errorf("[%s] %s: the apiserver says\n  %s\nwant\n  %s", row, what, elide(got), elide(want))
	}
}

// expectAccepted checks that an object was created (or would be, dry-run).
func expectAccepted(t *testing.T, row, what string, obj any, err error) {
	t.Helper()
	if err != nil {
		t.Errorf("[%s] %s: refused, want it accepted: %v", row, what, err)
		return
	}
	suite.ObjectEvidence(t, fmt.Sprintf("[%s] %s accepted", row, what), obj)
}

// elide shortens the 64 KiB messages of the GMSA size check (row A11) for
// logs and reports.
func elide(s string) string {
	const max = 2000
	if len(s) <= max {
		return s
	}
	return fmt.Sprintf("%s…(%d bytes elided)…%s", s[:max/2], len(s)-max, s[len(s)-max/2:])
}

var dryRun = metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}

// createPod creates p in ns; dry sends it with dryRun=All (admission and
// validation run, nothing is stored).
func createPod(ctx context.Context, cs kubernetes.Interface, ns string, p *corev1.Pod, dry bool) (*corev1.Pod, error) {
	opts := metav1.CreateOptions{}
	if dry {
		opts = dryRun
	}
	return cs.CoreV1().Pods(ns).Create(ctx, p, opts)
}

// nsKey holds the feature's namespace in the context.
type nsKey struct{}

// inNamespace is a setup step: a namespace for the feature, labelled with
// labels (Pod Security levels, rows A18, A19), deleted when it ends.
func inNamespace(prefix string, labels map[string]string) features.Func {
	return func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
		cs := suite.Clientset(t, cfg)
		var ns string
		if labels == nil {
			ns = suite.Namespace(ctx, t, cs, prefix)
		} else {
			ns = labelledNamespace(ctx, t, cs, prefix, labels)
		}
		return context.WithValue(ctx, nsKey{}, ns)
	}
}

func namespaceOf(ctx context.Context) string { return ctx.Value(nsKey{}).(string) }

// labelledNamespace is suite.Namespace with labels set at creation: Pod
// Security admission reads them from its namespace cache, which a later
// label patch could reach after the first pod.
func labelledNamespace(ctx context.Context, t *testing.T, cs kubernetes.Interface, prefix string, labels map[string]string) string {
	t.Helper()
	ns, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: prefix + "-", Labels: labels}}, metav1.CreateOptions{})
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

// podCase is one table row: a pod built by base and changed by mutate, and
// the field errors the apiserver must answer (none: accepted).
type podCase struct {
	name   string
	mutate func(*corev1.Pod)
	errs   []string
	// deployment sends the pod's spec as a Deployment template instead.
	deployment bool
	// dry creates an accepted pod with dryRun=All.
	dry bool
}

// assessPods adds one assessment per case to b.
func assessPods(b *features.FeatureBuilder, row string, base func(string) *corev1.Pod, cases []podCase) *features.FeatureBuilder {
	for _, tc := range cases {
		title := tc.name
		if tc.deployment {
			title += " (Deployment template)"
		}
		b = b.Assess(title, func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := namespaceOf(ctx)
			p := base(tc.name)
			if tc.mutate != nil {
				tc.mutate(p)
			}
			if tc.deployment {
				d := deploymentOf(p)
				opts := metav1.CreateOptions{}
				if tc.dry || tc.errs != nil {
					opts = dryRun
				}
				got, err := cs.AppsV1().Deployments(ns).Create(ctx, d, opts)
				if tc.errs == nil {
					expectAccepted(t, row, "Deployment "+d.Name, got, err)
					return ctx
				}
				expectError(t, row, "Deployment "+d.Name, err, deploymentInvalid(d.Name, tc.errs...))
				return ctx
			}
			got, err := createPod(ctx, cs, ns, p, tc.dry)
			if tc.errs == nil {
				expectAccepted(t, row, "pod "+p.Name, got, err)
				return ctx
			}
			expectError(t, row, "pod "+p.Name, err, podInvalid(p.Name, tc.errs...))
			return ctx
		})
	}
	return b
}

// sc returns the pod's security context, made if missing.
func sc(p *corev1.Pod) *corev1.PodSecurityContext {
	if p.Spec.SecurityContext == nil {
		p.Spec.SecurityContext = &corev1.PodSecurityContext{}
	}
	return p.Spec.SecurityContext
}

// csc returns a container's security context, made if missing; init picks
// the init container.
func csc(p *corev1.Pod, init bool, i int) *corev1.SecurityContext {
	c := &p.Spec.Containers[i]
	if init {
		c = &p.Spec.InitContainers[i]
	}
	if c.SecurityContext == nil {
		c.SecurityContext = &corev1.SecurityContext{}
	}
	return c.SecurityContext
}

// winOpts returns the pod's windowsOptions, made if missing.
func winOpts(p *corev1.Pod) *corev1.WindowsSecurityContextOptions {
	if sc(p).WindowsOptions == nil {
		sc(p).WindowsOptions = &corev1.WindowsSecurityContextOptions{}
	}
	return sc(p).WindowsOptions
}

// cWinOpts returns a container's windowsOptions, made if missing.
func cWinOpts(p *corev1.Pod, init bool, i int) *corev1.WindowsSecurityContextOptions {
	s := csc(p, init, i)
	if s.WindowsOptions == nil {
		s.WindowsOptions = &corev1.WindowsSecurityContextOptions{}
	}
	return s.WindowsOptions
}
