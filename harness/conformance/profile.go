package conformance

import (
	_ "embed"

	"wink.dev/wink/harness/config"
	"wink.dev/wink/harness/config/v1alpha1"
)

//go:embed profile-sig-windows.yaml
var sigWindowsProfile []byte

// ProfileSource names the embedded profile in errors.
const ProfileSource = "harness/conformance/profile-sig-windows.yaml"

// SIGWindowsProfile is the cluster configuration in SIG Windows CI's shape
// (profile-sig-windows.yaml), parsed and defaulted.
func SIGWindowsProfile() (*v1alpha1.Cluster, error) {
	return config.Parse(sigWindowsProfile, ProfileSource)
}

// WindowsNodes counts the Windows nodes of a configuration (e2e's
// --num-nodes, as run-capz-e2e.sh passes WINDOWS_WORKER_MACHINE_COUNT).
func WindowsNodes(c *v1alpha1.Cluster) int {
	n := 0
	for _, p := range c.NodePools {
		if p.OS == v1alpha1.OSWindows && p.Count != nil {
			n += *p.Count
		}
	}
	return n
}
