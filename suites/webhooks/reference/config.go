package reference

import (
	"context"
	"fmt"
	"strings"

	admissionregv1 "k8s.io/api/admissionregistration/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"
)

// Defaults of the webhook configurations.
const (
	DefaultName           = "wink-windows-pods"
	DefaultTimeoutSeconds = 5
	// SkipLabel=SkipValue on a namespace keeps both webhooks out of it.
	SkipLabel = "wink.dev/webhook"
	SkipValue = "skip"
)

// ConfigOptions describe the Mutating- and ValidatingWebhookConfiguration
// that register the reference webhook.
type ConfigOptions struct {
	// Name of both configurations (default wink-windows-pods); the webhooks
	// are <Name>.mutate.wink.dev and <Name>.validate.wink.dev.
	Name string
	// URL is the server's base URL (https://127.0.0.1:PORT) for a webhook
	// registered by URL; Service is used instead when set.
	URL     string
	Service *admissionregv1.ServiceReference
	// CABundle is the PEM CA of the serving certificate (may be empty when
	// the server injects it, see Options.InjectCABundle).
	CABundle []byte
	// FailurePolicy is Fail (default) or Ignore.
	FailurePolicy admissionregv1.FailurePolicyType
	// TimeoutSeconds is the apiserver's deadline per call (default 5).
	TimeoutSeconds int32
	// ExcludeNamespaces are never sent to the webhook (default kube-system).
	ExcludeNamespaces []string
	// MatchNamespaceLabels, when set, restricts the webhooks to namespaces
	// carrying these labels (the suite scopes its throwaway webhooks so).
	MatchNamespaceLabels map[string]string
}

func (o ConfigOptions) withDefaults() ConfigOptions {
	if o.Name == "" {
		o.Name = DefaultName
	}
	if o.FailurePolicy == "" {
		o.FailurePolicy = admissionregv1.Fail
	}
	if o.TimeoutSeconds == 0 {
		o.TimeoutSeconds = DefaultTimeoutSeconds
	}
	if o.ExcludeNamespaces == nil {
		o.ExcludeNamespaces = []string{"kube-system"}
	}
	return o
}

// MutatingName and ValidatingName are the webhooks' names as the apiserver
// shows them (`admission webhook "<name>" denied the request: ...`).
func (o ConfigOptions) MutatingName() string   { return o.withDefaults().Name + ".mutate.wink.dev" }
func (o ConfigOptions) ValidatingName() string { return o.withDefaults().Name + ".validate.wink.dev" }

// NamespaceSelector excludes ExcludeNamespaces and namespaces labelled
// wink.dev/webhook=skip.
func (o ConfigOptions) NamespaceSelector() *metav1.LabelSelector {
	o = o.withDefaults()
	sel := &metav1.LabelSelector{MatchLabels: o.MatchNamespaceLabels}
	if len(o.ExcludeNamespaces) > 0 {
		sel.MatchExpressions = append(sel.MatchExpressions, metav1.LabelSelectorRequirement{
			Key: "kubernetes.io/metadata.name", Operator: metav1.LabelSelectorOpNotIn, Values: o.ExcludeNamespaces,
		})
	}
	sel.MatchExpressions = append(sel.MatchExpressions, metav1.LabelSelectorRequirement{
		Key: SkipLabel, Operator: metav1.LabelSelectorOpNotIn, Values: []string{SkipValue},
	})
	return sel
}

func (o ConfigOptions) clientConfig(path string) admissionregv1.WebhookClientConfig {
	cc := admissionregv1.WebhookClientConfig{CABundle: o.CABundle}
	if o.Service != nil {
		svc := *o.Service
		svc.Path = ptr.To(path)
		cc.Service = &svc
	} else {
		cc.URL = ptr.To(strings.TrimSuffix(o.URL, "/") + path)
	}
	return cc
}

var podRules = []admissionregv1.RuleWithOperations{{
	Operations: []admissionregv1.OperationType{admissionregv1.Create},
	Rule: admissionregv1.Rule{
		APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"pods"},
		Scope: ptr.To(admissionregv1.NamespacedScope),
	},
}}

// Configurations returns the two configurations: pods on CREATE, sideEffects
// None, admissionReviewVersions v1, matchPolicy Equivalent; the mutating
// webhook is reinvoked IfNeeded (it is idempotent).
func Configurations(o ConfigOptions) (*admissionregv1.MutatingWebhookConfiguration, *admissionregv1.ValidatingWebhookConfiguration) {
	return configurations(o, MutatePath, ValidatePath)
}

// GMSAConfigurations register the same server's GMSA webhook (row A20, see
// GMSA) on /gmsa/mutate and /gmsa/validate; Name defaults to wink-gmsa.
func GMSAConfigurations(o ConfigOptions) (*admissionregv1.MutatingWebhookConfiguration, *admissionregv1.ValidatingWebhookConfiguration) {
	if o.Name == "" {
		o.Name = "wink-gmsa"
	}
	return configurations(o, GMSAMutatePath, GMSAValidatePath)
}

func configurations(o ConfigOptions, mutatePath, validatePath string) (*admissionregv1.MutatingWebhookConfiguration, *admissionregv1.ValidatingWebhookConfiguration) {
	o = o.withDefaults()
	meta := metav1.ObjectMeta{Name: o.Name, Labels: map[string]string{"app.kubernetes.io/name": "wink-reference-webhook"}}
	none := admissionregv1.SideEffectClassNone
	m := &admissionregv1.MutatingWebhookConfiguration{
		TypeMeta:   metav1.TypeMeta{APIVersion: "admissionregistration.k8s.io/v1", Kind: "MutatingWebhookConfiguration"},
		ObjectMeta: meta,
		Webhooks: []admissionregv1.MutatingWebhook{{
			Name:                    o.MutatingName(),
			ClientConfig:            o.clientConfig(mutatePath),
			Rules:                   podRules,
			FailurePolicy:           ptr.To(o.FailurePolicy),
			MatchPolicy:             ptr.To(admissionregv1.Equivalent),
			NamespaceSelector:       o.NamespaceSelector(),
			SideEffects:             &none,
			TimeoutSeconds:          ptr.To(o.TimeoutSeconds),
			AdmissionReviewVersions: []string{"v1"},
			ReinvocationPolicy:      ptr.To(admissionregv1.IfNeededReinvocationPolicy),
		}},
	}
	v := &admissionregv1.ValidatingWebhookConfiguration{
		TypeMeta:   metav1.TypeMeta{APIVersion: "admissionregistration.k8s.io/v1", Kind: "ValidatingWebhookConfiguration"},
		ObjectMeta: *meta.DeepCopy(),
		Webhooks: []admissionregv1.ValidatingWebhook{{
			Name:                    o.ValidatingName(),
			ClientConfig:            o.clientConfig(validatePath),
			Rules:                   podRules,
			FailurePolicy:           ptr.To(o.FailurePolicy),
			MatchPolicy:             ptr.To(admissionregv1.Equivalent),
			NamespaceSelector:       o.NamespaceSelector(),
			SideEffects:             &none,
			TimeoutSeconds:          ptr.To(o.TimeoutSeconds),
			AdmissionReviewVersions: []string{"v1"},
		}},
	}
	return m, v
}

// Register creates (or replaces) both configurations and returns a function
// that deletes them.
func Register(ctx context.Context, cs kubernetes.Interface, o ConfigOptions) (unregister func(context.Context) error, err error) {
	m, v := Configurations(o)
	if err := ApplyConfigurations(ctx, cs, m, v); err != nil {
		return nil, err
	}
	return func(ctx context.Context) error { return DeleteConfigurations(ctx, cs, m, v) }, nil
}

// ApplyConfigurations creates or replaces webhook configurations (either may
// be nil).
func ApplyConfigurations(ctx context.Context, cs kubernetes.Interface, m *admissionregv1.MutatingWebhookConfiguration, v *admissionregv1.ValidatingWebhookConfiguration) error {
	ar := cs.AdmissionregistrationV1()
	if m != nil {
		_, err := ar.MutatingWebhookConfigurations().Create(ctx, m, metav1.CreateOptions{})
		if apierrors.IsAlreadyExists(err) {
			var old *admissionregv1.MutatingWebhookConfiguration
			if old, err = ar.MutatingWebhookConfigurations().Get(ctx, m.Name, metav1.GetOptions{}); err == nil {
				m = m.DeepCopy()
				m.ResourceVersion = old.ResourceVersion
				_, err = ar.MutatingWebhookConfigurations().Update(ctx, m, metav1.UpdateOptions{})
			}
		}
		if err != nil {
			return fmt.Errorf("MutatingWebhookConfiguration %s: %w", m.Name, err)
		}
	}
	if v != nil {
		_, err := ar.ValidatingWebhookConfigurations().Create(ctx, v, metav1.CreateOptions{})
		if apierrors.IsAlreadyExists(err) {
			var old *admissionregv1.ValidatingWebhookConfiguration
			if old, err = ar.ValidatingWebhookConfigurations().Get(ctx, v.Name, metav1.GetOptions{}); err == nil {
				v = v.DeepCopy()
				v.ResourceVersion = old.ResourceVersion
				_, err = ar.ValidatingWebhookConfigurations().Update(ctx, v, metav1.UpdateOptions{})
			}
		}
		if err != nil {
			return fmt.Errorf("ValidatingWebhookConfiguration %s: %w", v.Name, err)
		}
	}
	return nil
}

// DeleteConfigurations deletes webhook configurations (either may be nil);
// missing ones are not an error.
func DeleteConfigurations(ctx context.Context, cs kubernetes.Interface, m *admissionregv1.MutatingWebhookConfiguration, v *admissionregv1.ValidatingWebhookConfiguration) error {
	ar := cs.AdmissionregistrationV1()
	var errs []string
	if m != nil {
		if err := ar.MutatingWebhookConfigurations().Delete(ctx, m.Name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			errs = append(errs, err.Error())
		}
	}
	if v != nil {
		if err := ar.ValidatingWebhookConfigurations().Delete(ctx, v.Name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			errs = append(errs, err.Error())
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("deleting webhook configurations: %s", strings.Join(errs, "; "))
	}
	return nil
}

// InjectCABundle sets caBundle on every webhook of the Mutating- and
// ValidatingWebhookConfiguration called name (those that exist).
func InjectCABundle(ctx context.Context, cs kubernetes.Interface, name string, ca []byte) error {
	ar := cs.AdmissionregistrationV1()
	found := false
	if m, err := ar.MutatingWebhookConfigurations().Get(ctx, name, metav1.GetOptions{}); err == nil {
		found = true
		for i := range m.Webhooks {
			m.Webhooks[i].ClientConfig.CABundle = ca
		}
		if _, err := ar.MutatingWebhookConfigurations().Update(ctx, m, metav1.UpdateOptions{}); err != nil {
			return fmt.Errorf("injecting the CA into MutatingWebhookConfiguration %s: %w", name, err)
		}
	} else if !apierrors.IsNotFound(err) {
		return err
	}
	if v, err := ar.ValidatingWebhookConfigurations().Get(ctx, name, metav1.GetOptions{}); err == nil {
		found = true
		for i := range v.Webhooks {
			v.Webhooks[i].ClientConfig.CABundle = ca
		}
		if _, err := ar.ValidatingWebhookConfigurations().Update(ctx, v, metav1.UpdateOptions{}); err != nil {
			return fmt.Errorf("injecting the CA into ValidatingWebhookConfiguration %s: %w", name, err)
		}
	} else if !apierrors.IsNotFound(err) {
		return err
	}
	if !found {
		return fmt.Errorf("no Mutating- or ValidatingWebhookConfiguration named %s to inject the CA into", name)
	}
	return nil
}

// MutatingNameOrDefault is the configurations' name (Name or DefaultName).
func (o ConfigOptions) MutatingNameOrDefault() string { return o.withDefaults().Name }
