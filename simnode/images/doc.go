// Package images is the image catalog of wink's simulated containerd and
// the two decisions the runtime asks it for (rows B4 and N8 of the behaviour
// catalog, simnode/facts/windows-behaviors.md):
//
//   - Pull: what pulling an image on a node gives — the image for the node's
//     OS and Windows build (a manifest list lists several builds; the node
//     picks its own), or a *PullError carrying containerd's text, which the
//     kubelet shows as ErrImagePull and then ImagePullBackOff (B4).
//   - Sandbox: whether the node's containerd has the pod's RuntimeClass
//     handler; if not, a *SandboxError the kubelet reports as
//     FailedCreatePodSandBox (N8).
//
// What a registry says of an image comes first: Options.Manifest (from
// images/registry, wink.yaml images.resolve: registry, or its cache) gives
// the manifest list with each platform's os.version and config; the B4
// rules below then choose among its platforms exactly as among a catalog
// entry's, and a Windows platform without os.version (HostProcess images)
// fits any build, as containerd's Windows matcher takes it. The catalog is
// the fallback when there is no manifest (offline, or a registry that did
// not answer) and the source of what a registry cannot say.
//
// The catalog is data: fixtures/images.yaml (embedded by package fixtures),
// whose header documents every field. Its rules, each citing its row:
//
//   - Process isolation (handler "" or runhcs-wcow-process) runs an image of
//     the host's own build; the processIsolation table lists the exceptions
//     containerd makes (a Windows Server 2025 host also runs 2022 images).
//   - Hyper-V isolation (runhcs-wcow-hypervisor) runs any Windows build not
//     newer than the host's.
//   - A Linux-only image on a Windows node, and a Windows-only image on a
//     Linux node, fail with "no match for platform in manifest: not found".
//   - Unknown images are a Windows image of the host's build on Windows
//     nodes and a Linux image on Linux nodes, unless Options.Strict, where
//     they fail with containerd's "not found".
//
// A pod declares what an unknown image is made for with annotations per
// container (the Options.Container whose image is pulled):
//
//	wink.dev/image-os.<container-name>: windows        (or linux)
//	wink.dev/image-build.<container-name>: 10.0.17763  (a Windows build)
//
// A build alone implies windows; an OS alone means the host's build.
// Annotations do not change catalog images.
//
// Error texts are containerd's (v1.7.27, the runtime of wink's Windows node
// profiles) and the kubelet's: PullError.Error() and SandboxError.Error() are
// the gRPC error strings the kubelet receives, i.e. what it puts after
// "Failed to pull image %q: " and "Failed to create pod sandbox: ".
package images
