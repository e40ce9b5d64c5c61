package webhooks

import (
	"context"
	"fmt"
	"testing"

	admissionregv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

// TestNamespaceExclusion: kube-system and namespaces labelled
// wink.dev/webhook=skip (WINK_WEBHOOK_SKIP_LABEL) are not sent to the webhook.
func TestNamespaceExclusion(t *testing.T) {
	f := suite.Feature("namespaces excluded from the webhook", area, "any", "S2").
		Assess("a namespace labelled skip is neither mutated nor validated", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := namespace(ctx, t, cs, "wh-skip", skipLabels())
			pod := windowsOnlyOS("not-mutated")
			created, err := cs.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{})
			if err != nil {
				t.Fatalf("creating %s: %v", pod.Name, err)
			}
			suite.ObjectEvidence(t, fmt.Sprintf("Windows pod in namespace %s (%s=%s) as admitted", ns, target.skipKey, target.skipValue), created.Spec)
			if hasWindowsSelector(created) || hasWindowsToleration(created) {
				suite.Fail(t, "S2", "Windows pod in a skipped namespace", created.Spec, "not mutated")
			}
			// Nor validated: a case the webhook refuses elsewhere is admitted.
			bad := windowsOnlyOS("not-validated")
			validationCases[0].mod(bad)
			if _, err := cs.CoreV1().Pods(ns).Create(ctx, bad, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}); err != nil {
				suite.Fail(t, "B11", "emptyDir Memory pod in a skipped namespace", err, "admitted (dry run)")
			}
			return ctx
		}).
		Assess("kube-system is not sent to the webhook", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			got, err := cs.CoreV1().Pods("kube-system").Create(ctx, windowsOnlyOS("wh-kube-system-probe"), metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
			if err != nil {
				t.Fatalf("dry-run pod in kube-system: %v", err)
			}
			if hasWindowsToleration(got) {
				suite.Fail(t, "S2", "dry-run Windows pod in kube-system", got.Spec.Tolerations, "not mutated")
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// TestConfigurationContract checks the webhook configurations under test
// against the suite's contract (README.md): pods CREATE, explicit
// failurePolicy, timeoutSeconds at most 10, sideEffects None, v1 reviews,
// and a namespaceSelector that leaves out kube-system and the skip label.
func TestConfigurationContract(t *testing.T) {
	f := suite.Feature("the webhook configurations follow the contract", area, "any", "S2").
		Assess("every webhook of both configurations", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			suite.ObjectEvidence(t, "MutatingWebhookConfiguration under test", target.mutating)
			suite.ObjectEvidence(t, "ValidatingWebhookConfiguration under test", target.validating)
			type hook struct {
				kind, name string
				rules      []admissionregv1.RuleWithOperations
				fp         *admissionregv1.FailurePolicyType
				timeout    *int32
				side       *admissionregv1.SideEffectClass
				versions   []string
				nsSel      *metav1.LabelSelector
			}
			var hooks []hook
			for _, w := range target.mutating.Webhooks {
				hooks = append(hooks, hook{"mutating", w.Name, w.Rules, w.FailurePolicy, w.TimeoutSeconds, w.SideEffects, w.AdmissionReviewVersions, w.NamespaceSelector})
			}
			for _, w := range target.validating.Webhooks {
				hooks = append(hooks, hook{"validating", w.Name, w.Rules, w.FailurePolicy, w.TimeoutSeconds, w.SideEffects, w.AdmissionReviewVersions, w.NamespaceSelector})
			}
			for _, h := range hooks {
				what := func(s string) string { return fmt.Sprintf("%s webhook %s: %s", h.kind, h.name, s) }
				if !coversPodCreate(h.rules) {
					suite.Fail(t, "S2", what("rules"), h.rules, "pods (core/v1) on CREATE")
				}
				if h.fp == nil {
					suite.Fail(t, "S2", what("failurePolicy"), "unset", "Fail or Ignore, explicitly")
				}
				if h.timeout == nil || *h.timeout > 10 {
					suite.Fail(t, "S2", what("timeoutSeconds"), h.timeout, "set, at most 10")
				}
				if h.side == nil || (*h.side != admissionregv1.SideEffectClassNone && *h.side != admissionregv1.SideEffectClassNoneOnDryRun) {
					suite.Fail(t, "S2", what("sideEffects"), h.side, "None or NoneOnDryRun (the suite dry-runs pods)")
				}
				if !contains(fmt.Sprint(h.versions), "v1") {
					suite.Fail(t, "S2", what("admissionReviewVersions"), h.versions, "v1 among them")
				}
				sel, err := metav1.LabelSelectorAsSelector(h.nsSel)
				if h.nsSel == nil || err != nil {
					suite.Fail(t, "S2", what("namespaceSelector"), h.nsSel, "a selector")
					continue
				}
				if sel.Matches(labels.Set{"kubernetes.io/metadata.name": "kube-system"}) {
					suite.Fail(t, "S2", what("namespaceSelector"), sel.String(), "one that leaves out kube-system")
				}
				if sel.Matches(labels.Set{"kubernetes.io/metadata.name": "x", target.skipKey: target.skipValue}) {
					suite.Fail(t, "S2", what("namespaceSelector"), sel.String(), fmt.Sprintf("one that leaves out namespaces labelled %s=%s", target.skipKey, target.skipValue))
				}
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

func coversPodCreate(rules []admissionregv1.RuleWithOperations) bool {
	in := func(list []string, v string) bool {
		for _, x := range list {
			if x == v || x == "*" {
				return true
			}
		}
		return false
	}
	for _, r := range rules {
		ops := make([]string, len(r.Operations))
		for i, o := range r.Operations {
			ops[i] = string(o)
		}
		if in(ops, string(admissionregv1.Create)) && in(r.APIGroups, "") && in(r.APIVersions, "v1") && in(r.Resources, "pods") {
			return true
		}
	}
	return false
}
