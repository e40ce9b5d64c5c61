// Package undertest names what `wink test` points the suites at besides the
// cluster: the scheduler under test (rows S1–S5, A17, N4, N5: --scheduler-name,
// $WINK_SCHEDULER_NAME) and the admission webhook under test (--webhook-config,
// $WINK_WEBHOOK_CONFIG). e2e-framework parses a suite binary's flags itself,
// so they reach the suites as environment variables. The package imports no
// test framework: the wink CLI validates its flags with it, the suites read
// the variables with it.
package undertest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"

	admissionregv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/kubernetes/scheme"

	"wink.dev/wink/harness"
)

// Environment variables of the suites.
const (
	// SchedulerEnv is the spec.schedulerName of every pod and workload the
	// scheduling suite creates. Unset: the API server's default,
	// default-scheduler.
	SchedulerEnv = "WINK_SCHEDULER_NAME"
	// WebhookConfigEnv is a YAML file of one MutatingWebhookConfiguration
	// and one ValidatingWebhookConfiguration (admissionregistration.k8s.io/v1)
	// of the webhook under test. Unset: wink's reference webhook.
	WebhookConfigEnv = "WINK_WEBHOOK_CONFIG"
)

// EmbeddedSchedulers are the scheduler names an embedded cluster answers to.
var EmbeddedSchedulers = harness.EmbeddedSchedulers

// IsEmbeddedScheduler says whether wink's embedded clusters run a scheduler
// of this name ("" is the default one).
func IsEmbeddedScheduler(name string) bool {
	return name == "" || slices.Contains(EmbeddedSchedulers, name)
}

// CheckSchedulerName checks a scheduler name the way the API server checks
// spec.schedulerName: a DNS-1123 subdomain.
func CheckSchedulerName(name string) error {
	if errs := validation.IsDNS1123Subdomain(name); len(errs) > 0 {
		return fmt.Errorf("%q is not a valid spec.schedulerName: %s", name, strings.Join(errs, "; "))
	}
	return nil
}

// SchedulerName is $WINK_SCHEDULER_NAME ("" when unset).
func SchedulerName() string { return strings.TrimSpace(os.Getenv(SchedulerEnv)) }

// WebhookConfigs are the configurations of the webhook under test.
type WebhookConfigs struct {
	Mutating   *admissionregv1.MutatingWebhookConfiguration
	Validating *admissionregv1.ValidatingWebhookConfiguration
}

// webhookFix is what every error of LoadWebhookConfig ends with.
const webhookFix = "want one MutatingWebhookConfiguration and one ValidatingWebhookConfiguration (admissionregistration.k8s.io/v1) in one YAML file, separated by ---; see suites/webhooks/README.md"

// LoadWebhookConfig reads a webhook configuration file. Its errors name the
// file and say what the file must hold.
func LoadWebhookConfig(path string) (*WebhookConfigs, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is said once
		}
		return nil, fmt.Errorf("webhook configuration %s: %w; give the path of a YAML file that holds the webhook under test's configurations", path, err)
	}
	c, err := ParseWebhookConfig(data)
	if err != nil {
		return nil, fmt.Errorf("webhook configuration %s: %w", path, err)
	}
	return c, nil
}

// ParseWebhookConfig parses the YAML documents of a webhook configuration
// file.
func ParseWebhookConfig(data []byte) (*WebhookConfigs, error) {
	var c WebhookConfigs
	dec := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for n := 1; ; n++ {
		doc, err := dec.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", n, err)
		}
		if strings.TrimSpace(stripComments(doc)) == "" {
			continue
		}
		obj, gvk, err := scheme.Codecs.UniversalDeserializer().Decode(doc, nil, nil)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w; %s", n, err, webhookFix)
		}
		switch o := obj.(type) {
		case *admissionregv1.MutatingWebhookConfiguration:
			if c.Mutating != nil {
				return nil, fmt.Errorf("document %d: a second MutatingWebhookConfiguration (%s after %s); %s", n, o.Name, c.Mutating.Name, webhookFix)
			}
			c.Mutating = o
		case *admissionregv1.ValidatingWebhookConfiguration:
			if c.Validating != nil {
				return nil, fmt.Errorf("document %d: a second ValidatingWebhookConfiguration (%s after %s); %s", n, o.Name, c.Validating.Name, webhookFix)
			}
			c.Validating = o
		default:
			return nil, fmt.Errorf("document %d is a %s %s, not a webhook configuration; %s", n, gvk.GroupVersion(), gvk.Kind, webhookFix)
		}
	}
	switch {
	case c.Mutating == nil && c.Validating == nil:
		return nil, fmt.Errorf("no webhook configuration; %s", webhookFix)
	case c.Mutating == nil:
		return nil, fmt.Errorf("no MutatingWebhookConfiguration; %s", webhookFix)
	case c.Validating == nil:
		return nil, fmt.Errorf("no ValidatingWebhookConfiguration; %s", webhookFix)
	}
	return &c, nil
}

// stripComments drops YAML comment lines, so that a document of comments
// only counts as empty.
func stripComments(doc []byte) string {
	var b strings.Builder
	for line := range strings.SplitSeq(string(doc), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	return b.String()
}
