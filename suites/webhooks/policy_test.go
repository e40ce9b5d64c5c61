package webhooks

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	admissionregv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
	"wink.dev/wink/suites/webhooks/reference"
)

// scopeLabel scopes the throwaway webhooks of this file to one namespace.
const scopeLabel = "wink.dev/webhook-test"

// throwaway registers a reference webhook configuration for the namespace ns
// only (labelled scopeLabel=ns, and skipped by the webhook under test) and
// returns a function that changes its failure policy.
func throwaway(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns string, s *reference.Server, policy admissionregv1.FailurePolicyType, timeout int32) func(admissionregv1.FailurePolicyType) {
	t.Helper()
	opts := reference.ConfigOptions{
		Name: ns, URL: "https://" + s.Addr(), CABundle: s.CABundle(),
		FailurePolicy: policy, TimeoutSeconds: timeout,
	}
	// Only this namespace: it is labelled skip for the webhook under test,
	// so the throwaway webhook's selector is its scope label alone.
	configs := func() (*admissionregv1.MutatingWebhookConfiguration, *admissionregv1.ValidatingWebhookConfiguration) {
		m, v := reference.Configurations(opts)
		sel := &metav1.LabelSelector{MatchLabels: map[string]string{scopeLabel: ns}}
		m.Webhooks[0].NamespaceSelector, v.Webhooks[0].NamespaceSelector = sel, sel
		return m, v
	}
	m, v := configs()
	if err := reference.ApplyConfigurations(ctx, cs, m, v); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = reference.DeleteConfigurations(context.Background(), cs, m, v) })
	suite.ObjectEvidence(t, "the throwaway MutatingWebhookConfiguration", m)
	return func(p admissionregv1.FailurePolicyType) {
		t.Helper()
		opts.FailurePolicy = p
		m, v := configs()
		if err := reference.ApplyConfigurations(ctx, cs, m, v); err != nil {
			t.Fatal(err)
		}
	}
}

// createUntil creates a fresh Windows pod (spec.os only) until done says the
// outcome is the awaited one (the apiserver picks up webhook configurations
// through an informer, a moment after they change), and returns the last
// outcome.
func createUntil(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns, what string, done func(*corev1.Pod, error) bool) (*corev1.Pod, error, time.Duration) {
	t.Helper()
	var pod *corev1.Pod
	var err error
	var took time.Duration
	i := 0
	werr := wait.PollUntilContextTimeout(ctx, 500*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		i++
		start := time.Now()
		pod, err = cs.CoreV1().Pods(ns).Create(ctx, windowsOnlyOS(fmt.Sprintf("attempt-%d", i)), metav1.CreateOptions{})
		took = time.Since(start)
		return done(pod, err), nil
	})
	if werr != nil {
		t.Fatalf("pod creation in %s never %s; last: pod %v, error %v", ns, what, pod != nil, err)
	}
	return pod, err, took
}

func refused(substr string) func(*corev1.Pod, error) bool {
	return func(_ *corev1.Pod, err error) bool { return err != nil && strings.Contains(err.Error(), substr) }
}

func admitted(_ *corev1.Pod, err error) bool { return err == nil }

// TestFailurePolicy: a webhook that cannot be called refuses pods with
// failurePolicy Fail, and with Ignore lets them through un-mutated, so that
// a Windows pod lands on a Linux node (S2, A17).
func TestFailurePolicy(t *testing.T) {
	f := suite.Feature("failurePolicy when the webhook is down", area, "any", "S2", "A17").
		Assess("Fail refuses pod creation; Ignore admits the pod un-mutated", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := namespace(ctx, t, cs, "wh-failure", skipLabels())
			if err := labelNamespace(ctx, cs, ns, scopeLabel, ns); err != nil {
				t.Fatal(err)
			}
			listen, err := localListen()
			if err != nil {
				t.Fatal(err)
			}
			s, err := reference.Start(ctx, reference.Options{Listen: listen})
			if err != nil {
				t.Fatal(err)
			}
			s.Close() // stopped: its port refuses connections
			setPolicy := throwaway(ctx, t, cs, ns, s, admissionregv1.Fail, 5)

			_, err, _ = createUntil(ctx, t, cs, ns, "refused", refused("failed calling webhook"))
			msg := err.Error()
			suite.Evidence(t, suite.EvidenceObject, "failurePolicy Fail, webhook stopped: pod refused", msg)
			want := fmt.Sprintf(`Internal error occurred: failed calling webhook %q: failed to call webhook: Post "%s/mutate?timeout=5s"`, ns+".mutate.wink.dev", "https://"+s.Addr())
			if !strings.Contains(msg, want) {
				suite.Fail(t, "S2", "refusal with failurePolicy Fail", msg, fmt.Sprintf("a message containing %q", want))
			}

			setPolicy(admissionregv1.Ignore)
			pod, _, _ := createUntil(ctx, t, cs, ns, "admitted", admitted)
			suite.ObjectEvidence(t, "failurePolicy Ignore, webhook stopped: pod admitted as sent", pod.Spec)
			if hasWindowsToleration(pod) || hasWindowsSelector(pod) {
				suite.Fail(t, "S2", "pod admitted with Ignore", pod.Spec, "no nodeSelector, no os=windows toleration")
			}
			// Un-mutated, the Windows pod is placed as if it had no OS: the
			// scheduler ignores spec.os (A17) and, the Windows nodes being
			// tainted, binds it to a Linux node, whose kubelet rejects it
			// (PodOSNotSupported, B1).
			got := suite.WaitPod(ctx, t, cs, ns, pod.Name, time.Minute, "Failed", suite.Failed)
			suite.ObjectEvidence(t, "the un-mutated Windows pod's status", got.Status)
			if os := nodeOS(ctx, t, cs, got); os == "windows" || got.Status.Reason != "PodOSNotSupported" {
				suite.Fail(t, "A17", "un-mutated Windows pod", fmt.Sprintf("node OS %s, reason %s", os, got.Status.Reason), "bound to a Linux node and rejected with PodOSNotSupported")
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// TestTimeouts: a webhook slower than its timeoutSeconds refuses pods with
// Fail and is skipped with Ignore.
func TestTimeouts(t *testing.T) {
	f := suite.Feature("timeoutSeconds of a slow webhook", area, "any", "S2").
		Assess("a webhook answering after 3s with timeoutSeconds 1", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := namespace(ctx, t, cs, "wh-timeout", skipLabels())
			if err := labelNamespace(ctx, cs, ns, scopeLabel, ns); err != nil {
				t.Fatal(err)
			}
			listen, err := localListen()
			if err != nil {
				t.Fatal(err)
			}
			s, err := reference.Start(ctx, reference.Options{Listen: listen, Delay: 3 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			setPolicy := throwaway(ctx, t, cs, ns, s, admissionregv1.Fail, 1)

			_, err, took := createUntil(ctx, t, cs, ns, "refused", refused("failed calling webhook"))
			msg := err.Error()
			suite.Evidence(t, suite.EvidenceObject, fmt.Sprintf("failurePolicy Fail, webhook slower than timeoutSeconds: refused after %s", took.Round(100*time.Millisecond)), msg)
			for _, want := range []string{
				fmt.Sprintf(`failed calling webhook %q: failed to call webhook: Post "https://%s/mutate?timeout=1s"`, ns+".mutate.wink.dev", s.Addr()),
				"context deadline exceeded",
			} {
				if !strings.Contains(msg, want) {
					suite.Fail(t, "S2", "refusal of a slow webhook with Fail", msg, fmt.Sprintf("a message containing %q", want))
				}
			}
			if took > 2900*time.Millisecond {
				suite.Fail(t, "S2", "time until the refusal", took, "about timeoutSeconds (1s), not the webhook's 3s")
			}

			setPolicy(admissionregv1.Ignore)
			pod, _, took := createUntil(ctx, t, cs, ns, "admitted", admitted)
			suite.Evidence(t, suite.EvidenceObject, fmt.Sprintf("failurePolicy Ignore, slow webhook: admitted after %s", took.Round(100*time.Millisecond)), pod.Name)
			if hasWindowsToleration(pod) {
				suite.Fail(t, "S2", "pod admitted past a timed-out webhook", pod.Spec.Tolerations, "not mutated")
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

func labelNamespace(ctx context.Context, cs kubernetes.Interface, ns, key, value string) error {
	patch := fmt.Sprintf(`{"metadata":{"labels":{%q:%q}}}`, key, value)
	_, err := cs.CoreV1().Namespaces().Patch(ctx, ns, "application/merge-patch+json", []byte(patch), metav1.PatchOptions{})
	return err
}
