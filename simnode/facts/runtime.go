package facts

// The containerd versions a node reports in nodeInfo.containerRuntimeVersion
// (N3) unless its pool or its node profile says otherwise. wink.yaml's
// defaulting (harness/config/v1alpha1) and simnode's node profiles
// (simnode/rules/nodes.yaml) both take them from here.
const (
	WindowsContainerRuntimeVersion = "containerd://1.7.27"
	LinuxContainerRuntimeVersion   = "containerd://2.1.4"
)

// ContainerRuntimeVersion is what a node of o reports by default (N3); ""
// for an OS wink does not simulate.
func (o OS) ContainerRuntimeVersion() string {
	switch o {
	case Windows:
		return WindowsContainerRuntimeVersion
	case Linux:
		return LinuxContainerRuntimeVersion
	}
	return ""
}
