package check

import (
	_ "embed"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"wink.dev/wink/harness/config"
	"wink.dev/wink/harness/config/v1alpha1"
)

// platformsFile is the embedded profiles' file name, as errors name it.
const platformsFile = "harness/check/platforms.yaml"

//go:embed platforms.yaml
var platformsYAML []byte

// Profile is the shape of a managed platform's cluster with Windows nodes:
// its node pools in wink.yaml's schema and the documentation each
// convention comes from.
type Profile struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Sources     []Source `json:"sources"`
	// NodePools in wink.yaml's own schema, defaulted and validated as a
	// wink.yaml's pools are.
	NodePools []v1alpha1.NodePool `json:"nodePools"`
	// RuntimeClasses the platform installs itself.
	RuntimeClasses []RuntimeClass `json:"runtimeClasses,omitempty"`
}

// Source is a citation: a documentation page and what it says.
type Source struct {
	URL  string `json:"url"`
	Says string `json:"says"`
}

// RuntimeClass is a RuntimeClass a platform installs.
type RuntimeClass struct {
	Name    string `json:"name"`
	Handler string `json:"handler"`
	// NodeSelector is its scheduling.nodeSelector.
	NodeSelector map[string]string `json:"nodeSelector,omitempty"`
}

type profilesFile struct {
	APIVersion string    `json:"apiVersion"`
	Kind       string    `json:"kind"`
	Profiles   []Profile `json:"profiles"`
}

// profilesKind is the kind of the profiles file.
const profilesKind = "PlatformProfiles"

var builtin, builtinErr = parseProfiles(platformsYAML, platformsFile)

// Profiles returns the built-in platform profiles, in the file's order:
// generic, eks, aks, gke, openshift.
func Profiles() ([]Profile, error) {
	if builtinErr != nil {
		return nil, builtinErr
	}
	return slices.Clone(builtin), nil
}

// PlatformNames are the names of the built-in profiles.
func PlatformNames() []string {
	var names []string
	for _, p := range builtin {
		names = append(names, p.Name)
	}
	return names
}

// LookupProfile returns the built-in profile of that name, or an error
// listing the names there are.
func LookupProfile(name string) (Profile, error) {
	if builtinErr != nil {
		return Profile{}, builtinErr
	}
	for _, p := range builtin {
		if p.Name == name {
			return p, nil
		}
	}
	return Profile{}, fmt.Errorf("--platform %q: unknown platform; use one of %s", name, strings.Join(PlatformNames(), ", "))
}

// parseProfiles reads a profiles file: strictly, each pool defaulted and
// validated as wink.yaml's, every problem naming the file, line, field and
// fix.
func parseProfiles(data []byte, source string) ([]Profile, error) {
	doc, err := config.ParseDocument(data, source)
	if err != nil {
		return nil, err
	}
	var f profilesFile
	if err := doc.Decode(&f); err != nil {
		return nil, err
	}
	var errs []error
	field := func(path string, typ v1alpha1.ErrorType, value any, msg, fix string) {
		errs = append(errs, &v1alpha1.FieldError{Path: path, Type: typ, Value: value, Message: msg, Fix: fix})
	}
	if f.APIVersion != v1alpha1.APIVersion {
		field("apiVersion", v1alpha1.ErrorTypeInvalid, f.APIVersion, "must be "+v1alpha1.APIVersion, "write apiVersion: "+v1alpha1.APIVersion)
	}
	if f.Kind != profilesKind {
		field("kind", v1alpha1.ErrorTypeInvalid, f.Kind, "must be "+profilesKind, "write kind: "+profilesKind)
	}
	seen := map[string]bool{}
	for i, p := range f.Profiles {
		path := fmt.Sprintf("profiles[%d]", i)
		if err := v1alpha1.ValidateName(path+".name", p.Name); err != nil {
			errs = append(errs, err)
		}
		if seen[p.Name] {
			field(path+".name", v1alpha1.ErrorTypeDuplicate, p.Name, "another profile has this name", "rename one of them")
		}
		seen[p.Name] = true
		if len(p.Sources) == 0 {
			field(path+".sources", v1alpha1.ErrorTypeRequired, nil, "every convention of a profile cites the platform's documentation", "add sources: [{url: https://..., says: ...}]")
		}
		for j, s := range p.Sources {
			if u, err := url.Parse(s.URL); err != nil || u.Scheme != "https" || u.Host == "" {
				field(fmt.Sprintf("%s.sources[%d].url", path, j), v1alpha1.ErrorTypeInvalid, s.URL, "not an https URL", "cite the platform's documentation page")
			}
			if strings.TrimSpace(s.Says) == "" {
				field(fmt.Sprintf("%s.sources[%d].says", path, j), v1alpha1.ErrorTypeRequired, nil, "", "say what the page says that the profile uses")
			}
		}
		windows := false
		for _, np := range p.NodePools {
			windows = windows || np.OS == v1alpha1.OSWindows
		}
		if !windows {
			field(path+".nodePools", v1alpha1.ErrorTypeRequired, nil, "a profile has at least one windows pool", "add a pool with os: windows")
		}
		c := clusterOf(p.Name, p.NodePools)
		if err := v1alpha1.Validate(c); err != nil {
			errs = append(errs, doc.Locate(err, path+"."))
			continue
		}
		f.Profiles[i].NodePools = c.NodePools
	}
	if len(errs) > 0 {
		return nil, doc.Locate(errors.Join(errs...), "")
	}
	return f.Profiles, nil
}

// clusterOf is a defaulted wink.yaml of the pools.
func clusterOf(name string, pools []v1alpha1.NodePool) *v1alpha1.Cluster {
	c := &v1alpha1.Cluster{APIVersion: v1alpha1.APIVersion, Kind: v1alpha1.Kind, Name: name, NodePools: deepCopyPools(pools)}
	if c.NodePools == nil {
		c.NodePools = []v1alpha1.NodePool{}
	}
	v1alpha1.Default(c)
	return c
}

func deepCopyPools(pools []v1alpha1.NodePool) []v1alpha1.NodePool {
	if pools == nil {
		return nil
	}
	out := make([]v1alpha1.NodePool, len(pools))
	for i, p := range pools {
		q := p
		if p.Count != nil {
			n := *p.Count
			q.Count = &n
		}
		q.Labels = cloneMap(p.Labels)
		q.Taints = slices.Clone(p.Taints)
		if p.Taints != nil && q.Taints == nil {
			q.Taints = []corev1.Taint{}
		}
		q.Capacity = p.Capacity.DeepCopy()
		q.KubeReserved = p.KubeReserved.DeepCopy()
		q.SystemReserved = p.SystemReserved.DeepCopy()
		q.EvictionHard = cloneMap(p.EvictionHard)
		out[i] = q
	}
	return out
}

func cloneMap(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// ClusterConfig is the wink.yaml of a profile's cluster: base (a user's
// wink.yaml, nil for none) with the profile's pools, where base's pools
// extend the profile (a pool of a new name is added) or replace its pool of
// the same name. Base's images and networking settings are kept.
func ClusterConfig(p Profile, base *v1alpha1.Cluster) (*v1alpha1.Cluster, error) {
	pools := deepCopyPools(p.NodePools)
	c := &v1alpha1.Cluster{APIVersion: v1alpha1.APIVersion, Kind: v1alpha1.Kind}
	if base != nil {
		c.Images = base.Images
		c.Networking = base.Networking
		if base.Backend != "" && base.Backend != v1alpha1.BackendEmbedded {
			return nil, fmt.Errorf("--config: backend %q: wink check brings up embedded clusters; give an existing cluster with --kubeconfig or --name instead", base.Backend)
		}
		for _, bp := range deepCopyPools(base.NodePools) {
			i := slices.IndexFunc(pools, func(x v1alpha1.NodePool) bool { return x.Name == bp.Name })
			if i >= 0 {
				pools[i] = bp
			} else {
				pools = append(pools, bp)
			}
		}
	}
	c.NodePools = pools
	v1alpha1.Default(c)
	if err := v1alpha1.Validate(c); err != nil {
		return nil, fmt.Errorf("platform %s with --config's pools: %w", p.Name, err)
	}
	return c, nil
}
