package webhooks

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
	"wink.dev/wink/suites/webhooks/reference"
)

// gmsaCRD is the GMSACredentialSpec custom resource definition (group
// windows.k8s.io, cluster-scoped, its spec in the top-level field credspec),
// as kubernetes-sigs/windows-gmsa defines the kind.
var gmsaCRD = &apiextv1.CustomResourceDefinition{
	ObjectMeta: metav1.ObjectMeta{
		Name: reference.GMSAResource + "." + reference.GMSAGroup,
		// *.k8s.io groups need an approved API review: the GMSA KEP.
		Annotations: map[string]string{"api-approved.kubernetes.io": "https://github.com/kubernetes/enhancements/tree/master/keps/sig-windows/689-windows-gmsa"},
	},
	Spec: apiextv1.CustomResourceDefinitionSpec{
		Group: reference.GMSAGroup,
		Scope: apiextv1.ClusterScoped,
		Names: apiextv1.CustomResourceDefinitionNames{
			Plural: reference.GMSAResource, Singular: "gmsacredentialspec", Kind: reference.GMSAKind, ListKind: reference.GMSAKind + "List",
		},
		Versions: []apiextv1.CustomResourceDefinitionVersion{{
			Name: reference.GMSAVersion, Served: true, Storage: true,
			Schema: &apiextv1.CustomResourceValidation{OpenAPIV3Schema: &apiextv1.JSONSchemaProps{
				Type: "object",
				Properties: map[string]apiextv1.JSONSchemaProps{
					"credspec": {Type: "object", XPreserveUnknownFields: ptr.To(true)},
				},
				Required: []string{"credspec"},
			}},
		}},
	},
}

// gmsaCredSpec is a credential spec as `New-CredentialSpec` writes it for
// the GMSA WebApp1 of contoso.com (the docs' example).
const gmsaCredSpec = `{"CmsPlugins":["ActiveDirectory"],"DomainJoinConfig":{"Sid":"S-1-5-21-2126449477-2524075714-3094792973","MachineAccountName":"WebApp1","Guid":"244818ae-87ac-4fcd-92ec-e79e5252348a","DnsTreeName":"contoso.com","DnsName":"contoso.com","NetBiosName":"CONTOSO"},"ActiveDirectoryConfig":{"GroupManagedServiceAccounts":[{"Name":"WebApp1","Scope":"contoso.com"},{"Name":"WebApp1","Scope":"CONTOSO"}]}}`

// TestGMSAAuthorization: row A20. Whether a pod's service account may use a
// GMSA credential spec is decided by the GMSA webhook (the apiserver only
// checks the fields' syntax, A11): without the `use` verb on the
// GMSACredentialSpec the pod is refused with the webhook's message; with it
// the pod is admitted with the credential spec inlined, and the container
// sees its domain (`nltest /PARENTDOMAIN`, upstream gmsa_kubelet.go).
//
// A cluster that already has the GMSACredentialSpec CRD is taken to run its
// GMSA webhook (kubernetes-sigs/windows-gmsa), which is then the one tested;
// otherwise the reference server's GMSA webhook is registered for the
// feature's namespace.
func TestGMSAAuthorization(t *testing.T) {
	var (
		credSpec = "wink-gmsa-" + rand.String(5)
		ns       string
		cleanup  []func(context.Context)
	)
	f := suite.Feature("a GMSA webhook authorises the use of credential specs (A20)", area, "any", "A20").
		Setup(func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ext, err := apiextclient.NewForConfig(cfg.Client().RESTConfig())
			if err != nil {
				t.Fatal(err)
			}
			_, err = ext.ApiextensionsV1().CustomResourceDefinitions().Get(ctx, gmsaCRD.Name, metav1.GetOptions{})
			switch {
			case err == nil:
				t.Logf("the cluster has %s: testing its GMSA webhook", gmsaCRD.Name)
			case !apierrors.IsNotFound(err):
				t.Fatal(err)
			case !target.reference:
				t.Skipf("no %s CRD: the cluster runs no GMSA webhook (kubernetes-sigs/windows-gmsa), and the reference one is only registered when no WINK_WEBHOOK_CONFIG is given", gmsaCRD.Name)
			default:
				if _, err := ext.ApiextensionsV1().CustomResourceDefinitions().Create(ctx, gmsaCRD, metav1.CreateOptions{}); err != nil {
					t.Fatalf("creating the GMSACredentialSpec CRD: %v", err)
				}
				cleanup = append(cleanup, func(ctx context.Context) {
					_ = ext.ApiextensionsV1().CustomResourceDefinitions().Delete(ctx, gmsaCRD.Name, metav1.DeleteOptions{})
				})
				m, v := reference.GMSAConfigurations(reference.ConfigOptions{
					URL: "https://" + target.server.Addr(), CABundle: target.server.CABundle(),
					MatchNamespaceLabels: map[string]string{"wink.dev/gmsa": "reference"},
				})
				if err := reference.ApplyConfigurations(ctx, cs, m, v); err != nil {
					t.Fatal(err)
				}
				cleanup = append(cleanup, func(ctx context.Context) { _ = reference.DeleteConfigurations(ctx, cs, m, v) })
			}
			if err := createCredSpec(ctx, cs, credSpec); err != nil {
				t.Fatal(err)
			}
			cleanup = append(cleanup, func(ctx context.Context) {
				_ = cs.Discovery().RESTClient().Delete().AbsPath("/apis", reference.GMSAGroup, reference.GMSAVersion, reference.GMSAResource, credSpec).Do(ctx).Error()
			})
			ns = namespace(ctx, t, cs, "wh-gmsa", map[string]string{"wink.dev/gmsa": "reference"})
			if _, err := cs.CoreV1().ServiceAccounts(ns).Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "gmsa-user"}}, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			return ctx
		}).
		Assess("a service account without `use` on the credential spec is refused", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			want := fmt.Sprintf("service account %q is not authorized to `use` GMSA cred spec %q", "gmsa-user", credSpec)
			// The webhook may take a moment to become effective: retry
			// until the pod is refused for this reason.
			var msg string
			_ = wait.PollUntilContextTimeout(ctx, 250*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
				_, err := cs.CoreV1().Pods(ns).Create(ctx, gmsaPod("unauthorised", credSpec), metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
				if err != nil {
					msg = err.Error()
				} else {
					msg = "admitted"
				}
				return strings.Contains(msg, want), nil
			})
			expectDenied(ctx, t, cs, ns, gmsaPod("unauthorised", credSpec), "A20", want)
			return ctx
		}).
		Assess("with `use` granted the pod is admitted, the credential spec inlined, and the container is in its domain", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			grantUse(ctx, t, cs, ns, credSpec)
			var created *corev1.Pod
			err := wait.PollUntilContextTimeout(ctx, 250*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
				p, err := cs.CoreV1().Pods(ns).Create(ctx, gmsaPod("authorised", credSpec), metav1.CreateOptions{})
				if err != nil {
					t.Logf("not yet admitted: %v", err)
					return false, nil
				}
				created = p
				return true, nil
			})
			if err != nil {
				suite.Fail(t, "A20", "creating a pod whose service account may use the credential spec", "refused", "admitted")
				return ctx
			}
			wo := created.Spec.SecurityContext.WindowsOptions
			suite.ObjectEvidence(t, "windowsOptions of the admitted pod", wo)
			if wo.GMSACredentialSpec == nil || !sameJSONText(*wo.GMSACredentialSpec, gmsaCredSpec) {
				suite.Fail(t, "A20", "gmsaCredentialSpec of the admitted pod", ptr.Deref(wo.GMSACredentialSpec, "<unset>"), gmsaCredSpec)
			}
			suite.WaitPod(ctx, t, cs, ns, created.Name, time.Minute, "Running", suite.Running)
			argv := []string{"cmd", "/c", "nltest", "/PARENTDOMAIN"}
			res := suite.Exec(ctx, t, cfg, ns, created.Name, "main", argv...)
			suite.ExecEvidence(t, created.Name, argv, res)
			if res.ExitCode != 0 || !strings.HasPrefix(res.Stdout, "contoso.com.") {
				suite.Fail(t, "A20", "`nltest /PARENTDOMAIN` in the GMSA pod", res.Stdout, "contoso.com. (1) ... The command completed successfully")
			}
			return ctx
		}).
		Teardown(func(ctx context.Context, t *testing.T, _ *envconf.Config) context.Context {
			for i := len(cleanup) - 1; i >= 0; i-- {
				cleanup[i](ctx)
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// gmsaPod is a Windows pod of service account gmsa-user naming credSpec.
func gmsaPod(name, credSpec string) *corev1.Pod {
	p := suite.WindowsPod(name, suite.Build2022, "ping", "-t", "localhost")
	p.Spec.ServiceAccountName = "gmsa-user"
	p.Spec.SecurityContext = &corev1.PodSecurityContext{WindowsOptions: &corev1.WindowsSecurityContextOptions{GMSACredentialSpecName: ptr.To(credSpec)}}
	return p
}

// createCredSpec creates the GMSACredentialSpec name once its CRD serves.
func createCredSpec(ctx context.Context, cs kubernetes.Interface, name string) error {
	body := fmt.Sprintf(`{"apiVersion":%q,"kind":%q,"metadata":{"name":%q},"credspec":%s}`,
		reference.GMSAGroup+"/"+reference.GMSAVersion, reference.GMSAKind, name, gmsaCredSpec)
	var last error
	err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		last = cs.Discovery().RESTClient().Post().AbsPath("/apis", reference.GMSAGroup, reference.GMSAVersion, reference.GMSAResource).
			SetHeader("Content-Type", "application/json").Body([]byte(body)).Do(ctx).Error()
		return last == nil, nil
	})
	if err != nil {
		return fmt.Errorf("creating GMSACredentialSpec %s: %w", name, last)
	}
	return nil
}

// grantUse lets gmsa-user of ns use the credential spec, as the docs'
// "Configure cluster role to enable RBAC on specific GMSA credential specs"
// step does.
func grantUse(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns, credSpec string) {
	t.Helper()
	role := &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: credSpec + "-role"},
		Rules: []rbacv1.PolicyRule{{
			APIGroups: []string{reference.GMSAGroup}, Resources: []string{reference.GMSAResource},
			Verbs: []string{reference.GMSAVerb}, ResourceNames: []string{credSpec},
		}},
	}
	if _, err := cs.RbacV1().ClusterRoles().Create(ctx, role, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.RbacV1().ClusterRoles().Delete(context.Background(), role.Name, metav1.DeleteOptions{}) })
	binding := &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "allow-gmsa-user"},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: "gmsa-user", Namespace: ns}},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: role.Name},
	}
	if _, err := cs.RbacV1().RoleBindings(ns).Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	suite.ObjectEvidence(t, "RBAC granting `use` on the credential spec", role.Rules)
}

func sameJSONText(a, b string) bool {
	var va, vb any
	if json.Unmarshal([]byte(a), &va) != nil || json.Unmarshal([]byte(b), &vb) != nil {
		return false
	}
	return reflect.DeepEqual(va, vb)
}
