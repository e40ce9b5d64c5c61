package suite

import (
	"bytes"
	"context"
	"errors"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/httpstream"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/remotecommand"
	"k8s.io/utils/exec"
	"sigs.k8s.io/e2e-framework/pkg/envconf"
)

// ExecResult is what `kubectl exec` shows: the output and the exit code.
type ExecResult struct {
	Stdout, Stderr string
	ExitCode       int
}

// Exec runs argv in a container through the apiserver, as `kubectl exec`
// does (websocket, falling back to SPDY), and returns its output and exit
// code. A non-zero exit is a result, not an error.
func Exec(ctx context.Context, t *testing.T, cfg *envconf.Config, ns, pod, container string, argv ...string) ExecResult {
	t.Helper()
	rc := cfg.Client().RESTConfig()
	cs, err := kubernetes.NewForConfig(rc)
	if err != nil {
		t.Fatal(err)
	}
	req := cs.CoreV1().RESTClient().Post().Resource("pods").Namespace(ns).Name(pod).SubResource("exec").
		VersionedParams(&corev1.PodExecOptions{Container: container, Command: argv, Stdout: true, Stderr: true}, scheme.ParameterCodec)
	spdy, err := remotecommand.NewSPDYExecutor(rc, "POST", req.URL())
	if err != nil {
		t.Fatal(err)
	}
	ws, err := remotecommand.NewWebSocketExecutor(rc, "GET", req.URL().String())
	if err != nil {
		t.Fatal(err)
	}
	// Fall back to SPDY only when the websocket upgrade itself failed, as
	// kubectl does: a command's exit status must not run it twice.
	executor, err := remotecommand.NewFallbackExecutor(ws, spdy, func(err error) bool {
		return httpstream.IsUpgradeFailure(err) || httpstream.IsHTTPSProxyError(err)
	})
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	err = executor.StreamWithContext(ctx, remotecommand.StreamOptions{Stdout: &stdout, Stderr: &stderr})
	res := ExecResult{Stdout: stdout.String(), Stderr: stderr.String()}
	var exit exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		res.ExitCode = exit.ExitStatus()
	default:
		t.Fatalf("exec %v in %s/%s: %v (stderr %q)", argv, ns, pod, err, stderr.String())
	}
	return res
}
