package registry

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	ggcrregistry "github.com/google/go-containerregistry/pkg/registry"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/random"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"gotest.tools/v3/assert"
	corev1 "k8s.io/api/core/v1"

	"wink.dev/wink/simnode/images"
)

const (
	secretUser, secretPassword = "wink", "s3cret"
	build2019, build2022       = "10.0.17763.6893", "10.0.20348.3207"
)

// image is a synthetic image: random layers, the given config.
func image(t testing.TB, os, osVersion string, cfg v1.Config) v1.Image {
	t.Helper()
	img, err := random.Image(1024, 2)
	assert.NilError(t, err)
	cf, err := img.ConfigFile()
	assert.NilError(t, err)
	cf = cf.DeepCopy()
	cf.OS, cf.OSVersion, cf.Architecture, cf.Config = os, osVersion, "amd64", cfg
	img, err = mutate.ConfigFile(img, cf)
	assert.NilError(t, err)
	return img
}

func index(t testing.TB, imgs ...v1.Image) v1.ImageIndex {
	t.Helper()
	var idx v1.ImageIndex = empty.Index
	for _, img := range imgs {
		cf, err := img.ConfigFile()
		assert.NilError(t, err)
		idx = mutate.AppendManifests(idx, mutate.IndexAddendum{Add: img, Descriptor: v1.Descriptor{
			Platform: &v1.Platform{OS: cf.OS, OSVersion: cf.OSVersion, Architecture: cf.Architecture},
		}})
	}
	// An arm64 entry and an attestation are never candidates.
	arm, err := random.Image(512, 1)
	assert.NilError(t, err)
	return mutate.AppendManifests(idx, mutate.IndexAddendum{Add: arm, Descriptor: v1.Descriptor{
		Platform: &v1.Platform{OS: "linux", Architecture: "arm64"},
	}})
}

// basicAuth guards the private/ repositories like a registry with basic
// authentication; the ping at /v2/ asks for credentials.
func basicAuth(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user, pass, ok := r.BasicAuth()
		authed := ok && user == secretUser && pass == secretPassword
		if !authed && (r.URL.Path == "/v2/" || strings.HasPrefix(r.URL.Path, "/v2/private/")) {
			w.Header().Set("WWW-Authenticate", `Basic realm="wink"`)
			http.Error(w, `{"errors":[{"code":"UNAUTHORIZED","message":"authentication required"}]}`, http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// testRegistry is an in-process registry with the synthetic images of the
// B4 cases: a Windows manifest list (ltsc2019 + ltsc2022), a list without
// the 2022 build, a Linux-only image, a HostProcess image (no os.version)
// and a private image behind basic auth.
func testRegistry(t testing.TB) (host string) {
	t.Helper()
	srv := httptest.NewServer(basicAuth(ggcrregistry.New(ggcrregistry.Logger(log.New(io.Discard, "", 0)))))
	t.Cleanup(srv.Close)
	host = strings.TrimPrefix(srv.URL, "http://")
	auth := remote.WithAuth(&authn.Basic{Username: secretUser, Password: secretPassword})
	push := func(repo string, idx v1.ImageIndex, img v1.Image) {
		ref, err := name.ParseReference(host + "/" + repo)
		assert.NilError(t, err)
		if idx != nil {
			assert.NilError(t, remote.WriteIndex(ref, idx, auth))
			return
		}
		assert.NilError(t, remote.Write(ref, img, auth))
	}
	agent := v1.Config{
		Entrypoint:   []string{`C:\agent\agent.exe`},
		Cmd:          []string{"--serve"},
		Env:          []string{`PATH=C:\Windows\system32;C:\Windows`, "AGENT_MODE=node"},
		WorkingDir:   `C:\agent`,
		User:         "ContainerUser",
		ExposedPorts: map[string]struct{}{"9182/tcp": {}, "443/tcp": {}},
	}
	push("vendor/agent:1.0", index(t,
		image(t, "windows", build2019, agent),
		image(t, "windows", build2022, agent),
		image(t, "linux", "", v1.Config{Entrypoint: []string{"/agent"}, ExposedPorts: map[string]struct{}{"9100/tcp": {}}}),
	), nil)
	push("vendor/agent:old", index(t, image(t, "windows", build2019, agent)), nil)
	push("vendor/linux-only:1", nil, image(t, "linux", "", v1.Config{Entrypoint: []string{"/bin/tool"}, Cmd: []string{"serve"}}))
	push("vendor/hostprocess:1", index(t, image(t, "windows", "", v1.Config{Entrypoint: []string{"powershell.exe", "-File", "start.ps1"}})), nil)
	push("private/app:1", index(t, image(t, "windows", build2022, v1.Config{Entrypoint: []string{`C:\app.exe`}})), nil)
	return host
}

func pullSecret(host string) corev1.Secret {
	auth := base64.StdEncoding.EncodeToString([]byte(secretUser + ":" + secretPassword))
	data, _ := json.Marshal(map[string]any{"auths": map[string]any{host: map[string]string{"auth": auth}}})
	return corev1.Secret{Type: corev1.SecretTypeDockerConfigJson, Data: map[string][]byte{corev1.DockerConfigJsonKey: data}}
}

// emptyKeychain keeps the test runner's own docker config out.
type emptyKeychain struct{}

func (emptyKeychain) Resolve(authn.Resource) (authn.Authenticator, error) {
	return authn.Anonymous, nil
}

func TestResolveAndPull(t *testing.T) {
	host := testRegistry(t)
	cat := images.Default()
	r := &Resolver{Cache: &Cache{Dir: t.TempDir()}, Keychain: emptyKeychain{}}
	ctx := context.Background()

	tests := []struct {
		name    string
		ref     string
		host    images.Host
		secrets []corev1.Secret
		// want: the build and entrypoint pulled, or wantErr: the pull error.
		wantBuild, wantErr string
		wantEntrypoint     []string
	}{
		{name: "B4: the node's own build from a manifest list (2022)", ref: host + "/vendor/agent:1.0",
			host: images.Host{OS: images.Windows, Build: "10.0.20348.2700"}, wantBuild: "10.0.20348", wantEntrypoint: []string{`C:\agent\agent.exe`}},
		{name: "B4: the node's own build from a manifest list (2019)", ref: host + "/vendor/agent:1.0",
			host: images.Host{OS: images.Windows, Build: "10.0.17763"}, wantBuild: "10.0.17763", wantEntrypoint: []string{`C:\agent\agent.exe`}},
		{name: "B4: a 2025 host runs the 2022 entry in process isolation", ref: host + "/vendor/agent:1.0",
			host: images.Host{OS: images.Windows, Build: "10.0.26100"}, wantBuild: "10.0.20348", wantEntrypoint: []string{`C:\agent\agent.exe`}},
		{name: "B4: the Linux entry on a Linux node", ref: host + "/vendor/agent:1.0",
			host: images.Host{OS: images.Linux}, wantEntrypoint: []string{"/agent"}},
		{name: "B4: a list without the node's build fails as containerd does", ref: host + "/vendor/agent:old",
			host:    images.Host{OS: images.Windows, Build: "10.0.20348"},
			wantErr: `rpc error: code = NotFound desc = failed to pull and unpack image "` + host + `/vendor/agent:old": no match for platform in manifest: not found`},
		{name: "B4: Hyper-V isolation runs the older build", ref: host + "/vendor/agent:old",
			host: images.Host{OS: images.Windows, Build: "10.0.20348", Handler: "runhcs-wcow-hypervisor"}, wantBuild: "10.0.17763", wantEntrypoint: []string{`C:\agent\agent.exe`}},
		{name: "B4: a Linux-only image on a Windows node", ref: host + "/vendor/linux-only:1",
			host:    images.Host{OS: images.Windows, Build: "10.0.17763"},
			wantErr: `rpc error: code = NotFound desc = failed to pull and unpack image "` + host + `/vendor/linux-only:1": no match for platform in manifest: not found`},
		{name: "B4: a Linux-only image on a Linux node", ref: host + "/vendor/linux-only:1",
			host: images.Host{OS: images.Linux}, wantEntrypoint: []string{"/bin/tool"}},
		{name: "B4: a HostProcess image (no os.version) on any build", ref: host + "/vendor/hostprocess:1",
			host: images.Host{OS: images.Windows, Build: "10.0.17763"}, wantEntrypoint: []string{"powershell.exe", "-File", "start.ps1"}},
		{name: "B4: a HostProcess image on Linux", ref: host + "/vendor/hostprocess:1",
			host:    images.Host{OS: images.Linux},
			wantErr: `rpc error: code = NotFound desc = failed to pull and unpack image "` + host + `/vendor/hostprocess:1": no match for platform in manifest: not found`},
		{name: "a tag the registry does not have", ref: host + "/vendor/agent:2.0",
			host:    images.Host{OS: images.Windows, Build: "10.0.20348"},
			wantErr: `rpc error: code = NotFound desc = failed to pull and unpack image "` + host + `/vendor/agent:2.0": failed to resolve reference "` + host + `/vendor/agent:2.0": ` + host + `/vendor/agent:2.0: not found`},
		{name: "a private image without a pull secret", ref: host + "/private/app:1",
			host:    images.Host{OS: images.Windows, Build: "10.0.20348"},
			wantErr: `rpc error: code = Unknown desc = failed to pull and unpack image "` + host + `/private/app:1": failed to resolve reference "` + host + `/private/app:1": unexpected status from HEAD request to http://` + host + `/v2/private/app/manifests/1: 401 Unauthorized`},
		{name: "a private image with the pod's pull secret", ref: host + "/private/app:1", secrets: []corev1.Secret{pullSecret(host)},
			host: images.Host{OS: images.Windows, Build: "10.0.20348"}, wantBuild: "10.0.20348", wantEntrypoint: []string{`C:\app.exe`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := r.Resolve(ctx, tt.ref, tt.secrets)
			var img images.Image
			if err == nil {
				assert.Assert(t, m != nil)
				img, err = cat.Pull(tt.ref, tt.host, nil, images.Options{Manifest: m})
			}
			if tt.wantErr != "" {
				var pe *images.PullError
				assert.Assert(t, errors.As(err, &pe), "got %v", err)
				assert.Equal(t, pe.Error(), tt.wantErr)
				return
			}
			assert.NilError(t, err)
			assert.Equal(t, img.Build, tt.wantBuild)
			assert.DeepEqual(t, img.Entrypoint, tt.wantEntrypoint)
			assert.Assert(t, img.Registry)
			assert.Assert(t, strings.HasPrefix(img.ID, "sha256:"))
			assert.Equal(t, img.ImageID(), tt.ref[:strings.LastIndex(tt.ref, ":")]+"@"+m.Digest)
		})
	}
}

func TestConfigFields(t *testing.T) {
	host := testRegistry(t)
	r := &Resolver{Keychain: emptyKeychain{}}
	m, err := r.Resolve(context.Background(), host+"/vendor/agent:1.0", nil)
	assert.NilError(t, err)
	assert.Assert(t, m.List)
	assert.Equal(t, len(m.Platforms), 3) // the arm64 entry is not fetched
	img, err := images.Default().Pull(host+"/vendor/agent:1.0", images.Host{OS: images.Windows, Build: "10.0.20348"}, nil, images.Options{Manifest: m})
	assert.NilError(t, err)
	assert.DeepEqual(t, img.Cmd, []string{"--serve"})
	assert.Equal(t, img.User, "ContainerUser")
	assert.Equal(t, img.WorkingDir, `C:\agent`)
	assert.DeepEqual(t, img.Env, map[string]string{"PATH": `C:\Windows\system32;C:\Windows`, "AGENT_MODE": "node"})
	assert.DeepEqual(t, img.Ports, []int32{443, 9182})
	assert.Assert(t, img.Size > 0)
}

func TestCacheServesASecondRunOffline(t *testing.T) {
	host := testRegistry(t)
	dir := t.TempDir()
	ref := host + "/vendor/agent:1.0"
	first := &Resolver{Cache: &Cache{Dir: dir}, Keychain: emptyKeychain{}}
	want, err := first.Resolve(context.Background(), ref, nil)
	assert.NilError(t, err)

	// Another process (cluster) on the same home, with no network at all.
	second := &Resolver{Cache: &Cache{Dir: dir}, Offline: true}
	got, err := second.Resolve(context.Background(), ref, nil)
	assert.NilError(t, err)
	assert.DeepEqual(t, got, want)

	// Offline and not cached: the catalog decides.
	none, err := second.Resolve(context.Background(), host+"/vendor/linux-only:1", nil)
	assert.NilError(t, err)
	assert.Assert(t, none == nil)
}

func TestUnavailableRegistryFallsBackOnce(t *testing.T) {
	hang := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-hang }))
	t.Cleanup(func() { close(hang); srv.Close() })
	host := strings.TrimPrefix(srv.URL, "http://")
	r := &Resolver{Keychain: emptyKeychain{}, Timeout: DefaultTimeout / 10}

	_, err := r.Resolve(context.Background(), host+"/vendor/agent:1.0", nil)
	var un *Unavailable
	assert.Assert(t, errors.As(err, &un), "got %v", err)
	assert.Assert(t, un.First)
	assert.Equal(t, un.Ref, host+"/vendor/agent:1.0")

	// Remembered: not asked again, not warned again.
	_, err = r.Resolve(context.Background(), host+"/vendor/agent:1.0", nil)
	assert.Assert(t, errors.As(err, &un), "got %v", err)
	assert.Assert(t, !un.First)

	// A registry whose host does not resolve.
	_, err = r.Resolve(context.Background(), "registry.invalid/vendor/agent:1.0", nil)
	assert.Assert(t, errors.As(err, &un), "got %v", err)
	assert.Assert(t, un.First)
}

// BenchmarkPull is what one pull costs on a node once the registry's
// answer is cached (images.resolve: registry) against the catalog alone
// (offline): the per-pod cost BenchmarkPodThroughputRegistry measures at
// cluster scale.
func BenchmarkPull(b *testing.B) {
	host := testRegistry(b)
	ref := host + "/vendor/agent:1.0"
	cat := images.Default()
	win := images.Host{OS: images.Windows, Build: "10.0.20348"}
	r := &Resolver{Cache: &Cache{Dir: b.TempDir()}, Keychain: emptyKeychain{}}
	if _, err := r.Resolve(context.Background(), ref, nil); err != nil {
		b.Fatal(err)
	}
	b.Run("offline", func(b *testing.B) {
		for b.Loop() {
			if _, err := cat.Pull(ref, win, nil, images.Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("registry-warm", func(b *testing.B) {
		for b.Loop() {
			m, err := r.Resolve(context.Background(), ref, nil)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := cat.Pull(ref, win, nil, images.Options{Manifest: m}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// Pulls of one reference at the same time share one request and one
// warning.
func TestConcurrentPullsWarnOnce(t *testing.T) {
	hang := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-hang }))
	t.Cleanup(func() { close(hang); srv.Close() })
	ref := strings.TrimPrefix(srv.URL, "http://") + "/vendor/agent:1.0"
	r := &Resolver{Keychain: emptyKeychain{}, Timeout: DefaultTimeout / 10}
	firsts := make(chan bool, 8)
	for range 8 {
		go func() {
			_, err := r.Resolve(context.Background(), ref, nil)
			var un *Unavailable
			firsts <- errors.As(err, &un) && un.First
		}()
	}
	warned := 0
	for range 8 {
		if <-firsts {
			warned++
		}
	}
	assert.Equal(t, warned, 1)
}

// An answer pulled with a credential is not served to a pull without it,
// from memory or from the disk another cluster shares: the registry is
// asked again and refuses, as it does a kubelet with no (or a wrong) pull
// secret. An answer pulled anonymously is served to everyone. Row B4 (the
// pull); every kubelet version.
func TestCachedAnswersKeepTheirCredential(t *testing.T) {
	host := testRegistry(t)
	dir := t.TempDir()
	ctx := context.Background()
	private := host + "/private/app:1"
	wrong := pullSecret(host)
	wrong.Data[corev1.DockerConfigJsonKey] = []byte(`{"auths":{"` + host + `":{"auth":"` + base64.StdEncoding.EncodeToString([]byte("wink:wrong")) + `"}}}`)

	r := &Resolver{Cache: &Cache{Dir: dir}, Keychain: emptyKeychain{}}
	_, err := r.Resolve(ctx, private, []corev1.Secret{pullSecret(host)})
	assert.NilError(t, err)
	_, err = r.Resolve(ctx, host+"/vendor/agent:1.0", nil)
	assert.NilError(t, err)

	for name, r := range map[string]*Resolver{
		"the same process":                 r,
		"another cluster on the same home": {Cache: &Cache{Dir: dir}, Keychain: emptyKeychain{}},
	} {
		t.Run(name, func(t *testing.T) {
			m, err := r.Resolve(ctx, private, []corev1.Secret{pullSecret(host)})
			assert.NilError(t, err)
			assert.Assert(t, m != nil)

			for secret, secrets := range map[string][]corev1.Secret{"none": nil, "a wrong one": {wrong}} {
				_, err = r.Resolve(ctx, private, secrets)
				var pe *images.PullError
				assert.Assert(t, errors.As(err, &pe), "pull secret %s: got %v", secret, err)
				assert.Assert(t, strings.Contains(pe.Error(), "401 Unauthorized"), "pull secret %s: %v", secret, pe)
			}

			m, err = r.Resolve(ctx, host+"/vendor/agent:1.0", []corev1.Secret{pullSecret(host)})
			assert.NilError(t, err)
			assert.Assert(t, m != nil)
		})
	}

	// Offline, a credentialed answer is not handed to a pull without the
	// credential: the catalog decides, as for an image never seen.
	offline := &Resolver{Cache: &Cache{Dir: dir}, Offline: true, Keychain: emptyKeychain{}}
	m, err := offline.Resolve(ctx, private, nil)
	assert.NilError(t, err)
	assert.Assert(t, m == nil)
	m, err = offline.Resolve(ctx, private, []corev1.Secret{pullSecret(host)})
	assert.NilError(t, err)
	assert.Assert(t, m != nil)

	// The cache holds no credential, only its fingerprint.
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		assert.NilError(t, err)
		assert.Assert(t, !strings.Contains(string(data), secretPassword), path)
		assert.Assert(t, !strings.Contains(string(data), base64.StdEncoding.EncodeToString([]byte(secretUser+":"+secretPassword))), path)
		return nil
	})
	assert.NilError(t, err)
}
