package volumes

import (
	"errors"
	"fmt"
)

// ReasonFailedMount is the reason of the Warning event the kubelet emits for
// a MountError (pkg/kubelet/events/event.go:64, FailedMountVolume).
const ReasonFailedMount = "FailedMount"

// MountError is a volume that could not be set up. The runtime turns each one
// into a Warning event with reason ReasonFailedMount and message Error(),
// which is exactly the kubelet's text:
//
//	MountVolume.SetUp failed for volume "<volume>" : configmap "x" not found
//
// (pkg/volume/util/operationexecutor/operation_generator.go:605 builds it with
// VolumeToMount.GenerateError; operation_executor.go:321 formats
// `%v for volume %q %v` with the suffix ": <err>" from errSuffix, line 306).
// Err carries the plugin's own error, e.g. `configmap "x" not found` (the
// kubelet's configmap manager NotFound for resource "configmap",
// pkg/kubelet/configmap/configmap_manager.go:158,
// pkg/kubelet/util/manager/watch_based_manager.go:336), `secret "x" not found`,
// `configmap references non-existent config key: k`
// (pkg/volume/configmap/configmap.go:292), `hostPath type check failed: <path>
// is not a directory` (pkg/volume/hostpath/host_path.go:471).
//
// NewPod and Refresh return all of a pod's MountErrors joined with
// errors.Join; use MountErrors to get them back.
type MountError struct {
	// Volume is the volume's name in the pod spec.
	Volume string
	// Err is the plugin's error.
	Err error
}

func (e *MountError) Error() string {
	return fmt.Sprintf("MountVolume.SetUp failed for volume %q : %v", e.Volume, e.Err)
}

func (e *MountError) Unwrap() error { return e.Err }

// MountErrors returns every *MountError in err (joined or wrapped).
func MountErrors(err error) []*MountError {
	var out []*MountError
	var walk func(error)
	walk = func(e error) {
		if e == nil {
			return
		}
		if me, ok := e.(*MountError); ok {
			out = append(out, me)
			return
		}
		switch u := e.(type) {
		case interface{ Unwrap() []error }:
			for _, x := range u.Unwrap() {
				walk(x)
			}
		case interface{ Unwrap() error }:
			walk(u.Unwrap())
		}
	}
	walk(err)
	return out
}

// Container error reasons (the container's Waiting/Terminated reason).
const (
	// ReasonCreateContainerConfigError is what the kubelet reports when
	// makeMounts fails (pkg/kubelet/kubelet_pods.go:277): bad subPath,
	// missing volume.
	ReasonCreateContainerConfigError = "CreateContainerConfigError"
	// ReasonStartError is what containerd reports when the runtime refuses a
	// mount when it starts the task (HostProcess named pipe mount).
	ReasonStartError = "StartError"
	// ReasonCreateContainerError is a runtime failure at container creation
	// (raw block devices on Windows).
	ReasonCreateContainerError = "CreateContainerError"
)

// ContainerError is why one container of a pod cannot get its mounts. The
// pod's volumes are fine (other containers run); this container stays
// Waiting with Reason, and the kubelet's Warning event "Failed" carries
// "Error: " + Err.Error().
type ContainerError struct {
	Container string
	Reason    string
	Err       error
}

func (e *ContainerError) Error() string { return e.Err.Error() }
func (e *ContainerError) Unwrap() error { return e.Err }

// ErrVolumeDevicesUnsupported is the error of a Windows container that asks
// for raw block devices (spec.containers[].volumeDevices): Windows nodes do
// not support them (row B11).
var ErrVolumeDevicesUnsupported = errors.New("volumeDevices (raw block volumes) are not supported on Windows nodes")

// ErrHostProcessNamedPipeMount is hcsshim's refusal of a named pipe hostPath
// mount in a HostProcess container (internal/jobcontainers/mounts.go,
// setupMounts): the pipe is reachable directly at its \\.\pipe\ path.
var ErrHostProcessNamedPipeMount = errors.New("named pipe mounts not supported for job containers - interact with the pipe directly")
