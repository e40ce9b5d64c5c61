package images

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"

	"github.com/distribution/reference"
	"wink.dev/wink/simnode/facts"
)

// Annotation prefixes a pod uses to declare what an unknown image is made
// for; the container name follows the dot.
const (
	AnnotationImageOS    = "wink.dev/image-os."
	AnnotationImageBuild = "wink.dev/image-build."
)

// Kubelet reasons (pkg/kubelet/images/types.go) a PullError carries.
const (
	ReasonErrImagePull     = "ErrImagePull"
	ReasonInvalidImageName = "InvalidImageName"
)

// Host is the node an image is pulled on and the runtime handler of the
// pod's RuntimeClass.
type Host struct {
	OS      facts.OS
	Build   string // Windows build, 10.0.20348 (a trailing .UBR is ignored)
	Handler string // CRI runtime handler from the pod's RuntimeClass; "" = default
}

// Image is what a pull gives: one platform of the image, as containerd
// reports it.
type Image struct {
	// Ref is the fully qualified reference containerd and the kubelet report
	// in the container status: docker.io/library/nginx:latest, or
	// <name>@sha256:... for a reference by digest.
	Ref string `json:"ref"`
	// Digest is the repository digest of the image (its manifest list): the
	// same on every node, and the reference's own digest when pulled by
	// digest. ImageID() is <name>@<Digest>, the container status imageID.
	Digest string `json:"digest"`
	// ID is the image ID of the platform the node picked (crictl's IMAGE
	// ID): deterministic from the reference, OS and build.
	ID         string   `json:"id"`
	OS         facts.OS `json:"os"`
	Build      string   `json:"build,omitempty"`
	User       string   `json:"user,omitempty"`
	Entrypoint []string `json:"entrypoint,omitempty"`
	Cmd        []string `json:"cmd,omitempty"`
	Ports      []int32  `json:"ports,omitempty"`
	// Env and WorkingDir are the image config's (registry images only).
	Env        map[string]string `json:"env,omitempty"`
	WorkingDir string            `json:"workingDir,omitempty"`
	Size       int64             `json:"size"`
	// Known is true for images of the catalog; Declared for unknown images
	// whose OS or build a pod annotation declared; Registry for images whose
	// manifest and config came from their registry (Options.Manifest).
	Known    bool `json:"known"`
	Declared bool `json:"declared,omitempty"`
	Registry bool `json:"registry,omitempty"`

	name string
}

// ImageID is the container status imageID: <repository>@<digest>.
func (i Image) ImageID() string { return i.name + "@" + i.Digest }

// Options change how Pull treats images the catalog does not know.
type Options struct {
	// Strict makes unknown images fail to pull (containerd's "not found")
	// instead of defaulting to an image for the host.
	Strict bool
	// Container is the name of the container whose image is pulled; it
	// selects the wink.dev/image-os.<name> and wink.dev/image-build.<name>
	// annotations.
	Container string
	// Manifest is what the image's registry said of the reference
	// (images/registry): when set, its platforms are the manifest list the
	// node chooses from and its configs give the image's ENTRYPOINT, CMD,
	// Env, WorkingDir, User and ports; the catalog entry adds only what a
	// registry cannot say. Nil: the catalog alone (offline).
	Manifest *Manifest
}

// PullError is a failed pull as the kubelet sees it.
type PullError struct {
	// Reason is the container's waiting reason: ErrImagePull (the kubelet
	// turns it into ImagePullBackOff on the next sync), or InvalidImageName
	// when the kubelet cannot parse the image (no pull happens).
	Reason string `json:"reason"`
	// Code is the gRPC status code containerd's CRI returns ("" for errors
	// of the kubelet itself).
	Code string `json:"code,omitempty"`
	// Message is containerd's error text, e.g.
	// failed to pull and unpack image "docker.io/library/nginx:latest": no match for platform in manifest: not found
	Message string `json:"message"`
}

// Error is the error string the kubelet receives from the CRI: the text of
// the Failed event after "Failed to pull image %q: " and the container's
// waiting message (for ImagePullBackOff: `Back-off pulling image "<image>": ErrImagePull: <Error()>`).
func (e *PullError) Error() string {
	if e.Code == "" {
		return e.Message
	}
	return "rpc error: code = " + e.Code + " desc = " + e.Message
}

// SandboxError is a pod sandbox containerd cannot create (N8).
type SandboxError struct {
	Handler string `json:"handler"`
	// Message is containerd's error text:
	// failed to get sandbox runtime: no runtime for "<handler>" is configured
	Message string `json:"message"`
}

// Error is the error string the kubelet receives (gRPC code Unknown); the
// FailedCreatePodSandBox event reads "Failed to create pod sandbox: " + Error().
func (e *SandboxError) Error() string {
	return "rpc error: code = Unknown desc = " + e.Message
}

// Sandbox decides whether the node's containerd can create a pod sandbox
// for host.Handler (N8): the handlers table of the catalog lists the
// configured ones per OS.
func (c *Catalog) Sandbox(host Host) error {
	if host.OS != Windows && host.OS != Linux {
		return fmt.Errorf("images: host OS %q: want %q or %q", host.OS, Windows, Linux)
	}
	if _, ok := c.handlers[host.OS][host.Handler]; ok {
		return nil
	}
	// containerd v1.7.27 pkg/cri/server/sandbox_run.go: RunPodSandbox wraps
	// getSandboxRuntime's error.
	return &SandboxError{
		Handler: host.Handler,
		Message: fmt.Sprintf("failed to get sandbox runtime: no runtime for %q is configured", host.Handler),
	}
}

// Pull decides what pulling ref on host gives: the image (for the host's
// build when the entry is a manifest list) or a *PullError. Other errors
// mean the caller passed a bad Host.
func (c *Catalog) Pull(ref string, host Host, annotations map[string]string, opts Options) (Image, error) {
	hostBuild := ""
	switch host.OS {
	case Windows:
		hostBuild = normaliseBuild(host.Build)
		if !buildRE.MatchString(hostBuild) {
			return Image{}, fmt.Errorf("images: host build %q: want a Windows build like 10.0.20348", host.Build)
		}
	case Linux:
	default:
		return Image{}, fmt.Errorf("images: host OS %q: want %q or %q", host.OS, Windows, Linux)
	}

	named, err := reference.ParseNormalizedNamed(ref)
	if err != nil {
		// The kubelet fails before the CRI: image_manager.go
		// applyDefaultImageTag / parsers.ParseImageName.
		return Image{}, &PullError{
			Reason:  ReasonInvalidImageName,
			Message: fmt.Sprintf("Failed to apply default image tag %q: couldn't parse image name %q: %v", ref, ref, err),
		}
	}
	// containerd's CRI pulls distribution.ParseDockerRef(ref): a digest
	// wins over a tag, no tag means latest.
	tag, digest := "", ""
	if d, ok := named.(reference.Digested); ok {
		digest = d.Digest().String()
		named, _ = reference.WithDigest(reference.TrimNamed(named), d.Digest())
	} else {
		named = reference.TagNameOnly(named)
		tag = named.(reference.Tagged).Tag()
	}
	full := named.String()

	var plats []Platform
	entry := c.lookup(named.Name(), tag)
	img := Image{Ref: full, name: named.Name()}
	switch {
	case opts.Manifest != nil:
		plats = remotePlatforms(opts.Manifest, entry)
		img.Registry = true
		img.Known = entry != nil
	case entry != nil && entry.Absent:
		return Image{}, notFound(full)
	case entry != nil:
		plats = entry.Platforms
		img.Known = true
	default:
		p, declared, err := c.declared(annotations, opts.Container, host.OS, hostBuild)
		if err != nil {
			return Image{}, err
		}
		switch {
		case declared:
			img.Declared = true
		case opts.Strict:
			return Image{}, notFound(full)
		}
		plats = []Platform{p}
	}

	p, ok := c.pick(plats, host, hostBuild)
	if !ok {
		// B4: containerd filters the manifest list with the host's platform
		// matcher (images.LimitManifests) and finds nothing.
		return Image{}, &PullError{
			Reason:  ReasonErrImagePull,
			Code:    "NotFound",
			Message: fmt.Sprintf("failed to pull and unpack image %q: no match for platform in manifest: not found", full),
		}
	}

	img.OS, img.Build, img.Size = p.OS, p.Build, p.Size
	if rp := p.remote; rp != nil {
		img.Build = normaliseBuild(rp.OSVersion)
		img.User = rp.User
		img.Entrypoint = slices.Clone(rp.Entrypoint)
		img.Cmd = slices.Clone(rp.Cmd)
		img.Ports = slices.Clone(rp.ExposedPorts)
		img.Env = envMap(rp.Env)
		img.WorkingDir = rp.WorkingDir
		img.Digest = opts.Manifest.Digest
		if digest != "" {
			img.Digest = digest
		}
		img.ID = rp.ConfigDigest
		return img, nil
	}
	if entry != nil {
		img.User = entry.User
		img.Entrypoint = slices.Clone(entry.Entrypoint)
		img.Cmd = slices.Clone(entry.Cmd)
		img.Ports = slices.Clone(entry.Ports)
	} else {
		d := c.unknown[p.OS]
		img.User = d.User
		img.Entrypoint = slices.Clone(d.Entrypoint)
		img.Cmd = slices.Clone(d.Cmd)
	}
	if p.User != nil {
		img.User = *p.User
	}
	if p.Entrypoint != nil {
		img.Entrypoint = slices.Clone(p.Entrypoint)
	}
	if p.Cmd != nil {
		img.Cmd = slices.Clone(p.Cmd)
	}
	if p.Ports != nil {
		img.Ports = slices.Clone(p.Ports)
	}
	if digest != "" {
		img.Digest = digest
	} else {
		img.Digest = sha("wink/index/" + full)
	}
	img.ID = sha("wink/config/" + full + "/" + string(p.OS) + "/" + p.Build)
	return img, nil
}

// NotFound is the pull error for a reference its registry does not have
// (full: the fully qualified reference, docker.io/library/nginx:latest).
func NotFound(full string) *PullError { return notFound(full) }

// Unauthorized is the pull error for a registry that refuses the
// credentials (or their absence): containerd v1.7.27's resolver gets the
// status of its HEAD request (remotes/docker/resolver.go, errors.go
// "unexpected status from %s request to %s: %s") and the CRI wraps it
// (gRPC code Unknown). url is the manifest URL it asked, status e.g.
// "401 Unauthorized".
func Unauthorized(full, url, status string) *PullError {
	return &PullError{
		Reason:  ReasonErrImagePull,
		Code:    "Unknown",
		Message: fmt.Sprintf("failed to pull and unpack image %q: failed to resolve reference %q: unexpected status from HEAD request to %s: %s", full, full, url, status),
	}
}

// Normalise is the reference containerd's CRI pulls (distribution's
// ParseDockerRef): the fully qualified name with the tag (latest when none)
// or digest, e.g. nginx -> docker.io/library/nginx:latest. It is the key
// the catalog, the registry resolver and its cache share.
func Normalise(ref string) (string, error) {
	named, err := reference.ParseDockerRef(ref)
	if err != nil {
		return "", err
	}
	return named.String(), nil
}

// notFound is containerd's error for a reference the registry does not have
// (v1.7.27 pull.go "failed to resolve reference %q: %w" around
// remotes/docker/resolver.go "%s: %w" errdefs.ErrNotFound).
func notFound(full string) *PullError {
	return &PullError{
		Reason:  ReasonErrImagePull,
		Code:    "NotFound",
		Message: fmt.Sprintf("failed to pull and unpack image %q: failed to resolve reference %q: %s: not found", full, full, full),
	}
}

// declared is the platform of an unknown image: the one its annotations
// declare, else the documented default for the host.
func (c *Catalog) declared(annotations map[string]string, container string, hostOS facts.OS, hostBuild string) (Platform, bool, error) {
	osKey, buildKey := AnnotationImageOS+container, AnnotationImageBuild+container
	osValue, hasOS := annotations[osKey]
	os := facts.OS(osValue)
	build, hasBuild := annotations[buildKey]
	if container == "" {
		hasOS, hasBuild = false, false
	}
	bad := func(key, value, why string) error {
		return &PullError{Reason: ReasonErrImagePull, Message: fmt.Sprintf("wink: annotation %s: Invalid value: %q: %s", key, value, why)}
	}
	switch {
	case hasOS && !os.Valid():
		return Platform{}, false, bad(osKey, osValue, `supported values: "linux", "windows"`)
	case hasBuild && !buildRE.MatchString(normaliseBuild(build)):
		return Platform{}, false, bad(buildKey, build, "want a Windows build like 10.0.17763")
	case hasBuild && hasOS && os == Linux:
		return Platform{}, false, bad(buildKey, build, "a linux image has no Windows build")
	}
	if !hasOS && !hasBuild {
		p := Platform{OS: hostOS, Build: hostBuild, Size: c.unknown[hostOS].Size}
		return p, false, nil
	}
	if !hasOS {
		os = Windows
	}
	p := Platform{OS: os, Size: c.unknown[os].Size}
	if os == Windows {
		p.Build = hostBuild
		if hasBuild {
			p.Build = normaliseBuild(build)
		}
	}
	return p, true, nil
}

// isolation is the isolation of the host's handler. An unknown handler
// cannot get here in the kubelet's order (the sandbox fails first); it
// pulls like the default handler, as containerd 1.7 ignores the handler
// when it pulls.
func (c *Catalog) isolation(host Host) string {
	if h, ok := c.handlers[host.OS][host.Handler]; ok {
		return h.Isolation
	}
	return c.handlers[host.OS][""].Isolation
}

// pick chooses the platform of a manifest list the host runs (B4): on
// Windows its own build if listed, else the newest build its isolation
// accepts.
func (c *Catalog) pick(plats []Platform, host Host, hostBuild string) (Platform, bool) {
	if host.OS == Linux {
		for _, p := range plats {
			if p.OS == Linux {
				return p, true
			}
		}
		return Platform{}, false
	}
	iso := c.isolation(host)
	var best Platform
	found := false
	for _, p := range plats {
		if p.OS == Windows && p.Build == "" {
			// No os.version (HostProcess images): containerd's Windows
			// matcher takes it on any build.
			if !found {
				best, found = p, true
			}
			continue
		}
		if p.OS != Windows || !c.accepts(iso, hostBuild, p.Build) {
			continue
		}
		if p.Build == hostBuild {
			return p, true
		}
		if !found || buildNumber(p.Build) > buildNumber(best.Build) {
			best, found = p, true
		}
	}
	return best, found
}

// accepts reports whether a Windows host build runs an image build under an
// isolation (B4).
func (c *Catalog) accepts(iso, hostBuild, imageBuild string) bool {
	switch iso {
	case IsolationHyperV:
		return buildNumber(imageBuild) <= buildNumber(hostBuild)
	case IsolationProcess:
		if builds, ok := c.process[hostBuild]; ok {
			return slices.Contains(builds, imageBuild)
		}
		return imageBuild == hostBuild
	}
	return false
}

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256:" + hex.EncodeToString(sum[:])
}
