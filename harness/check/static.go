package check

import (
	"fmt"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"wink.dev/wink/reports"
	"wink.dev/wink/simnode/facts"
)

// Static warns about what a Windows pod template asks for that the cluster
// does not show: the apiserver checks the Linux-only securityContext fields
// (A2, A3) only for pods with spec.os.name windows, and a Windows node
// ignores them (A5); HostProcess needs hostNetwork (A8, refused when the
// pods are created, so a template whose pods are never created on this
// platform shows it only here); hostNetwork without HostProcess is not
// host networking on Windows (H7). A template that does not target Windows
// gets none.
func Static(w Workload) []reports.Finding {
	if w.Template == nil {
		return nil
	}
	spec := &w.Template.Spec
	if !TargetOS(spec).IsWindows() {
		return nil
	}
	var out []reports.Finding
	warn := func(code, msg, fix string, rows ...string) {
		out = append(out, reports.Finding{Severity: reports.SeverityWarning, Code: code, Message: msg, Fix: fix, Rows: rows})
	}
	if spec.OS == nil {
		if fields := linuxOnlyFields(spec); len(fields) > 0 {
			warn(CodeLinuxOnlyFields,
				fmt.Sprintf("%s %s targets Windows nodes and sets Linux-only fields a Windows node ignores: %s", w.Kind, w.Name, strings.Join(fields, ", ")),
				"remove them for Windows (or set spec.os.name: windows, and the apiserver refuses them at once)", "A2", "A3", "A5")
		}
	}
	pod := &corev1.Pod{Spec: *spec}
	hostProcess := facts.HostProcess(pod)
	if hostProcess && !spec.HostNetwork {
		warn(CodeHostProcessNet,
			fmt.Sprintf("%s %s runs HostProcess containers without hostNetwork: the apiserver refuses its pods (spec.hostNetwork: Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers)", w.Kind, w.Name),
			"set hostNetwork: true in the pod template", "A8")
	}
	if spec.HostNetwork && !hostProcess {
		warn(CodeHostNetwork,
			fmt.Sprintf("%s %s sets hostNetwork on Windows without HostProcess containers: only HostProcess pods get the host's network on Windows", w.Kind, w.Name),
			"set securityContext.windowsOptions.hostProcess: true (with runAsUserName NT AUTHORITY\\SYSTEM or similar), or drop hostNetwork", "H7")
	}
	return out
}

// linuxOnlyFields are the securityContext fields the apiserver forbids for
// spec.os.name windows (A2 pod level, A3 container level) that a spec sets.
func linuxOnlyFields(spec *corev1.PodSpec) []string {
	var out []string
	if sc := spec.SecurityContext; sc != nil {
		p := "spec.securityContext."
		for name, set := range map[string]bool{
			"appArmorProfile": sc.AppArmorProfile != nil, "seLinuxOptions": sc.SELinuxOptions != nil,
			"seccompProfile": sc.SeccompProfile != nil, "fsGroup": sc.FSGroup != nil,
			"fsGroupChangePolicy": sc.FSGroupChangePolicy != nil, "sysctls": len(sc.Sysctls) > 0,
			"runAsUser": sc.RunAsUser != nil, "runAsGroup": sc.RunAsGroup != nil,
			"supplementalGroups": len(sc.SupplementalGroups) > 0, "supplementalGroupsPolicy": sc.SupplementalGroupsPolicy != nil,
			"seLinuxChangePolicy": sc.SELinuxChangePolicy != nil,
		} {
			if set {
				out = append(out, p+name)
			}
		}
	}
	for name, set := range map[string]bool{
		"spec.hostUsers": spec.HostUsers != nil, "spec.hostPID": spec.HostPID, "spec.hostIPC": spec.HostIPC,
		"spec.shareProcessNamespace": spec.ShareProcessNamespace != nil,
	} {
		if set {
			out = append(out, name)
		}
	}
	visit := func(kind string, cs []corev1.Container) {
		for i, c := range cs {
			sc := c.SecurityContext
			if sc == nil {
				continue
			}
			p := fmt.Sprintf("spec.%s[%d].securityContext.", kind, i)
			for name, set := range map[string]bool{
				"appArmorProfile": sc.AppArmorProfile != nil, "seLinuxOptions": sc.SELinuxOptions != nil,
				"seccompProfile": sc.SeccompProfile != nil, "capabilities": sc.Capabilities != nil,
				"readOnlyRootFilesystem": sc.ReadOnlyRootFilesystem != nil, "privileged": sc.Privileged != nil,
				"allowPrivilegeEscalation": sc.AllowPrivilegeEscalation != nil, "procMount": sc.ProcMount != nil,
				"runAsUser": sc.RunAsUser != nil, "runAsGroup": sc.RunAsGroup != nil,
			} {
				if set {
					out = append(out, p+name)
				}
			}
		}
	}
	visit("initContainers", spec.InitContainers)
	visit("containers", spec.Containers)
	sort.Strings(out)
	return out
}
