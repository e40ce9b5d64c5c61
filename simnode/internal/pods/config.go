package pods

import (
	"encoding/json"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/simnode/internal/pods/containerenv"
	"wink.dev/wink/simnode/rules"
)

// This file is the kubelet's container configuration beside its
// environment (package containerenv): the process it runs (command, args
// and the image's entrypoint), the user it runs as (B8, B9), HostProcess
// (B10) and GMSA.

// podFormat is format.Pod: <name>_<namespace>(<uid>).
func podFormat(pod *corev1.Pod) string {
	return fmt.Sprintf("%s_%s(%s)", pod.Name, pod.Namespace, pod.UID)
}

// argvOf is the process a container runs: its command and args, with the
// image's entrypoint and cmd where they are unset (the OCI/CRI rule: a
// command replaces entrypoint and cmd; args alone replace cmd). For an
// image whose ENTRYPOINT and CMD wink does not know, a container that sets
// neither runs the image's unknown default process: argv is empty (the
// shell runs it until stopped), not the catalog's guess for unknown images.
func argvOf(c *corev1.Container, img Image, env map[string]string) []string {
	command, args := c.Command, c.Args
	if !img.Known && len(command) == 0 && len(args) == 0 {
		return nil
	}
	if len(command) == 0 {
		command = img.Entrypoint
		if len(args) == 0 {
			args = img.Cmd
		}
	}
	return containerenv.ExpandArgv(command, args, env)
}

func podUserName(pod *corev1.Pod) *string {
	if sc := pod.Spec.SecurityContext; sc != nil && sc.WindowsOptions != nil {
		return sc.WindowsOptions.RunAsUserName
	}
	return nil
}

func containerUserName(c *corev1.Container) *string {
	if sc := c.SecurityContext; sc != nil && sc.WindowsOptions != nil {
		return sc.WindowsOptions.RunAsUserName
	}
	return nil
}

// userFor is the user a Windows container runs as (B9): its runAsUserName,
// else the pod's, else the image's user, else the default.
func userFor(r *rules.RuntimeRules, pod *corev1.Pod, c *corev1.Container, img Image) string {
	if u := containerUserName(c); u != nil {
		return *u
	}
	if u := podUserName(pod); u != nil {
		return *u
	}
	if facts.HostProcess(pod) && len(r.Users.HostProcess) > 0 {
		return r.Users.HostProcess[0]
	}
	if img.User != "" {
		return img.User
	}
	return r.Users.DefaultUser
}

// verifyRunAsNonRoot is security_context_windows.go (B8) and, on Linux
// nodes, security_context_others.go.
func verifyRunAsNonRoot(r *rules.RuntimeRules, os facts.OS, pod *corev1.Pod, c *corev1.Container, img Image) error {
	var nonRoot *bool
	if sc := pod.Spec.SecurityContext; sc != nil && sc.RunAsNonRoot != nil {
		nonRoot = sc.RunAsNonRoot
	}
	if sc := c.SecurityContext; sc != nil && sc.RunAsNonRoot != nil {
		nonRoot = sc.RunAsNonRoot
	}
	if nonRoot == nil || !*nonRoot {
		return nil
	}
	d := rules.MessageData{Pod: podFormat(pod), Container: c.Name}
	if os.IsWindows() {
		if facts.HostProcess(pod) {
			return nil
		}
		name := containerUserName(c)
		if name == nil {
			name = podUserName(pod)
		}
		if name != nil {
			if strings.EqualFold(*name, r.Users.RootUser) {
				d.User = *name
				return fmt.Errorf("%s", r.Message("nonRootUserNameMessage", d))
			}
			return nil
		}
		if strings.EqualFold(img.User, r.Users.RootUser) {
			d.User = img.User
			return fmt.Errorf("%s", r.Message("nonRootImageUserMessage", d))
		}
		return nil
	}
	var uid *int64
	if sc := pod.Spec.SecurityContext; sc != nil && sc.RunAsUser != nil {
		uid = sc.RunAsUser
	}
	if sc := c.SecurityContext; sc != nil && sc.RunAsUser != nil {
		uid = sc.RunAsUser
	}
	if uid != nil {
		if *uid == 0 {
			return fmt.Errorf("%s", r.Message("nonRootLinuxUIDMessage", d))
		}
		return nil
	}
	if img.User == "" || img.User == "0" || img.User == "root" || strings.HasPrefix(img.User, "0:") {
		return fmt.Errorf("%s", r.Message("nonRootLinuxImageMessage", d))
	}
	return nil
}

// gmsaDomain is the DNS domain of the pod's (or container's) GMSA
// credential spec (DomainJoinConfig.DnsName), what `nltest /PARENTDOMAIN`
// prints.
func gmsaDomain(pod *corev1.Pod, c *corev1.Container) string {
	var spec *string
	if sc := pod.Spec.SecurityContext; sc != nil && sc.WindowsOptions != nil && sc.WindowsOptions.GMSACredentialSpec != nil {
		spec = sc.WindowsOptions.GMSACredentialSpec
	}
	if sc := c.SecurityContext; sc != nil && sc.WindowsOptions != nil && sc.WindowsOptions.GMSACredentialSpec != nil {
		spec = sc.WindowsOptions.GMSACredentialSpec
	}
	if spec == nil {
		return ""
	}
	var cs struct {
		DomainJoinConfig struct {
			DNSName string `json:"DnsName"`
		} `json:"DomainJoinConfig"`
	}
	if err := json.Unmarshal([]byte(*spec), &cs); err != nil {
		return ""
	}
	return cs.DomainJoinConfig.DNSName
}

// SandboxMountPoint is where a HostProcess container's volumes and image
// files are (B10): %CONTAINER_SANDBOX_MOUNT_POINT%.
func SandboxMountPoint(containerID string) string {
	id := strings.TrimPrefix(containerID, "containerd://")
	return `C:\C\` + id + `\`
}
