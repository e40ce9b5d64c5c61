// Package fakesuite is a suite without a cluster whose `go test -json`
// output is recorded in ../events.jsonl for the golden tests of package
// reports (see ../README). Its features pass, fail and skip the ways real
// suites do, and log labels and evidence through package suite.
package fakesuite

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/e2e-framework/pkg/env"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

var testenv, rowN1 env.Environment

func TestMain(m *testing.M) {
	testenv = env.NewWithConfig(envconf.New())
	// As with --labels row=N1: other features skip.
	rowN1 = env.NewWithConfig(envconf.New().WithLabels(map[string][]string{"row": {"N1"}}))
	os.Exit(testenv.Run(m))
}

func TestNodeIdentity(t *testing.T) {
	f := suite.Feature("nodes look like their kubelets", "nodes", "simnode", "N1", "N2", "N3").
		Assess("labels are exactly the kubelet's (N1, N2)", func(ctx context.Context, t *testing.T, _ *envconf.Config) context.Context {
			labels := map[string]string{
				"kubernetes.io/os": "windows", "kubernetes.io/arch": "amd64",
				"node.kubernetes.io/windows-build": "10.0.20348", "kubernetes.io/hostname": "wink-win2022-0",
			}
			// A long detail: test2json splits lines over 1024 bytes.
			for i := range 40 {
				labels[fmt.Sprintf("pool.example.com/label-%02d", i)] = strings.Repeat("x", 20)
			}
			suite.ObjectEvidence(t, "node wink-win2022-0 labels (N1, N2)", map[string]any{"metadata": map[string]any{"name": "wink-win2022-0", "labels": labels}})
			return ctx
		}).
		Assess("nodeInfo is a Windows Server's (N3)", func(ctx context.Context, t *testing.T, _ *envconf.Config) context.Context {
			time.Sleep(120 * time.Millisecond)
			suite.ObjectEvidence(t, "node wink-win2022-0 status.nodeInfo (N3)", corev1.NodeSystemInfo{
				MachineID: "wink-win2022-0", BootID: "1", KernelVersion: "10.0.20348.1607",
				OSImage: "Windows Server 2022 Datacenter", ContainerRuntimeVersion: "containerd://1.7.27",
				KubeletVersion: "v1.35.4", OperatingSystem: "windows", Architecture: "amd64",
			})
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

func TestKubeletAdmission(t *testing.T) {
	f := suite.Feature("the Windows kubelet refuses pods it cannot run", "scheduling", "any", "B1", "B2", "B3").
		Assess("B1 PodOSNotSupported", func(ctx context.Context, t *testing.T, _ *envconf.Config) context.Context {
			suite.EventEvidence(t, corev1.Event{
				InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: "admission-os-field-x7k2p", Name: "os-field"},
				Type:           corev1.EventTypeWarning, Reason: "PodOSNotSupported",
				Message: "Failed to admit pod as the OS field doesn't match node OS",
			})
			return ctx
		}).
		Assess("B2 PodOSSelectorNodeLabelDoesNotMatch", func(ctx context.Context, t *testing.T, _ *envconf.Config) context.Context {
			suite.ObjectEvidence(t, "pod admission-os-label-q9d4z/os-label status (B2): phase Running, reason ", corev1.PodStatus{Phase: corev1.PodRunning})
			t.Errorf("[B2] status reason %q message %q\nwant reason %q message %q", "", "", "PodOSSelectorNodeLabelDoesNotMatch",
				"Pod was rejected: Failed to admit pod as the `kubernetes.io/os` label doesn't match node label")
			return ctx
		}).
		Assess("B3 NodeAffinity", func(ctx context.Context, t *testing.T, _ *envconf.Config) context.Context {
			suite.ExecEvidence(t, "default/probe", []string{"cmd", "/c", "echo", "%USERNAME%"}, suite.ExecResult{Stdout: "ContainerUser\r\n"})
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

func TestWinWebserver(t *testing.T) {
	f := suite.Feature("the docs' win-webserver on a cluster whose Windows nodes are tainted", "scheduling", "any", "S2", "S3", "A17").
		Assess("as the docs wrote it, its pods stay Pending: untolerated taint (S2, A17)", func(ctx context.Context, t *testing.T, _ *envconf.Config) context.Context {
			suite.EventEvidence(t, corev1.Event{
				ObjectMeta:     metav1.ObjectMeta{Name: "win-webserver-5d8c.1"},
				InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: "win-webserver-abcde", Name: "win-webserver-5d8c-1"},
				Type:           corev1.EventTypeWarning, Reason: "FailedScheduling",
				Message: "0/4 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 3 node(s) had untolerated taint(s).",
			})
			return ctx
		}).
		Assess("with the toleration and the ltsc2019 build selector it runs on Windows Server 2019 (S2, S3)", func(ctx context.Context, t *testing.T, _ *envconf.Config) context.Context {
			t.Skip("needs every Windows node tainted (S2): 0 of 3 are")
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

func TestAllocatable(t *testing.T) {
	f := suite.Feature("allocatable and conditions follow the kubelet version", "nodes", "simnode", "N5", "N6", "N7").
		Assess("allocatable (N5)", func(ctx context.Context, t *testing.T, _ *envconf.Config) context.Context {
			return ctx
		}).Feature()
	rowN1.Test(t, f)
}

func TestSimnodeRestart(t *testing.T) {
	f := suite.Feature("simnode killed and restarted loses nothing", "lifecycle", "simnode").
		Assess("pods keep running", func(ctx context.Context, t *testing.T, _ *envconf.Config) context.Context {
			time.Sleep(250 * time.Millisecond)
			t.Fatal("pod default/web: phase Pending after 1m0s")
			return ctx
		}).
		Assess("never reached", func(ctx context.Context, t *testing.T, _ *envconf.Config) context.Context {
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// TestPlain has no features: it is a result of its own, without rows.
func TestPlain(t *testing.T) {
	t.Log("a plain Go test")
}
