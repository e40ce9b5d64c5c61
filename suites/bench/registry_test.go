package bench

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	ggcrregistry "github.com/google/go-containerregistry/pkg/registry"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/random"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"wink.dev/wink/harness"
	"wink.dev/wink/suites/suite"
)

// benchPods is the number of pods of the throughput benchmarks: 3,000, or
// $WINK_BENCH_PODS for a smaller check.
func benchPods(b *testing.B) int {
	return envCount(b, "WINK_BENCH_PODS", "pods", 3000)
}

// registryImage serves an in-process registry (go-containerregistry's
// pkg/registry) with a Windows manifest list (ltsc2019 and ltsc2022
// entries) and returns its reference. The simulated nodes reach it over
// plain HTTP on 127.0.0.1, as containerd reaches a local registry.
func registryImage(b *testing.B) string {
	b.Helper()
	srv := httptest.NewServer(ggcrregistry.New(ggcrregistry.Logger(log.New(io.Discard, "", 0))))
	b.Cleanup(srv.Close)
	var idx v1.ImageIndex = empty.Index
	for _, build := range []string{"10.0.17763.6893", "10.0.20348.3207"} {
		img, err := random.Image(1024, 1)
		if err != nil {
			b.Fatal(err)
		}
		cf, err := img.ConfigFile()
		if err != nil {
			b.Fatal(err)
		}
		cf = cf.DeepCopy()
		cf.OS, cf.OSVersion, cf.Architecture = "windows", build, "amd64"
		cf.Config = v1.Config{Cmd: []string{`c:\windows\system32\cmd.exe`}, User: "ContainerUser"}
		if img, err = mutate.ConfigFile(img, cf); err != nil {
			b.Fatal(err)
		}
		idx = mutate.AppendManifests(idx, mutate.IndexAddendum{Add: img, Descriptor: v1.Descriptor{
			Platform: &v1.Platform{OS: "windows", OSVersion: build, Architecture: "amd64"},
		}})
	}
	ref := strings.TrimPrefix(srv.URL, "http://") + "/windows/nanoserver:ltsc2022"
	r, err := name.ParseReference(ref)
	if err != nil {
		b.Fatal(err)
	}
	if err := remote.WriteIndex(r, idx); err != nil {
		b.Fatal(err)
	}
	return ref
}

// BenchmarkPodThroughputRegistry is BenchmarkPodThroughput's created ->
// Running figure twice, each in a fresh cluster of its own wink home: with
// images.resolve: offline (the catalog), and with images.resolve: registry
// against an in-process registry, its cache warmed by one pod first. Goal:
// the registry figure within 5% of the offline one (B4's registry lookup
// costs nothing once cached).
func BenchmarkPodThroughputRegistry(b *testing.B) {
	n := benchPods(b)
	image := registryImage(b)
	measure := func(mode string) float64 {
		home := b.TempDir()
		b.Setenv("WINK_HOME", home)
		c, opts, _ := up(b, "bench-"+mode, podsConfig+"images: {resolve: "+mode+"}\n", true)
		defer func() { _ = harness.Delete(context.Background(), opts) }()
		cs := clientset(b, c.Kubeconfig)
		namespaces(b, cs, "warm", "through")
		onWindows := func(p *corev1.Pod) {
			p.Spec.Containers[0].Image = image
			p.Spec.NodeSelector = map[string]string{"kubernetes.io/os": "windows"}
			p.Spec.Tolerations = []corev1.Toleration{{Key: "os", Value: "windows", Effect: corev1.TaintEffectNoSchedule}}
		}
		warm(b, cs, image)
		// The warm-up pull went to the registry and into the cache (or,
		// offline, did not).
		refs, _ := os.ReadDir(filepath.Join(home, "cache", "images", "refs"))
		if cached := len(refs) > 0; cached != (mode == "registry") {
			b.Fatalf("images.resolve %s: %d references in the image cache after the warm-up pod", mode, len(refs))
		}
		b.StartTimer()
		got := runPods(b, cs, "through", n, onWindows, nil)
		b.StopTimer()
		return got
	}
	b.StopTimer()
	offline := measure("offline")
	registry := measure("registry")
	b.ReportMetric(offline, "offline-pods/s")
	b.ReportMetric(registry, "registry-pods/s")
	b.ReportMetric(registry/offline, "ratio")
	fmt.Printf("%d pods over 50 Windows nodes, created -> Running: images.resolve offline %.0f pods/s; registry (in-process, warm cache) %.0f pods/s; ratio %.3f (goal >= 0.95)\n", n, offline, registry, registry/offline)
}

// warm runs one pod of image to Running: the first pull resolves it (and,
// in registry mode, fills the cache).
func warm(b *testing.B, cs kubernetes.Interface, image string) {
	b.Helper()
	ctx := context.Background()
	p := suite.WindowsPod("warm", suite.Build2022, "pause")
	p.Spec.Containers[0].Image = image
	if _, err := cs.CoreV1().Pods("warm").Create(ctx, p, metav1.CreateOptions{}); err != nil {
		b.Fatal(err)
	}
	for range 600 {
		got, err := cs.CoreV1().Pods("warm").Get(ctx, "warm", metav1.GetOptions{})
		if err == nil && got.Status.Phase == corev1.PodRunning {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	b.Fatalf("the warm-up pod of %s is not Running after a minute", image)
}
