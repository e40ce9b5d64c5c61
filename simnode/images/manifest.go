package images

import (
	"slices"
	"strings"

	"wink.dev/wink/simnode/facts"
)

// Manifest is what a registry says of a reference (images/registry
// resolves it): the repository digest of its manifest list, or of its one
// manifest, and each platform's manifest and config. It is the first source
// of an image's metadata; the catalog adds what a registry cannot say.
type Manifest struct {
	// Digest is the repository digest the reference resolved to (the
	// container status imageID's digest).
	Digest string `json:"digest"`
	// List is true for a manifest list (OCI index); false for one image.
	List      bool             `json:"list,omitempty"`
	Platforms []RemotePlatform `json:"platforms"`
}

// RemotePlatform is one image of a manifest: the platform of its index
// entry (or of its config for a lone image) and its config.
type RemotePlatform struct {
	OS           facts.OS `json:"os"`
	OSVersion    string   `json:"osVersion,omitempty"` // Windows: 10.0.20348.1607
	Architecture string   `json:"architecture,omitempty"`
	Variant      string   `json:"variant,omitempty"`
	// Digest is the platform's manifest digest; ConfigDigest its config's
	// (the image ID containerd reports).
	Digest       string `json:"digest"`
	ConfigDigest string `json:"configDigest"`
	// Size is the sum of the compressed layers.
	Size         int64    `json:"size"`
	Entrypoint   []string `json:"entrypoint,omitempty"`
	Cmd          []string `json:"cmd,omitempty"`
	Env          []string `json:"env,omitempty"`
	WorkingDir   string   `json:"workingDir,omitempty"`
	User         string   `json:"user,omitempty"`
	ExposedPorts []int32  `json:"exposedPorts,omitempty"`
}

// hostArchitecture is the architecture of every simulated node (the
// kubernetes.io/arch label of wink's node profiles).
const hostArchitecture = "amd64"

// remotePlatforms turns a registry's manifest into the catalog's platforms
// the node chooses from (B4). A Windows entry without os.version (a
// HostProcess image built FROM the hpc base) runs on any Windows build, as
// containerd's Windows matcher accepts it (platforms/defaults_windows.go:
// "HPC containers do not have OS version filled"). Entries of another
// architecture are not candidates. What the registry cannot say (a size of
// 0) comes from the catalog's entry for the same os and build.
func remotePlatforms(m *Manifest, entry *Entry) []Platform {
	var out []Platform
	for _, rp := range m.Platforms {
		if rp.Architecture != "" && rp.Architecture != hostArchitecture {
			continue
		}
		if rp.OS != Windows && rp.OS != Linux {
			continue
		}
		p := Platform{OS: rp.OS, Size: rp.Size, remote: &rp}
		if rp.OS == Windows && rp.OSVersion != "" {
			p.Build = normaliseBuild(rp.OSVersion)
		}
		user := rp.User
		p.User = &user
		p.Entrypoint = nonNil(rp.Entrypoint)
		p.Cmd = nonNil(rp.Cmd)
		p.Ports = nonNil(rp.ExposedPorts)
		if p.Size <= 0 && entry != nil {
			for _, cp := range entry.Platforms {
				if cp.OS == p.OS && cp.Build == p.Build {
					p.Size = cp.Size
				}
			}
		}
		out = append(out, p)
	}
	return out
}

// nonNil keeps an image's empty ENTRYPOINT or CMD apart from "not said":
// the registry's config is the whole truth for its platform.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return slices.Clone(s)
}

// envMap is an image config's Env (KEY=value lines) as a map.
func envMap(env []string) map[string]string {
	if len(env) == 0 {
		return nil
	}
	out := make(map[string]string, len(env))
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		out[k] = v
	}
	return out
}
