package existing

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/e2e-framework/pkg/envconf"
	"sigs.k8s.io/yaml"

	simconfig "wink.dev/wink/simnode/config"
	"wink.dev/wink/suites/suite"
)

// ImageTarEnv names the image tarball TestImageReplica loads; default
// bin/wink-image.tar of the checkout (`make image`).
const ImageTarEnv = "WINK_IMAGE_TAR"

// TestImageReplica: wink's OCI image (`make image`) serves nodes as one
// replica of the in-cluster chart does (issue 19), in a container of this
// machine's Docker engine: non-root, read-only root file system, no
// capabilities, its state on a volume (the replica's volume claim). Its
// nodes register with serving certificates from CSRs and run a Windows
// pod; the container deleted, they go NotReady; a new container on the same
// volume brings them back with the pod's container still the same one.
// The container uses the host's network only to reach the suite's
// apiserver on 127.0.0.1. Skips without a Docker engine or the tarball.
func TestImageReplica(t *testing.T) {
	f := suite.Feature("wink's image serves nodes as a replica of the in-cluster chart, its containers outliving the replica", "existing", "simnode").
		Assess("a replica deleted and recreated on its volume keeps its nodes' containers", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			tarball := os.Getenv(ImageTarEnv)
			if tarball == "" {
				tarball = filepath.Join("..", "..", "bin", "wink-image.tar")
			}
			if _, err := os.Stat(tarball); err != nil {
				t.Skipf("no image tarball (%v): run make image, or set %s", err, ImageTarEnv)
			}
			if out, err := exec.CommandContext(ctx, "docker", "info", "--format", "{{.ServerVersion}}").CombinedOutput(); err != nil {
				t.Skipf("no Docker engine answers: %v: %s", err, out)
			}
			image := loadedImage(t, docker(ctx, t, "load", "-i", tarball))
			cs := suite.Clientset(t, cfg)

			suffix := make([]byte, 4)
			_, _ = rand.Read(suffix)
			name := "wink-suite-replica-" + hex.EncodeToString(suffix)
			dir := t.TempDir()
			// The container runs as 65532: its files must be readable.
			if err := os.Chmod(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			kc, err := os.ReadFile(cfg.KubeconfigFile())
			if err != nil {
				t.Fatal(err)
			}
			simCfg := &simconfig.Config{
				ClusterName: "wink-replica",
				Kubeconfig:  "/etc/wink/kubeconfig",
				Pools: []simconfig.Pool{{
					Name: "win2022", OS: "windows", WindowsBuild: suite.Build2022, Count: 2,
					Labels: map[string]string{joinedLabel: "replica", "wink.dev/simulated": "true"},
				}},
				KubeletPort:     23250,
				CSRServingCerts: true,
				StateDir:        "/var/lib/wink",
				ImageResolve:    "offline",
			}
			data, err := yaml.Marshal(simCfg)
			if err != nil {
				t.Fatal(err)
			}
			for file, content := range map[string][]byte{"kubeconfig": kc, "simnode.yaml": data} {
				if err := os.WriteFile(filepath.Join(dir, file), content, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			nodes := simCfg.NodeNames()
			t.Cleanup(func() {
				_ = exec.Command("docker", "rm", "-f", name).Run()
				_ = exec.Command("docker", "volume", "rm", name).Run()
				_ = deleteNodes(context.Background(), cfg.KubeconfigFile(), nodes)
			})
			run := func() {
				docker(ctx, t, "run", "-d", "--name", name, "--network", "host", "--read-only", "--tmpfs", "/tmp",
					"--cap-drop", "ALL", "--security-opt", "no-new-privileges",
					"-v", name+":/var/lib/wink", "-v", dir+":/etc/wink:ro",
					image, "--config", "/etc/wink/simnode.yaml", "--node-address", "127.0.0.1")
			}
			run()
			waitReady(ctx, t, cs, nodes, true, 2*time.Minute)
			csrs, err := cs.CertificatesV1().CertificateSigningRequests().List(ctx, metav1.ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			issued := 0
			for _, csr := range csrs.Items {
				if strings.HasPrefix(csr.Name, "wink-wink-replica-") && len(csr.Status.Certificate) > 0 {
					issued++
				}
			}
			if issued < len(nodes) {
				t.Errorf("%d serving certificates issued from CSRs, want one per node (%d)", issued, len(nodes))
			}

			ns := suite.Namespace(ctx, t, cs, "replica")
			pod := suite.WindowsPod("kept", suite.Build2022, "cmd", "/c", "ping -t localhost")
			pod.Spec.NodeSelector[joinedLabel] = "replica"
			p := suite.RunPod(ctx, t, cs, ns, pod)
			before := p.Status.ContainerStatuses[0]

			docker(ctx, t, "rm", "-f", name)
			waitReady(ctx, t, cs, []string{p.Spec.NodeName}, false, 2*time.Minute)
			run()
			waitReady(ctx, t, cs, nodes, true, time.Minute)
			after, err := cs.CoreV1().Pods(ns).Get(ctx, p.Name, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			st := after.Status.ContainerStatuses[0]
			if after.Status.Phase != corev1.PodRunning || st.ContainerID != before.ContainerID || st.RestartCount != 0 {
				t.Errorf("after the replica came back: phase %s, container %s (was %s), restarts %d: want the same container running", after.Status.Phase, st.ContainerID, before.ContainerID, st.RestartCount)
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// docker runs the docker CLI and returns its output, failing the test when
// it fails.
func docker(ctx context.Context, t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.CommandContext(ctx, "docker", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("docker %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// loadedImage is the reference `docker load` names on its "Loaded image:"
// line; other lines may come before it (an engine that had the tag says it
// renames the old image).
func loadedImage(t *testing.T, out string) string {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if ref, ok := strings.CutPrefix(strings.TrimSpace(line), "Loaded image:"); ok {
			return strings.TrimSpace(ref)
		}
	}
	t.Fatalf("docker load named no image: %s", out)
	return ""
}
