package validation

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

// HostProcess rules, validateWindowsHostProcessPod, k8s.io/kubernetes@v1.35.4
// pkg/apis/core/validation/validation.go:8528–8591 (VAL):
//
//	A6 VAL:8553–8556 field.Invalid(<container>.securityContext.windowsOptions.hostProcess, <containerValue>, "pod hostProcess value must be identical if both are specified, was <podValue>")
//	A7 VAL:8573–8576 field.Invalid(spec, "", "If pod contains any hostProcess containers then all containers must be HostProcess containers")
//	A8 VAL:8578–8582 field.Invalid(spec.hostNetwork, false, "hostNetwork must be true if pod contains any hostProcess containers")
//	A9 VAL:8583–8586 field.Forbidden(spec, "hostProcess containers are disallowed by cluster policy") when --allow-privileged=false
//
// They hold whatever spec.os says (validatePodSpec calls the check for every
// pod, VAL:4660); the pods here say windows, as HostProcess pods should.
const (
	a6Msg = "pod hostProcess value must be identical if both are specified, was "
	a7Err = `spec: Invalid value: "": If pod contains any hostProcess containers then all containers must be HostProcess containers`
	a8Err = "spec.hostNetwork: Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers"
	a9Err = "spec: Forbidden: hostProcess containers are disallowed by cluster policy"
)

// hostProcessPod is a valid HostProcess pod: pod-level hostProcess, host
// network, the SYSTEM account (e2e test/e2e/windows/host_process.go).
func hostProcessPod(name string) *corev1.Pod {
	p := winPod(name)
	p.Spec.HostNetwork = true
	winOpts(p).HostProcess = ptr.To(true)
	winOpts(p).RunAsUserName = ptr.To(`NT AUTHORITY\SYSTEM`)
	return p
}

// twoContainers adds a second container "c2" to a pod.
func twoContainers(p *corev1.Pod) *corev1.Pod {
	c := p.Spec.Containers[0]
	c.Name = "c2"
	c.SecurityContext = nil
	p.Spec.Containers = append(p.Spec.Containers, c)
	return p
}

func TestHostProcessAgreement(t *testing.T) {
	cases := []podCase{
		{
			// The catalog's example: pod true, containers[1] false. Its
			// container is then not HostProcess while containers[0]
			// (inheriting true) is, so A7's error comes with it.
			name: "pod-true-container-false",
			mutate: func(p *corev1.Pod) {
				twoContainers(p)
				cWinOpts(p, false, 1).HostProcess = ptr.To(false)
			},
			errs: []string{
				"spec.containers[1].securityContext.windowsOptions.hostProcess: Invalid value: false: " + a6Msg + "true",
				a7Err,
			},
		},
		{
			// Alone: pod false, its only container true.
			name: "pod-false-container-true",
			mutate: func(p *corev1.Pod) {
				winOpts(p).HostProcess = ptr.To(false)
				cWinOpts(p, false, 0).HostProcess = ptr.To(true)
			},
			errs: []string{"spec.containers[0].securityContext.windowsOptions.hostProcess: Invalid value: true: " + a6Msg + "false"},
		},
		{
			name: "init-disagrees",
			mutate: func(p *corev1.Pod) {
				withInit(p)
				winOpts(p).HostProcess = ptr.To(false)
				cWinOpts(p, true, 0).HostProcess = ptr.To(true)
				cWinOpts(p, false, 0).HostProcess = ptr.To(true)
			},
			errs: []string{
				"spec.initContainers[0].securityContext.windowsOptions.hostProcess: Invalid value: true: " + a6Msg + "false",
				"spec.containers[0].securityContext.windowsOptions.hostProcess: Invalid value: true: " + a6Msg + "false",
			},
		},
		{name: "agree", dry: true},
		{
			name: "pod-true-container-false", deployment: true,
			mutate: func(p *corev1.Pod) {
				winOpts(p).HostProcess = ptr.To(true)
				cWinOpts(p, false, 0).HostProcess = ptr.To(false)
			},
			errs: []string{"spec.template.spec.containers[0].securityContext.windowsOptions.hostProcess: Invalid value: false: " + a6Msg + "true"},
		},
	}
	b := suite.Feature("HostProcess pod and container values must agree", area, "any", "A6").
		Setup(inNamespace("a6-hostprocess", nil))
	testenv.Test(t, assessPods(b, "A6", hostProcessPod, cases).Feature())
}

func TestHostProcessAllOrNone(t *testing.T) {
	// Container-level HostProcess only (no pod-level value).
	base := func(n string) *corev1.Pod {
		p := hostProcessPod(n)
		p.Spec.SecurityContext.WindowsOptions.HostProcess = nil
		cWinOpts(p, false, 0).HostProcess = ptr.To(true)
		return p
	}
	cases := []podCase{
		{name: "second-container-not-hostprocess", mutate: func(p *corev1.Pod) { twoContainers(p) }, errs: []string{a7Err}},
		{name: "init-not-hostprocess", mutate: func(p *corev1.Pod) { withInit(p) }, errs: []string{a7Err}},
		{name: "all-containers-hostprocess", mutate: func(p *corev1.Pod) {
			twoContainers(p)
			cWinOpts(p, false, 1).HostProcess = ptr.To(true)
		}, dry: true},
		{name: "second-container-not-hostprocess", deployment: true, mutate: func(p *corev1.Pod) { twoContainers(p) },
			errs: []string{`spec.template.spec: Invalid value: "": If pod contains any hostProcess containers then all containers must be HostProcess containers`}},
	}
	b := suite.Feature("any HostProcess container makes all of them HostProcess", area, "any", "A7").
		Setup(inNamespace("a7-hostprocess", nil))
	testenv.Test(t, assessPods(b, "A7", base, cases).Feature())
}

func TestHostProcessNeedsHostNetwork(t *testing.T) {
	noHostNet := func(p *corev1.Pod) { p.Spec.HostNetwork = false }
	cases := []podCase{
		{name: "pod-hostprocess", mutate: noHostNet, errs: []string{a8Err}},
		{name: "container-hostprocess", mutate: func(p *corev1.Pod) {
			noHostNet(p)
			p.Spec.SecurityContext.WindowsOptions.HostProcess = nil
			cWinOpts(p, false, 0).HostProcess = ptr.To(true)
		}, errs: []string{a8Err}},
		{name: "pod-hostprocess", deployment: true, mutate: noHostNet,
			errs: []string{"spec.template.spec.hostNetwork: Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers"}},
		{
			// A7 and A8 together, in validateWindowsHostProcessPod's order.
			name: "mixed-without-hostnetwork",
			mutate: func(p *corev1.Pod) {
				noHostNet(p)
				p.Spec.SecurityContext.WindowsOptions.HostProcess = nil
				twoContainers(p)
				cWinOpts(p, false, 0).HostProcess = ptr.To(true)
			},
			errs: []string{a7Err, a8Err},
		},
	}
	b := suite.Feature("HostProcess requires hostNetwork", area, "any", "A8").
		Setup(inNamespace("a8-hostprocess", nil))
	testenv.Test(t, assessPods(b, "A8", hostProcessPod, cases).Feature())
}

// TestHostProcessDisallowedByPolicy: row A9 holds only on an apiserver run
// with --allow-privileged=false. The feature asks the cluster (dry-run):
// where a valid HostProcess pod is accepted, privileged pods are allowed and
// the row cannot be observed, so it skips; where it is refused, the message
// must be A9's.
func TestHostProcessDisallowedByPolicy(t *testing.T) {
	f := suite.Feature("HostProcess pods are refused with --allow-privileged=false", area, "any", "A9").
		Setup(inNamespace("a9-hostprocess", nil)).
		Assess("a valid HostProcess pod", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			p := hostProcessPod("hostprocess")
			_, err := createPod(ctx, cs, namespaceOf(ctx), p, true)
			if err == nil {
				if cluster.Simulated {
					t.Skip("[A9] needs kube-apiserver --allow-privileged=false; wink's embedded control plane runs with --allow-privileged=true (harness/internal/embedded/embedded.go), so the HostProcess pod is accepted")
				}
				t.Skip("[A9] needs kube-apiserver --allow-privileged=false; this cluster accepts a HostProcess pod, so it allows privileged containers")
			}
			expectError(t, "A9", "pod "+p.Name, err, podInvalid(p.Name, a9Err))
			return ctx
		}).Feature()
	testenv.Test(t, f)
}
