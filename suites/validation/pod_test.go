package validation

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

// The apiserver's pod validation, k8s.io/kubernetes@v1.35.4
// pkg/apis/core/validation/validation.go (VAL below):
//
//	validateOS                          VAL:8594–8607
//	validateLinux                       VAL:4842–4857
//	validateWindows                     VAL:4859–4953
//	validatePodResources                VAL:4736–4748
//	ValidatePodResize (windows)         VAL:6228–6231
const forbiddenWindows = "Forbidden: cannot be set for a windows pod"

// TestSpecOS: row A1. VAL:8601 field.Required(spec.os.name, ""), VAL:8604
// field.NotSupported(spec.os, name, ["linux", "windows"]) (validOS, VAL:122).
func TestSpecOS(t *testing.T) {
	unsupported := func(path, v string) string {
		return fmt.Sprintf(`%s: Unsupported value: %q: supported values: "linux", "windows"`, path, v)
	}
	osName := func(n string) func(*corev1.Pod) {
		return func(p *corev1.Pod) { p.Spec.OS = &corev1.PodOS{Name: corev1.OSName(n)} }
	}
	cases := []podCase{
		{name: "os-foo", mutate: osName("foo"), errs: []string{unsupported("spec.os", "foo")}},
		{name: "os-capital-windows", mutate: osName("Windows"), errs: []string{unsupported("spec.os", "Windows")}},
		{name: "os-empty", mutate: osName(""), errs: []string{"spec.os.name: Required value"}},
		{name: "os-foo", mutate: osName("foo"), deployment: true, errs: []string{unsupported("spec.template.spec.os", "foo")}},
		{name: "os-windows", mutate: osName("windows"), dry: true},
		{name: "os-linux", mutate: osName("linux"), dry: true},
	}
	b := suite.Feature("spec.os.name must be linux or windows", area, "any", "A1").
		Setup(inNamespace("a1-os", nil))
	testenv.Test(t, assessPods(b, "A1", winPod, cases).Feature())
}

// TestWindowsPodLevelFields: row A2, one pod per pod-level field that
// validateWindows forbids (VAL:4864–4908, in its order), then all of them
// at once (joined in that order) and the Deployment template path.
func TestWindowsPodLevelFields(t *testing.T) {
	fields := []struct {
		path string
		set  func(*corev1.Pod)
	}{
		{"spec.securityContext.appArmorProfile", func(p *corev1.Pod) { // VAL:4865
			sc(p).AppArmorProfile = &corev1.AppArmorProfile{Type: corev1.AppArmorProfileTypeRuntimeDefault}
		}},
		{"spec.securityContext.seLinuxOptions", func(p *corev1.Pod) { // VAL:4868
			sc(p).SELinuxOptions = &corev1.SELinuxOptions{Level: "s0:c24,c9"}
		}},
		{"spec.hostUsers", func(p *corev1.Pod) { p.Spec.HostUsers = ptr.To(false) }}, // VAL:4871
		{"spec.hostPID", func(p *corev1.Pod) { p.Spec.HostPID = true }},              // VAL:4874
		{"spec.hostIPC", func(p *corev1.Pod) { p.Spec.HostIPC = true }},              // VAL:4877
		{"spec.securityContext.seccompProfile", func(p *corev1.Pod) { // VAL:4880
			sc(p).SeccompProfile = &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault}
		}},
		{"spec.securityContext.fsGroup", func(p *corev1.Pod) { sc(p).FSGroup = ptr.To[int64](2000) }}, // VAL:4883
		{"spec.securityContext.fsGroupChangePolicy", func(p *corev1.Pod) { // VAL:4886
			sc(p).FSGroupChangePolicy = ptr.To(corev1.FSGroupChangeOnRootMismatch)
		}},
		{"spec.securityContext.sysctls", func(p *corev1.Pod) { // VAL:4889
			// A net.* sysctl: an IPC one would also meet hostIPC in the
			// all-at-once case (VAL:5496 ValidateHostSysctl).
			sc(p).Sysctls = []corev1.Sysctl{{Name: "net.ipv4.tcp_syncookies", Value: "1"}}
		}},
		{"spec.shareProcessNamespace", func(p *corev1.Pod) { p.Spec.ShareProcessNamespace = ptr.To(true) }}, // VAL:4892
		{"spec.securityContext.runAsUser", func(p *corev1.Pod) { sc(p).RunAsUser = ptr.To[int64](1000) }},   // VAL:4895
		{"spec.securityContext.runAsGroup", func(p *corev1.Pod) { sc(p).RunAsGroup = ptr.To[int64](3000) }}, // VAL:4898
		{"spec.securityContext.supplementalGroups", func(p *corev1.Pod) { // VAL:4901
			sc(p).SupplementalGroups = []int64{4000}
		}},
		{"spec.securityContext.supplementalGroupsPolicy", func(p *corev1.Pod) { // VAL:4904
			sc(p).SupplementalGroupsPolicy = ptr.To(corev1.SupplementalGroupsPolicyMerge)
		}},
		{"spec.securityContext.seLinuxChangePolicy", func(p *corev1.Pod) { // VAL:4907
			// Recursive: MountOption also needs the SELinuxMount gate (off
			// in v1.35), else validateSELinuxChangePolicy adds `Unsupported
			// value: "MountOption": supported values: "Recursive"`.
			sc(p).SELinuxChangePolicy = ptr.To(corev1.SELinuxChangePolicyRecursive)
		}},
	}
	var cases []podCase
	var all []string
	for i, f := range fields {
		cases = append(cases, podCase{name: fmt.Sprintf("pod-field-%02d", i), mutate: f.set, errs: []string{f.path + ": " + forbiddenWindows}})
		all = append(all, f.path+": "+forbiddenWindows)
	}
	setAll := func(p *corev1.Pod) {
		for _, f := range fields {
			f.set(p)
		}
		// Values that keep the OS errors alone: hostUsers=false with
		// hostPID/hostIPC adds validateHostUsers' errors (VAL:3940–3945),
		// shareProcessNamespace=true with hostPID adds VAL:5552's. Any
		// value is forbidden for a windows pod (validateWindows tests != nil).
		p.Spec.HostUsers = ptr.To(true)
		p.Spec.ShareProcessNamespace = ptr.To(false)
	}
	cases = append(cases, podCase{name: "pod-fields-all", mutate: setAll, errs: all})
	cases = append(cases, podCase{
		name: "pod-field-runasuser", deployment: true,
		mutate: fields[10].set,
		errs:   []string{"spec.template.spec.securityContext.runAsUser: " + forbiddenWindows},
	})
	b := suite.Feature("pod-level Linux fields are forbidden for spec.os.name=windows", area, "any", "A2").
		Setup(inNamespace("a2-pod-fields", nil))
	testenv.Test(t, assessPods(b, "A2", winPod, cases).Feature())
}

// TestWindowsContainerLevelFields: row A3, every container-level field that
// validateWindows forbids (VAL:4919–4948), in a regular and in an init
// container, through the ephemeralcontainers subresource, and the two that
// stay allowed (runAsNonRoot, windowsOptions).
func TestWindowsContainerLevelFields(t *testing.T) {
	fields := []struct {
		name string
		set  func(*corev1.SecurityContext)
	}{
		{"appArmorProfile", func(s *corev1.SecurityContext) { // VAL:4920
			s.AppArmorProfile = &corev1.AppArmorProfile{Type: corev1.AppArmorProfileTypeRuntimeDefault}
		}},
		{"seLinuxOptions", func(s *corev1.SecurityContext) { s.SELinuxOptions = &corev1.SELinuxOptions{Level: "s0:c24,c9"} }}, // VAL:4923
		{"seccompProfile", func(s *corev1.SecurityContext) { // VAL:4926
			s.SeccompProfile = &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault}
		}},
		{"capabilities", func(s *corev1.SecurityContext) { // VAL:4929
			s.Capabilities = &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}}
		}},
		{"readOnlyRootFilesystem", func(s *corev1.SecurityContext) { s.ReadOnlyRootFilesystem = ptr.To(true) }},      // VAL:4932
		{"privileged", func(s *corev1.SecurityContext) { s.Privileged = ptr.To(false) }},                             // VAL:4935
		{"allowPrivilegeEscalation", func(s *corev1.SecurityContext) { s.AllowPrivilegeEscalation = ptr.To(false) }}, // VAL:4938
		{"procMount", func(s *corev1.SecurityContext) { s.ProcMount = ptr.To(corev1.DefaultProcMount) }},             // VAL:4941
		{"runAsUser", func(s *corev1.SecurityContext) { s.RunAsUser = ptr.To[int64](1000) }},                         // VAL:4944
		{"runAsGroup", func(s *corev1.SecurityContext) { s.RunAsGroup = ptr.To[int64](3000) }},                       // VAL:4947
	}
	var cases []podCase
	for _, init := range []bool{false, true} {
		list := "containers"
		if init {
			list = "initContainers"
		}
		for _, f := range fields {
			cases = append(cases, podCase{
				name:   fmt.Sprintf("%s-%s", map[bool]string{false: "c", true: "init"}[init], lower(f.name)),
				mutate: func(p *corev1.Pod) { f.set(csc(p, init, 0)) },
				errs:   []string{fmt.Sprintf("spec.%s[0].securityContext.%s: %s", list, f.name, forbiddenWindows)},
			})
		}
	}
	// Init containers are visited before regular ones
	// (pkg/apis/core/pods/helpers.go:35 VisitContainersWithPath).
	cases = append(cases, podCase{
		name: "both-runasuser",
		mutate: func(p *corev1.Pod) {
			csc(p, false, 0).RunAsUser = ptr.To[int64](1000)
			csc(p, true, 0).RunAsUser = ptr.To[int64](1000)
		},
		errs: []string{
			"spec.initContainers[0].securityContext.runAsUser: " + forbiddenWindows,
			"spec.containers[0].securityContext.runAsUser: " + forbiddenWindows,
		},
	}, podCase{
		name: "c-privileged", deployment: true,
		mutate: func(p *corev1.Pod) { csc(p, false, 0).Privileged = ptr.To(true) },
		errs:   []string{"spec.template.spec.containers[0].securityContext.privileged: " + forbiddenWindows},
	}, podCase{
		// runAsNonRoot and windowsOptions stay allowed (they are not in
		// validateWindows): the pod is created for real.
		name: "allowed-runasnonroot-windowsoptions",
		mutate: func(p *corev1.Pod) {
			for _, init := range []bool{false, true} {
				s := csc(p, init, 0)
				s.RunAsNonRoot = ptr.To(true)
				s.WindowsOptions = &corev1.WindowsSecurityContextOptions{RunAsUserName: ptr.To("ContainerUser")}
			}
		},
	})
	b := suite.Feature("container-level Linux fields are forbidden for spec.os.name=windows", area, "any", "A3").
		Setup(inNamespace("a3-container-fields", nil))
	b = assessPods(b, "A3", func(n string) *corev1.Pod { return withInit(winPod(n)) }, cases)
	b = b.Assess("ephemeral container runAsUser (ephemeralcontainers subresource)", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
		cs := suite.Clientset(t, cfg)
		ns := namespaceOf(ctx)
		if _, err := createPod(ctx, cs, ns, winPod("ephemeral"), false); err != nil {
			t.Fatal(err)
		}
		// As `kubectl debug` does: read the pod, add the container, update;
		// again if the scheduler or the kubelet changed the pod meanwhile.
		var p *corev1.Pod
		err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
			var err error
			if p, err = cs.CoreV1().Pods(ns).Get(ctx, "ephemeral", metav1.GetOptions{}); err != nil {
				return err
			}
			p.Spec.EphemeralContainers = []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon{
				Name: "debugger", Image: image, Command: []string{"cmd"},
				SecurityContext: &corev1.SecurityContext{RunAsUser: ptr.To[int64](1000)},
			}}}
			_, err = cs.CoreV1().Pods(ns).UpdateEphemeralContainers(ctx, p.Name, p, metav1.UpdateOptions{})
			return err
		})
		expectError(t, "A3", "ephemeral container of pod "+p.Name, err,
			podInvalid(p.Name, "spec.ephemeralContainers[0].securityContext.runAsUser: "+forbiddenWindows))
		return ctx
	})
	testenv.Test(t, b.Feature())
}

func lower(s string) string {
	out := []rune{}
	for _, r := range s {
		if r >= 'A' && r <= 'Z' {
			r += 'a' - 'A'
		}
		out = append(out, r)
	}
	return string(out)
}

// TestLinuxWindowsOptions: row A4, validateLinux (VAL:4842–4857): pod level
// first, then the containers in VisitContainersWithPath's order.
func TestLinuxWindowsOptions(t *testing.T) {
	const detail = "Forbidden: windows options cannot be set for a linux pod"
	opts := func() *corev1.WindowsSecurityContextOptions {
		return &corev1.WindowsSecurityContextOptions{RunAsUserName: ptr.To("ContainerUser")}
	}
	withInitLinux := func(n string) *corev1.Pod {
		p := linuxPod(n)
		p.Spec.InitContainers = []corev1.Container{{Name: "init", Image: p.Spec.Containers[0].Image, Command: []string{"true"}}}
		return p
	}
	cases := []podCase{
		{name: "pod-windowsoptions", mutate: func(p *corev1.Pod) { sc(p).WindowsOptions = opts() },
			errs: []string{"spec.securityContext.windowsOptions: " + detail}},
		{name: "container-windowsoptions", mutate: func(p *corev1.Pod) { csc(p, false, 0).WindowsOptions = opts() },
			errs: []string{"spec.containers[0].securityContext.windowsOptions: " + detail}},
		{name: "init-windowsoptions", mutate: func(p *corev1.Pod) { csc(p, true, 0).WindowsOptions = opts() },
			errs: []string{"spec.initContainers[0].securityContext.windowsOptions: " + detail}},
		{name: "all-windowsoptions", mutate: func(p *corev1.Pod) {
			sc(p).WindowsOptions = opts()
			csc(p, false, 0).WindowsOptions = opts()
			csc(p, true, 0).WindowsOptions = opts()
		}, errs: []string{
			"spec.securityContext.windowsOptions: " + detail,
			"spec.initContainers[0].securityContext.windowsOptions: " + detail,
			"spec.containers[0].securityContext.windowsOptions: " + detail,
		}},
		{name: "pod-windowsoptions", deployment: true, mutate: func(p *corev1.Pod) { sc(p).WindowsOptions = opts() },
			errs: []string{"spec.template.spec.securityContext.windowsOptions: " + detail}},
		{name: "container-windowsoptions", deployment: true, mutate: func(p *corev1.Pod) { csc(p, false, 0).WindowsOptions = opts() },
			errs: []string{"spec.template.spec.containers[0].securityContext.windowsOptions: " + detail}},
	}
	b := suite.Feature("windowsOptions are forbidden for spec.os.name=linux", area, "any", "A4").
		Setup(inNamespace("a4-linux", nil))
	testenv.Test(t, assessPods(b, "A4", withInitLinux, cases).Feature())
}

// TestNoOSFieldIgnoresLinuxFields: row A5. Without spec.os, validateWindows
// does not run (VAL:4716: only `if spec.OS != nil`): the Linux-only fields
// are accepted and kept, and a Windows node runs the pod anyway (upstream
// e2e test/e2e/windows/security_context.go:139 "should ignore Linux
// Specific SecurityContext if set").
func TestNoOSFieldIgnoresLinuxFields(t *testing.T) {
	f := suite.Feature("without spec.os, Linux-only fields are accepted and ignored on Windows", area, "any", "A5").
		Setup(inNamespace("a5-no-os", nil)).
		Assess("a pod with Linux securityContext fields runs on a Windows node", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := namespaceOf(ctx)
			p := winPod("linux-fields")
			p.Spec.OS = nil
			s := sc(p)
			s.SELinuxOptions = &corev1.SELinuxOptions{Level: "s0:c24,c9"}
			s.RunAsUser = ptr.To[int64](1000)
			s.RunAsGroup = ptr.To[int64](3000)
			s.FSGroup = ptr.To[int64](2000)
			s.SupplementalGroups = []int64{4000}
			s.SeccompProfile = &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault}
			c := csc(p, false, 0)
			c.SELinuxOptions = &corev1.SELinuxOptions{Level: "s0:c24,c9"}
			c.Capabilities = &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}}
			c.AllowPrivilegeEscalation = ptr.To(false)
			c.RunAsUser = ptr.To[int64](1000)
			created, err := createPod(ctx, cs, ns, p, false)
			if err != nil {
				t.Fatalf("[A5] pod without spec.os refused: %v", err)
			}
			// The apiserver keeps the fields: nothing is stripped.
			if cs := created.Spec.SecurityContext; cs == nil || cs.RunAsUser == nil || cs.SELinuxOptions == nil || cs.FSGroup == nil {
				t.Errorf("[A5] the stored pod lost its Linux fields: %+v", cs)
			}
			got := suite.WaitPod(ctx, t, cs, ns, p.Name, 2*time.Minute, "Running", suite.Running)
			node, err := cs.CoreV1().Nodes().Get(ctx, got.Spec.NodeName, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			suite.ObjectEvidence(t, fmt.Sprintf("[A5] pod %s/%s Running on %s (os %s)", ns, p.Name, node.Name, node.Labels["kubernetes.io/os"]), got)
			if node.Labels["kubernetes.io/os"] != "windows" {
				t.Errorf("[A5] pod runs on %s, kubernetes.io/os=%q, want a Windows node", node.Name, node.Labels["kubernetes.io/os"])
			}
			return ctx
		}).Feature()
	testenv.Test(t, f)
}

// TestWindowsPodLevelResources: row A12. validatePodResources VAL:4741–4746
// returns only this error for a windows pod; the same resources on a Linux
// pod pass (PodLevelResources is beta, on by default, in v1.35).
func TestWindowsPodLevelResources(t *testing.T) {
	res := func(p *corev1.Pod) {
		p.Spec.Resources = &corev1.ResourceRequirements{
			Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("128Mi")},
			Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m"), corev1.ResourceMemory: resource.MustParse("256Mi")},
		}
	}
	const detail = "Forbidden: may not be set for a windows pod"
	cases := []podCase{
		{name: "pod-resources", mutate: res, errs: []string{"spec.resources: " + detail}},
		{name: "pod-resources", deployment: true, mutate: res, errs: []string{"spec.template.spec.resources: " + detail}},
	}
	b := suite.Feature("pod-level resources are forbidden for spec.os.name=windows", area, "any", "A12").
		Setup(inNamespace("a12-resources", nil))
	b = assessPods(b, "A12", winPod, cases)
	b = assessPods(b, "A12", linuxPod, []podCase{{name: "linux-pod-resources", mutate: res, dry: true}})
	testenv.Test(t, b.Feature())
}

// TestWindowsPodResize: row A13. ValidatePodResize VAL:6228–6231 returns
// field.Forbidden(field.NewPath(""), "windows pods cannot be resized"): the
// empty path prints as "[]".
func TestWindowsPodResize(t *testing.T) {
	f := suite.Feature("Windows pods cannot be resized in place", area, "any", "A13").
		Setup(inNamespace("a13-resize", nil)).
		Assess("the resize subresource refuses a Windows pod", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := namespaceOf(ctx)
			p := winPod("resize")
			p.Spec.Containers[0].Resources = corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("128Mi")},
				Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("200m"), corev1.ResourceMemory: resource.MustParse("256Mi")},
			}
			created, err := createPod(ctx, cs, ns, p, false)
			if err != nil {
				t.Fatal(err)
			}
			created = suite.WaitPod(ctx, t, cs, ns, p.Name, 2*time.Minute, "Running", suite.Running)
			created.Spec.Containers[0].Resources.Limits[corev1.ResourceCPU] = resource.MustParse("300m")
			_, err = cs.CoreV1().Pods(ns).UpdateResize(ctx, p.Name, created, metav1.UpdateOptions{})
			expectError(t, "A13", "resize of pod "+p.Name, err, podInvalid(p.Name, "[]: Forbidden: windows pods cannot be resized"))
			return ctx
		}).Feature()
	testenv.Test(t, f)
}
