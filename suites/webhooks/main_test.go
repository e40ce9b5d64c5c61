// Package webhooks checks admission webhooks for Windows pods against the
// real apiserver: wink's reference webhook (package reference), or a
// vendor's webhook named by WINK_WEBHOOK_CONFIG (`wink test --webhook-config`,
// see README.md). Rows S1, S2, S4, A17 (mutation), B11, H7, B4 (validation).
package webhooks

import (
	"context"
	"fmt"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	admissionregv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/e2e-framework/pkg/env"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/harness"
	"wink.dev/wink/suites/suite"
	"wink.dev/wink/suites/suite/undertest"
	"wink.dev/wink/suites/webhooks/reference"
)

// Environment variables of the suite (e2e-framework parses the test
// binary's flags itself, so the suite takes no flags of its own).
const (
	// ConfigEnv names a YAML file of one MutatingWebhookConfiguration and
	// one ValidatingWebhookConfiguration (admissionregistration.k8s.io/v1)
	// of the webhook under test (`wink test --webhook-config FILE` sets it);
	// the suite applies them before the features and deletes them after.
	// Unset: wink's reference webhook, in-process.
	ConfigEnv = undertest.WebhookConfigEnv
	// SkipLabelEnv is the namespace label (key=value) that the webhook under
	// test leaves alone; default wink.dev/webhook=skip.
	SkipLabelEnv = "WINK_WEBHOOK_SKIP_LABEL"
)

const area = "webhooks"

var (
	testenv env.Environment
	cluster *suite.Cluster
	target  = &webhookTarget{}
)

// webhookTarget is the webhook under test.
type webhookTarget struct {
	reference  bool
	mutating   *admissionregv1.MutatingWebhookConfiguration
	validating *admissionregv1.ValidatingWebhookConfiguration
	server     *reference.Server
	skipKey    string
	skipValue  string
}

// validatingNames are the names the apiserver can show in a denial.
func (w *webhookTarget) validatingNames() []string {
	var names []string
	if w.validating != nil {
		for _, wh := range w.validating.Webhooks {
			names = append(names, wh.Name)
		}
	}
	return names
}

func TestMain(m *testing.M) {
	testenv, cluster = suite.Setup(area, nil)
	testenv.Setup(setupWebhook)
	testenv.Finish(teardownWebhook)
	os.Exit(testenv.Run(m))
}

func setupWebhook(ctx context.Context, cfg *envconf.Config) (context.Context, error) {
	target.skipKey, target.skipValue = reference.SkipLabel, reference.SkipValue
	if s := os.Getenv(SkipLabelEnv); s != "" {
		k, v, ok := strings.Cut(s, "=")
		if !ok {
			return ctx, fmt.Errorf("%s=%q: want key=value", SkipLabelEnv, s)
		}
		target.skipKey, target.skipValue = k, v
	}
	cs, err := kubernetes.NewForConfig(cfg.Client().RESTConfig())
	if err != nil {
		return ctx, err
	}
	if path := os.Getenv(ConfigEnv); path != "" {
		c, err := undertest.LoadWebhookConfig(path)
		if err != nil {
			return ctx, fmt.Errorf("%s: %w", ConfigEnv, err)
		}
		target.mutating, target.validating = c.Mutating, c.Validating
		fmt.Fprintf(os.Stderr, "webhooks: testing the webhook configured in %s (%s)\n", path, ConfigEnv)
	} else {
		target.reference = true
		listen, err := localListen()
		if err != nil {
			return ctx, err
		}
		target.server, err = reference.Start(ctx, reference.Options{Listen: listen, Client: cs})
		if err != nil {
			return ctx, err
		}
		target.mutating, target.validating = reference.Configurations(reference.ConfigOptions{
			URL: "https://" + target.server.Addr(), CABundle: target.server.CABundle(),
		})
		fmt.Fprintf(os.Stderr, "webhooks: reference webhook on https://%s\n", target.server.Addr())
	}
	if err := reference.ApplyConfigurations(ctx, cs, target.mutating, target.validating); err != nil {
		return ctx, err
	}
	return ctx, waitEffective(ctx, cs)
}

func teardownWebhook(ctx context.Context, cfg *envconf.Config) (context.Context, error) {
	if target.server != nil {
		defer target.server.Close()
	}
	// suite.Setup's Finish ran first: a cluster it deleted has no
	// configurations left to delete.
	if cluster.Simulated && os.Getenv("WINK_KEEP") == "" {
		return ctx, nil
	}
	cs, err := kubernetes.NewForConfig(cfg.Client().RESTConfig())
	if err != nil {
		return ctx, err
	}
	return ctx, reference.DeleteConfigurations(ctx, cs, target.mutating, target.validating)
}

// waitEffective waits until the apiserver calls the mutating webhook: a
// dry-run Windows pod in default comes back with the os=windows toleration.
func waitEffective(ctx context.Context, cs kubernetes.Interface) error {
	pod := windowsOnlyOS("probe")
	var last error
	err := wait.PollUntilContextTimeout(ctx, 250*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		got, err := cs.CoreV1().Pods("default").Create(ctx, pod, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		if err != nil {
			last = err
			return false, nil
		}
		last = fmt.Errorf("dry-run pod not mutated: tolerations %v", got.Spec.Tolerations)
		return reference.Tolerates(got.Spec.Tolerations), nil
	})
	if err != nil {
		return fmt.Errorf("the webhook under test never mutated a Windows pod: %v", last)
	}
	return nil
}

// windowsOnlyOS is a Windows pod saying only spec.os.name: windows (no
// nodeSelector, no toleration). Its image has 2019 and 2022 variants, so it
// runs on any Windows node of the default cluster.
func windowsOnlyOS(name string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: corev1.PodSpec{
			OS: &corev1.PodOS{Name: corev1.Windows},
			Containers: []corev1.Container{{
				Name: "main", Image: "registry.k8s.io/e2e-test-images/busybox:1.37.0-1",
				Command: []string{"ping", "-t", "localhost"},
			}},
		},
	}
}

// localListen is where the suite's webhook servers listen: an address the
// cluster's apiserver reaches this machine at (for a wink cluster of the kind
// or existing backend that is not loopback), on a free port.
func localListen() (string, error) {
	host := "127.0.0.1"
	if cluster.Simulated {
		addr, err := harness.HostAddress(cluster.Options)
		if err != nil {
			return "", err
		}
		host = addr
	}
	return net.JoinHostPort(host, "0"), nil
}
