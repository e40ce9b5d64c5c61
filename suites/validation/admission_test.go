package validation

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

// rcKey holds the feature's RuntimeClass name in the context.
type rcKey struct{}

var osToleration = corev1.Toleration{Key: "os", Operator: corev1.TolerationOpEqual, Value: "windows", Effect: corev1.TaintEffectNoSchedule}

// admissionArea labels the features of admission plugins (RuntimeClass, Pod
// Security): `wink test --labels area=admission` selects them. They share
// this package's cluster and helpers with the validation features.
const admissionArea = "admission"

// TestRuntimeClassAdmission: row A16, the RuntimeClass admission plugin,
// k8s.io/kubernetes@v1.35.4 plugin/pkg/admission/runtimeclass/admission.go
// (RC below): on pod create it merges scheduling.nodeSelector (RC:187–216;
// a key the pod already sets to another value is a conflict, RC:205) and
// scheduling.tolerations (RC:211, tolerations.MergeTolerations) into the
// pod, and refuses a pod whose RuntimeClass does not exist (RC:155–159).
func TestRuntimeClassAdmission(t *testing.T) {
	// The docs' windows-2022 RuntimeClass (seed 002) under a unique name,
	// with containerd's handler (fixtures/docs/runtimeClasses.yml).
	rcSelector := map[string]string{
		"kubernetes.io/os":                 "windows",
		"kubernetes.io/arch":               "amd64",
		"node.kubernetes.io/windows-build": suite.Build2022,
	}
	rcPod := func(name, rc string) *corev1.Pod {
		p := winPod(name)
		p.Spec.NodeSelector = nil
		p.Spec.Tolerations = nil
		p.Spec.RuntimeClassName = ptr.To(rc)
		return p
	}
	countOS := func(ts []corev1.Toleration) int {
		n := 0
		for _, tol := range ts {
			if tol.MatchToleration(&osToleration) && tol.TolerationSeconds == nil {
				n++
			}
		}
		return n
	}
	f := suite.Feature("RuntimeClass admission merges scheduling into pods and refuses conflicts", admissionArea, "any", "A16").
		Setup(inNamespace("a16-runtimeclass", nil)).
		Setup(func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			rc, err := cs.NodeV1().RuntimeClasses().Create(ctx, &nodev1.RuntimeClass{
				ObjectMeta: metav1.ObjectMeta{GenerateName: "a16-windows-2022-"},
				Handler:    "runhcs-wcow-process",
				Scheduling: &nodev1.Scheduling{NodeSelector: rcSelector, Tolerations: []corev1.Toleration{osToleration}},
			}, metav1.CreateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				_ = cs.NodeV1().RuntimeClasses().Delete(context.Background(), rc.Name, metav1.DeleteOptions{})
			})
			suite.ObjectEvidence(t, "RuntimeClass "+rc.Name, rc)
			return context.WithValue(ctx, rcKey{}, rc.Name)
		}).
		Assess("a pod naming only runtimeClassName gets its nodeSelector and tolerations", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			rc := ctx.Value(rcKey{}).(string)
			got, err := createPod(ctx, cs, namespaceOf(ctx), rcPod("rc-only", rc), false)
			if err != nil {
				t.Fatalf("[A16] %v", err)
			}
			suite.ObjectEvidence(t, "[A16] pod rc-only as stored: spec after admission", got.Spec)
			if !maps.Equal(got.Spec.NodeSelector, rcSelector) {
				t.Errorf("[A16] nodeSelector %v, want the RuntimeClass's %v", got.Spec.NodeSelector, rcSelector)
			}
			if n := countOS(got.Spec.Tolerations); n != 1 {
				t.Errorf("[A16] tolerations %v: the os=windows:NoSchedule toleration appears %d times, want once", got.Spec.Tolerations, n)
			}
			return ctx
		}).
		Assess("the pod's own selector and tolerations are kept and merged", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			rc := ctx.Value(rcKey{}).(string)
			p := rcPod("rc-merge", rc)
			p.Spec.NodeSelector = map[string]string{"kubernetes.io/os": "windows", "example.com/team": "web"}
			extra := corev1.Toleration{Key: "example.com/dedicated", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}
			p.Spec.Tolerations = []corev1.Toleration{osToleration, extra}
			got, err := createPod(ctx, cs, namespaceOf(ctx), p, false)
			if err != nil {
				t.Fatalf("[A16] %v", err)
			}
			suite.ObjectEvidence(t, "[A16] pod rc-merge as stored: spec after admission", got.Spec)
			want := maps.Clone(rcSelector)
			want["example.com/team"] = "web"
			if !maps.Equal(got.Spec.NodeSelector, want) {
				t.Errorf("[A16] nodeSelector %v, want %v", got.Spec.NodeSelector, want)
			}
			if n := countOS(got.Spec.Tolerations); n != 1 {
				t.Errorf("[A16] tolerations %v: os=windows:NoSchedule appears %d times, want once (merged, not duplicated)", got.Spec.Tolerations, n)
			}
			found := false
			for _, tol := range got.Spec.Tolerations {
				found = found || tol.MatchToleration(&extra)
			}
			if !found {
				t.Errorf("[A16] tolerations %v lost the pod's own %v", got.Spec.Tolerations, extra)
			}
			return ctx
		}).
		Assess("a nodeSelector that contradicts the RuntimeClass is a conflict", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			rc := ctx.Value(rcKey{}).(string)
			p := rcPod("rc-conflict", rc)
			p.Spec.NodeSelector = map[string]string{"node.kubernetes.io/windows-build": suite.Build2019}
			_, err := createPod(ctx, cs, namespaceOf(ctx), p, false)
			// RC:205, values unquoted.
			want := podForbidden(p.Name, fmt.Sprintf("conflict: runtimeClass.scheduling.nodeSelector[node.kubernetes.io/windows-build] = %s; pod.spec.nodeSelector[node.kubernetes.io/windows-build] = %s", suite.Build2022, suite.Build2019))
			expectError(t, "A16", "pod "+p.Name, err, want)
			return ctx
		}).
		Assess("a RuntimeClass that does not exist is refused", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			p := rcPod("rc-missing", "a16-no-such-class")
			_, err := createPod(ctx, cs, namespaceOf(ctx), p, false)
			expectError(t, "A16", "pod "+p.Name, err, podForbidden(p.Name, `pod rejected: RuntimeClass "a16-no-such-class" not found`)) // RC:158
			return ctx
		}).
		Assess("a Deployment naming a missing RuntimeClass is stored; its ReplicaSet cannot create pods", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := namespaceOf(ctx)
			d := deploymentOf(rcPod("rc-missing-deploy", "a16-no-such-class"))
			if _, err := cs.AppsV1().Deployments(ns).Create(ctx, d, metav1.CreateOptions{}); err != nil {
				t.Fatalf("[A16] Deployment refused (admission only sees pods): %v", err)
			}
			var rs *appsv1.ReplicaSet
			err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
				list, err := cs.AppsV1().ReplicaSets(ns).List(ctx, metav1.ListOptions{LabelSelector: "app=" + d.Name})
				if err != nil || len(list.Items) == 0 {
					return false, nil
				}
				rs = &list.Items[0]
				return true, nil
			})
			if err != nil {
				t.Fatalf("[A16] no ReplicaSet for Deployment %s", d.Name)
			}
			ev := suite.WaitEvent(ctx, t, cs, ns, "ReplicaSet", rs.Name, "FailedCreate", `is forbidden: pod rejected: RuntimeClass "a16-no-such-class" not found`, time.Minute)
			suite.EventEvidence(t, ev)
			if !strings.HasPrefix(ev.Message, "Error creating: pods \""+rs.Name+"-") {
				t.Errorf("[A16] FailedCreate message %q, want it to start with Error creating: pods \"%s-", ev.Message, rs.Name)
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// Pod Security admission, k8s.io/pod-security-admission@v0.35.4 (PSA below):
// the message is `violates PodSecurity "<level>:<version>": ` (PSA
// admission/admission.go:480–484) followed by `reason (detail)` per failed
// check, joined with ", " (policy/checks.go:106–120), baseline checks first,
// then restricted ones, each group sorted by check ID (policy/registry.go:
// 166–168).
const (
	psaRestricted = `violates PodSecurity "restricted:latest": `
	psaBaseline   = `violates PodSecurity "baseline:latest": `
)

// TestPodSecurityRestricted: row A18. For spec.os.name=windows the restricted
// allowPrivilegeEscalation, capabilities and seccomp checks pass (PSA
// policy/check_allowPrivilegeEscalation.go:89, check_capabilities_restricted.go
// :141, check_seccompProfile_restricted.go:151); runAsNonRoot still applies
// (policy/check_runAsNonRoot.go:132–142).
func TestPodSecurityRestricted(t *testing.T) {
	labels := map[string]string{"pod-security.kubernetes.io/enforce": "restricted"}
	f := suite.Feature("Pod Security restricted skips Linux-only checks for Windows pods but requires runAsNonRoot", admissionArea, "any", "A18").
		Setup(inNamespace("a18-restricted", labels)).
		Assess("a Windows pod without runAsNonRoot is refused for runAsNonRoot only", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			p := winPod("no-runasnonroot")
			_, err := createPod(ctx, suite.Clientset(t, cfg), namespaceOf(ctx), p, false)
			expectError(t, "A18", "pod "+p.Name, err, podForbidden(p.Name,
				psaRestricted+`runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true)`))
			return ctx
		}).
		Assess("a Windows pod that sets runAsNonRoot=false is refused", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			p := winPod("runasnonroot-false")
			csc(p, false, 0).RunAsNonRoot = ptr.To(false)
			_, err := createPod(ctx, suite.Clientset(t, cfg), namespaceOf(ctx), p, false)
			expectError(t, "A18", "pod "+p.Name, err, podForbidden(p.Name,
				psaRestricted+`runAsNonRoot != true (container "c" must not set securityContext.runAsNonRoot=false)`))
			return ctx
		}).
		Assess("a Windows pod with runAsNonRoot=true and nothing else is admitted and runs", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := namespaceOf(ctx)
			p := winPod("runasnonroot")
			sc(p).RunAsNonRoot = ptr.To(true)
			_, err := createPod(ctx, cs, ns, p, false)
			if err != nil {
				t.Fatalf("[A18] %v", err)
			}
			got := suite.WaitPod(ctx, t, cs, ns, p.Name, 2*time.Minute, "Running", suite.Running)
			suite.ObjectEvidence(t, fmt.Sprintf("[A18] pod %s/%s admitted under restricted, Running on %s", ns, p.Name, got.Spec.NodeName), got)
			return ctx
		}).
		Assess("the same pod without spec.os is refused for the Linux checks", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			p := winPod("runasnonroot-no-os")
			p.Spec.OS = nil
			sc(p).RunAsNonRoot = ptr.To(true)
			_, err := createPod(ctx, suite.Clientset(t, cfg), namespaceOf(ctx), p, false)
			expectError(t, "A18", "pod "+p.Name, err, podForbidden(p.Name, psaRestricted+
				`allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), `+
				`unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), `+
				`seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`))
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// TestPodSecurityBaseline: row A19. HostProcess pods need host networking
// (row A8), so baseline reports both checks: host namespaces (PSA
// policy/check_hostNamespaces.go:73–78) and hostProcess
// (policy/check_windowsHostProcess.go:93–99).
func TestPodSecurityBaseline(t *testing.T) {
	labels := map[string]string{"pod-security.kubernetes.io/enforce": "baseline"}
	f := suite.Feature("Pod Security baseline refuses HostProcess pods", admissionArea, "any", "A19").
		Setup(inNamespace("a19-baseline", labels)).
		Assess("pod-level hostProcess", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			p := hostProcessPod("hostprocess-pod")
			_, err := createPod(ctx, suite.Clientset(t, cfg), namespaceOf(ctx), p, false)
			expectError(t, "A19", "pod "+p.Name, err, podForbidden(p.Name, psaBaseline+
				`host namespaces (hostNetwork=true), hostProcess (pod must not set securityContext.windowsOptions.hostProcess=true)`))
			return ctx
		}).
		Assess("container-level hostProcess", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			p := hostProcessPod("hostprocess-container")
			p.Spec.SecurityContext.WindowsOptions.HostProcess = nil
			cWinOpts(p, false, 0).HostProcess = ptr.To(true)
			_, err := createPod(ctx, suite.Clientset(t, cfg), namespaceOf(ctx), p, false)
			expectError(t, "A19", "pod "+p.Name, err, podForbidden(p.Name, psaBaseline+
				`host namespaces (hostNetwork=true), hostProcess (container "c" must not set securityContext.windowsOptions.hostProcess=true)`))
			return ctx
		}).
		Assess("a regular Windows pod is admitted", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			p := winPod("regular")
			got, err := createPod(ctx, suite.Clientset(t, cfg), namespaceOf(ctx), p, true)
			expectAccepted(t, "A19", "pod "+p.Name+" (dry-run)", got, err)
			return ctx
		}).Feature()
	testenv.Test(t, f)
}
