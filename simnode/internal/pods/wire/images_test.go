package wire

import (
	"context"
	"errors"
	"testing"

	"gotest.tools/v3/assert"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corev1listers "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"

	"wink.dev/wink/simnode/images"
	"wink.dev/wink/simnode/images/registry"
	"wink.dev/wink/simnode/internal/pods"
)

// fakeResolver answers every reference the same way and records the
// secrets it was given.
type fakeResolver struct {
	m       *images.Manifest
	err     error
	secrets []string
}

func (f *fakeResolver) Resolve(_ context.Context, _ string, secrets []corev1.Secret) (*images.Manifest, error) {
	for _, s := range secrets {
		f.secrets = append(f.secrets, s.Name)
	}
	return f.m, f.err
}

func TestImagesPullThroughTheRegistry(t *testing.T) {
	idx := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	assert.NilError(t, idx.Add(&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "regcred"}}))
	secrets := corev1listers.NewSecretLister(idx)
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p"}, Spec: corev1.PodSpec{
		ImagePullSecrets: []corev1.LocalObjectReference{{Name: "regcred"}, {Name: "missing"}},
	}}
	win2022 := pods.ImageHost{OS: images.Windows, Build: "10.0.20348"}
	agent := &images.Manifest{Digest: "sha256:" + sixtyFour("a"), List: true, Platforms: []images.RemotePlatform{{
		OS: "windows", OSVersion: "10.0.20348.3207", Architecture: "amd64", ConfigDigest: "sha256:" + sixtyFour("c"),
		Entrypoint: []string{`C:\agent.exe`}, Env: []string{"A=1"}, WorkingDir: `C:\work`, ExposedPorts: []int32{9182}, Size: 1000,
	}}}

	tests := []struct {
		name         string
		resolver     *fakeResolver
		ref          string
		want         pods.Image
		wantErr      string
		wantFallback string
	}{
		{
			name: "B4: the registry's config is the image", resolver: &fakeResolver{m: agent}, ref: "example.com/agent:1",
			want: pods.Image{Ref: "example.com/agent:1", ID: "example.com/agent@" + agent.Digest, Entrypoint: []string{`C:\agent.exe`},
				Env: map[string]string{"A": "1"}, WorkingDir: `C:\work`, Ports: []int{9182}, Size: 1000},
		},
		{
			name: "B4: a registry's answer fails the pull", resolver: &fakeResolver{err: images.NotFound("example.com/agent:2")}, ref: "example.com/agent:2",
			wantErr: `rpc error: code = NotFound desc = failed to pull and unpack image "example.com/agent:2": failed to resolve reference "example.com/agent:2": example.com/agent:2: not found`,
		},
		{
			name: "B4: no answer: the catalog, with one warning", resolver: &fakeResolver{err: &registry.Unavailable{Ref: "mcr.microsoft.com/windows/nanoserver:ltsc2022", Err: errors.New("dial tcp: no such host"), First: true}},
			ref: "mcr.microsoft.com/windows/nanoserver:ltsc2022", wantFallback: "dial tcp: no such host",
		},
		{
			name: "B4: no answer again: the catalog, no second warning", resolver: &fakeResolver{err: &registry.Unavailable{Ref: "mcr.microsoft.com/windows/nanoserver:ltsc2022", Err: errors.New("remembered")}},
			ref: "mcr.microsoft.com/windows/nanoserver:ltsc2022",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			i := Images{Catalog: images.Default(), Registry: tt.resolver, Secrets: secrets}
			got, err := i.Pull(tt.ref, win2022, pod, "c")
			assert.DeepEqual(t, tt.resolver.secrets, []string{"regcred"})
			if tt.wantErr != "" {
				assert.Error(t, err, tt.wantErr)
				return
			}
			assert.NilError(t, err)
			assert.Equal(t, got.Fallback, tt.wantFallback)
			if tt.resolver.m == nil {
				// The catalog's nanoserver: ContainerUser, cmd.exe.
				assert.Equal(t, got.User, "ContainerUser")
				return
			}
			assert.DeepEqual(t, got, tt.want)
		})
	}
}

func sixtyFour(c string) string {
	out := ""
	for len(out) < 64 {
		out += c
	}
	return out
}
