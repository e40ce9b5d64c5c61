package reference

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/ptr"
)

const testCredSpec = `{"CmsPlugins":["ActiveDirectory"],"DomainJoinConfig":{"DnsName":"contoso.com","NetBiosName":"CONTOSO"}}`

// testGMSA allows service account "gmsa-user" to use cred spec "webapp1"
// (the only one that exists) and nothing else.
func testGMSA() *GMSA {
	return &GMSA{
		MayUse: func(_ context.Context, _, sa, name string) (bool, string) {
			return sa == "gmsa-user" && name == "webapp1", ""
		},
		Get: func(_ context.Context, name string) ([]byte, error) {
			if name != "webapp1" {
				return nil, apierrors.NewNotFound(schema.GroupResource{Group: GMSAGroup, Resource: GMSAResource}, name)
			}
			return []byte(`{"apiVersion":"windows.k8s.io/v1alpha1","kind":"GMSACredentialSpec","metadata":{"name":"webapp1"},"credspec":` + testCredSpec + `}`), nil
		},
	}
}

func gmsaName(n string) func(*corev1.Pod) {
	return func(p *corev1.Pod) {
		p.Spec.SecurityContext = &corev1.PodSecurityContext{WindowsOptions: &corev1.WindowsSecurityContextOptions{GMSACredentialSpecName: ptr.To(n)}}
	}
}

func gmsaSpec(s string) func(*corev1.Pod) {
	return func(p *corev1.Pod) {
		if p.Spec.SecurityContext == nil {
			p.Spec.SecurityContext = &corev1.PodSecurityContext{WindowsOptions: &corev1.WindowsSecurityContextOptions{}}
		}
		p.Spec.SecurityContext.WindowsOptions.GMSACredentialSpec = ptr.To(s)
	}
}

func containerGMSAName(n string) func(*corev1.Pod) {
	return func(p *corev1.Pod) {
		p.Spec.Containers[0].SecurityContext = &corev1.SecurityContext{WindowsOptions: &corev1.WindowsSecurityContextOptions{GMSACredentialSpecName: ptr.To(n)}}
	}
}

func serviceAccount(n string) func(*corev1.Pod) {
	return func(p *corev1.Pod) { p.Spec.ServiceAccountName = n }
}

// TestGMSAValidate: row A20, the GMSA webhook's authorisation.
func TestGMSAValidate(t *testing.T) {
	tests := []struct {
		name string
		pod  *corev1.Pod
		want string // "" allowed, else the denial message
	}{
		{name: "no gmsa", pod: pod(osName(corev1.Windows))},
		{name: "authorised", pod: pod(serviceAccount("gmsa-user"), gmsaName("webapp1"))},
		{name: "authorised with matching inline spec", pod: pod(serviceAccount("gmsa-user"), gmsaName("webapp1"),
			gmsaSpec(`{"DomainJoinConfig":{"NetBiosName":"CONTOSO","DnsName":"contoso.com"},"CmsPlugins":["ActiveDirectory"]}`))},
		{name: "default service account not authorised", pod: pod(gmsaName("webapp1")),
			want: "service account \"default\" is not authorized to `use` GMSA cred spec \"webapp1\""},
		{name: "container-level name checked too", pod: pod(serviceAccount("other"), containerGMSAName("webapp1")),
			want: "service account \"other\" is not authorized to `use` GMSA cred spec \"webapp1\""},
		{name: "inline spec differs", pod: pod(serviceAccount("gmsa-user"), gmsaName("webapp1"), gmsaSpec(`{"CmsPlugins":[]}`)),
			want: `the GMSA cred spec contents for pod "p" does not match the contents of GMSA resource "webapp1"`},
		{name: "spec without name", pod: pod(gmsaSpec(testCredSpec)),
			want: `pod "p" has a GMSA cred spec set, but does not define the name of the corresponding resource`},
	}
	g := testGMSA()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := g.Validate(context.Background(), request(t, tt.pod))
			got := ""
			if !resp.Allowed {
				got = resp.Result.Message
			}
			if got != tt.want {
				t.Errorf("Validate: got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestGMSAMutate: row A20, the credential spec inlined from its resource.
func TestGMSAMutate(t *testing.T) {
	tests := []struct {
		name   string
		pod    *corev1.Pod
		denied string
		want   func(*corev1.Pod) *string // where the spec must land; nil: no patch
	}{
		{name: "no gmsa", pod: pod(osName(corev1.Windows))},
		{name: "pod level", pod: pod(gmsaName("webapp1")),
			want: func(p *corev1.Pod) *string { return p.Spec.SecurityContext.WindowsOptions.GMSACredentialSpec }},
		{name: "container level", pod: pod(containerGMSAName("webapp1")),
			want: func(p *corev1.Pod) *string {
				return p.Spec.Containers[0].SecurityContext.WindowsOptions.GMSACredentialSpec
			}},
		{name: "inline spec kept", pod: pod(gmsaName("webapp1"), gmsaSpec(`{"x":1}`))},
		{name: "unknown cred spec", pod: pod(gmsaName("nope")), denied: "cred spec nope does not exist"},
	}
	g := testGMSA()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := g.Mutate(context.Background(), request(t, tt.pod))
			if tt.denied != "" {
				if resp.Allowed || !strings.Contains(resp.Result.Message, tt.denied) {
					t.Fatalf("Mutate: want denied with %q, got %+v", tt.denied, resp)
				}
				return
			}
			if !resp.Allowed {
				t.Fatalf("Mutate denied: %s", resp.Result.Message)
			}
			if tt.want == nil {
				if resp.Patch != nil {
					t.Fatalf("Mutate: unexpected patch %s", resp.Patch)
				}
				return
			}
			raw, _ := json.Marshal(tt.pod)
			patch, err := jsonpatch.DecodePatch(resp.Patch)
			if err != nil {
				t.Fatal(err)
			}
			out, err := patch.Apply(raw)
			if err != nil {
				t.Fatalf("patch %s: %v", resp.Patch, err)
			}
			var got corev1.Pod
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatal(err)
			}
			if s := tt.want(&got); s == nil || !sameJSON(*s, testCredSpec) {
				t.Errorf("patched spec %v, want %s", s, testCredSpec)
			}
		})
	}
}
