package lifecycle

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/httpstream"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/portforward"
	"k8s.io/client-go/transport/spdy"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

const iisImage = "mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022"

// TestPortForwardIIS: B16. `kubectl port-forward` to IIS on Server Core
// 2022 answers IIS's start page, through the apiserver and the node's
// kubelet API, with SPDY (kubectl before v1.31) and with SPDY over
// websockets (kubectl's default since v1.31, falling back to SPDY).
func TestPortForwardIIS(t *testing.T) {
	type key struct{}
	get := func(ctx context.Context, t *testing.T, cfg *envconf.Config, ws bool) {
		ns := ctx.Value(key{}).(string)
		port, stop := forward(t, cfg, ns, "iis", 80, ws)
		defer stop()
		client := &http.Client{Timeout: 20 * time.Second}
		resp, err := client.Get(fmt.Sprintf("http://127.0.0.1:%d/", port))
		if err != nil {
			suite.Fail(t, "B16", "GET / through port-forward to iis:80", err, "200 with IIS's start page")
			return
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		suite.Evidence(t, suite.EvidenceObject, fmt.Sprintf("GET http://127.0.0.1:%d/ → iis:80: %s, Server %q, %d bytes", port, resp.Status, resp.Header.Get("Server"), len(body)), string(body))
		if resp.StatusCode != http.StatusOK {
			suite.Fail(t, "B16", "status of GET / through port-forward", resp.Status, "200 OK")
		}
		if !strings.Contains(string(body), "<title>IIS Windows Server</title>") {
			suite.Fail(t, "B16", "body of GET / through port-forward", fmt.Sprintf("%.200q", body), "IIS's start page (<title>IIS Windows Server</title>)")
		}
		if s := resp.Header.Get("Server"); s != "Microsoft-IIS/10.0" {
			suite.Fail(t, "B16", "Server header through port-forward", s, "Microsoft-IIS/10.0")
		}
	}
	f := suite.Feature("kubectl port-forward to IIS in a Windows pod", "lifecycle", "any", "B16").
		Setup(func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "port-forward")
			pod := suite.WindowsPod("iis", suite.Build2022)
			pod.Spec.Containers[0].Image = iisImage
			pod.Spec.Containers[0].Ports = []corev1.ContainerPort{{ContainerPort: 80, Protocol: corev1.ProtocolTCP}}
			suite.CreatePod(ctx, t, cs, ns, pod)
			// Server Core is a large pull.
			suite.WaitPod(ctx, t, cs, ns, "iis", 3*time.Minute, "Running", suite.Running)
			return context.WithValue(ctx, key{}, ns)
		}).
		Assess("SPDY: GET / on the forwarded port answers IIS's start page", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			get(ctx, t, cfg, false)
			return ctx
		}).
		Assess("websocket (kubectl ≥ v1.31): GET / on the forwarded port answers IIS's start page", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			get(ctx, t, cfg, true)
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// forward starts a port-forward from a free local port to the pod's port,
// as kubectl port-forward does, and returns the local port and a stop
// function. ws selects kubectl's websocket dialer with SPDY fallback;
// otherwise SPDY alone.
func forward(t *testing.T, cfg *envconf.Config, ns, pod string, port int, ws bool) (uint16, func()) {
	t.Helper()
	rc := cfg.Client().RESTConfig()
	cs, err := kubernetes.NewForConfig(rc)
	if err != nil {
		t.Fatal(err)
	}
	url := cs.CoreV1().RESTClient().Post().Resource("pods").Namespace(ns).Name(pod).SubResource("portforward").URL()
	transport, upgrader, err := spdy.RoundTripperFor(rc)
	if err != nil {
		t.Fatal(err)
	}
	var dialer httpstream.Dialer = spdy.NewDialer(upgrader, &http.Client{Transport: transport}, http.MethodPost, url)
	if ws {
		tunnel, err := portforward.NewSPDYOverWebsocketDialer(url, rc)
		if err != nil {
			t.Fatal(err)
		}
		dialer = portforward.NewFallbackDialer(tunnel, dialer, func(err error) bool {
			return httpstream.IsUpgradeFailure(err) || httpstream.IsHTTPSProxyError(err)
		})
	}
	stopCh, readyCh := make(chan struct{}), make(chan struct{})
	var out, errOut bytes.Buffer
	fw, err := portforward.NewOnAddresses(dialer, []string{"127.0.0.1"}, []string{fmt.Sprintf("0:%d", port)}, stopCh, readyCh, &out, &errOut)
	if err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() { errc <- fw.ForwardPorts() }()
	select {
	case <-readyCh:
	case err := <-errc:
		t.Fatalf("port-forward %s/%s %d: %v (%s)", ns, pod, port, err, errOut.String())
	case <-time.After(30 * time.Second):
		close(stopCh)
		t.Fatalf("port-forward %s/%s %d: not ready after 30s (%s)", ns, pod, port, errOut.String())
	}
	ports, err := fw.GetPorts()
	if err != nil || len(ports) != 1 {
		close(stopCh)
		t.Fatalf("port-forward ports: %v %v", ports, err)
	}
	return ports[0].Local, func() {
		close(stopCh)
		select {
		case <-errc:
		case <-time.After(5 * time.Second):
		}
		if s := errOut.String(); s != "" {
			t.Logf("port-forward stderr: %s", s)
		}
	}
}
