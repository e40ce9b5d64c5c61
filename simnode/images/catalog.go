package images

import (
	"errors"
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/distribution/reference"
	"sigs.k8s.io/yaml"

	"wink.dev/wink/fixtures"
	"wink.dev/wink/simnode/facts"
)

// Operating systems of nodes and images (facts.OS).
const (
	Windows = facts.Windows
	Linux   = facts.Linux
)

// Isolation modes of a runtime handler.
const (
	IsolationProcess = "process" // Windows process isolation (runhcs-wcow-process)
	IsolationHyperV  = "hyperv"  // Windows Hyper-V isolation (runhcs-wcow-hypervisor)
	IsolationLinux   = "linux"   // a Linux OCI runtime (runc)
)

// file is fixtures/images.yaml.
type file struct {
	Unknown          map[facts.OS]Defaults `json:"unknown"`
	Handlers         []Handler             `json:"handlers"`
	ProcessIsolation []Compat              `json:"processIsolation"`
	Images           []Entry               `json:"images"`
}

// Defaults describe an image that is not in the catalog, per OS.
type Defaults struct {
	User       string   `json:"user"`
	Entrypoint []string `json:"entrypoint,omitempty"`
	Cmd        []string `json:"cmd,omitempty"`
	Size       int64    `json:"size"`
}

// Handler is a runtime handler the node's containerd has configured (N8).
type Handler struct {
	OS        facts.OS `json:"os"`
	Handler   string   `json:"handler"`
	Isolation string   `json:"isolation"`
	Cites     []string `json:"cites"`
}

// Compat lists the image builds a host build runs in process isolation (B4).
type Compat struct {
	Host   string   `json:"host"`
	Images []string `json:"images"`
	Cites  []string `json:"cites"`
}

// Entry is one image of the catalog: a repository, the tags it answers
// for, and its manifest list.
type Entry struct {
	Repository string     `json:"repository"`
	Tags       []string   `json:"tags"`
	Absent     bool       `json:"absent,omitempty"`
	User       string     `json:"user,omitempty"`
	Entrypoint []string   `json:"entrypoint,omitempty"`
	Cmd        []string   `json:"cmd,omitempty"`
	Ports      []int32    `json:"ports,omitempty"`
	Platforms  []Platform `json:"platforms"`

	name string // the normalised repository
}

// Platform is one entry of an image's manifest list. User, Entrypoint, Cmd
// and Ports override the image entry's when set.
type Platform struct {
	OS         facts.OS `json:"os"`
	Build      string   `json:"build,omitempty"`
	Size       int64    `json:"size"`
	User       *string  `json:"user,omitempty"`
	Entrypoint []string `json:"entrypoint,omitempty"`
	Cmd        []string `json:"cmd,omitempty"`
	Ports      []int32  `json:"ports,omitempty"`

	remote *RemotePlatform // the registry's, when Options.Manifest gave it
}

// Catalog is a loaded, validated image catalog. It is read-only and safe
// for concurrent use.
type Catalog struct {
	unknown  map[facts.OS]Defaults
	handlers map[facts.OS]map[string]Handler // os -> handler -> rule
	process  map[string][]string             // host build -> image builds
	exact    map[string][]*Entry             // name -> entries with exact tags
	globs    map[string][]*Entry             // name -> entries in file order
}

var (
	buildRE = regexp.MustCompile(`^10\.0\.[0-9]{4,5}$`)
	tagRE   = regexp.MustCompile(`^[\w][\w.-]{0,127}$`)
)

// Load parses and validates a catalog. Errors name the entry and field.
func Load(data []byte) (*Catalog, error) {
	var f file
	if err := yaml.UnmarshalStrict(data, &f); err != nil {
		return nil, fmt.Errorf("images catalog: %w", err)
	}
	c := &Catalog{
		unknown:  map[facts.OS]Defaults{},
		handlers: map[facts.OS]map[string]Handler{},
		process:  map[string][]string{},
		exact:    map[string][]*Entry{},
		globs:    map[string][]*Entry{},
	}
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }

	for _, os := range facts.OSes {
		d, ok := f.Unknown[os]
		if !ok {
			fail("unknown.%s: Required value", os)
			continue
		}
		if d.Size <= 0 {
			fail("unknown.%s.size: Invalid value: %d: must be greater than 0", os, d.Size)
		}
		c.unknown[os] = d
	}
	for os := range f.Unknown {
		if !os.Valid() {
			fail("unknown.%s: Unsupported value: %q: supported values: %q, %q", os, os, Linux, Windows)
		}
	}

	for i, h := range f.Handlers {
		where := fmt.Sprintf("handlers[%d] (%q on %s)", i, h.Handler, h.OS)
		switch {
		case !h.OS.Valid():
			fail("%s.os: Unsupported value: %q: supported values: %q, %q", where, h.OS, Linux, Windows)
			continue
		case h.OS == Windows && h.Isolation != IsolationProcess && h.Isolation != IsolationHyperV:
			fail("%s.isolation: Unsupported value: %q: supported values for windows: %q, %q", where, h.Isolation, IsolationHyperV, IsolationProcess)
		case h.OS == Linux && h.Isolation != IsolationLinux:
			fail("%s.isolation: Unsupported value: %q: supported values for linux: %q", where, h.Isolation, IsolationLinux)
		}
		if len(h.Cites) == 0 {
			fail("%s.cites: Required value: cite the spec row", where)
		} else if err := facts.CheckCites(h.Cites); err != nil {
			fail("%s.cites: %v", where, err)
		}
		if c.handlers[h.OS] == nil {
			c.handlers[h.OS] = map[string]Handler{}
		}
		if _, dup := c.handlers[h.OS][h.Handler]; dup {
			fail("%s.handler: Duplicate value: %q", where, h.Handler)
		}
		c.handlers[h.OS][h.Handler] = h
	}
	for _, os := range facts.OSes {
		if _, ok := c.handlers[os][""]; !ok {
			fail("handlers: Required value: the default handler \"\" for %s", os)
		}
	}

	for i, p := range f.ProcessIsolation {
		where := fmt.Sprintf("processIsolation[%d] (host %s)", i, p.Host)
		if !buildRE.MatchString(p.Host) {
			fail("%s.host: Invalid value: %q: want a Windows build like 10.0.20348", where, p.Host)
		}
		if _, dup := c.process[p.Host]; dup {
			fail("%s.host: Duplicate value: %q", where, p.Host)
		}
		if len(p.Images) == 0 {
			fail("%s.images: Required value", where)
		}
		for j, b := range p.Images {
			if !buildRE.MatchString(b) {
				fail("%s.images[%d]: Invalid value: %q: want a Windows build like 10.0.20348", where, j, b)
			} else if buildNumber(b) > buildNumber(p.Host) {
				fail("%s.images[%d]: Invalid value: %q: process isolation cannot run a build newer than the host", where, j, b)
			}
		}
		if len(p.Cites) == 0 {
			fail("%s.cites: Required value: cite the spec row", where)
		} else if err := facts.CheckCites(p.Cites); err != nil {
			fail("%s.cites: %v", where, err)
		}
		c.process[p.Host] = p.Images
	}

	seenTag := map[string]int{}
	for i := range f.Images {
		e := &f.Images[i]
		where := fmt.Sprintf("images[%d] (%s)", i, e.Repository)
		named, err := reference.ParseNormalizedNamed(e.Repository)
		if err != nil {
			fail("%s.repository: Invalid value: %q: %v", where, e.Repository, err)
			continue
		}
		if !reference.IsNameOnly(named) {
			fail("%s.repository: Invalid value: %q: a repository without tag or digest (list tags under tags)", where, e.Repository)
			continue
		}
		e.name = named.Name()
		if len(e.Tags) == 0 {
			fail("%s.tags: Required value (\"*\" for any tag)", where)
		}
		hasExact, hasGlob := false, false
		for j, t := range e.Tags {
			if isGlob(t) {
				if _, err := path.Match(t, ""); err != nil || strings.Contains(t, "/") {
					fail("%s.tags[%d]: Invalid value: %q: not a valid tag pattern", where, j, t)
				}
				hasGlob = true
				continue
			}
			if !tagRE.MatchString(t) {
				fail("%s.tags[%d]: Invalid value: %q: not a valid tag", where, j, t)
				continue
			}
			key := e.name + ":" + t
			if k, dup := seenTag[key]; dup {
				fail("%s.tags[%d]: Duplicate value: %q: already in images[%d]", where, j, t, k)
			}
			seenTag[key] = i
			hasExact = true
		}
		if hasExact {
			c.exact[e.name] = append(c.exact[e.name], e)
		}
		if hasGlob {
			c.globs[e.name] = append(c.globs[e.name], e)
		}
		if e.Absent {
			if len(e.Platforms) != 0 {
				fail("%s.platforms: Forbidden: an absent image has no platforms", where)
			}
			continue
		}
		if len(e.Platforms) == 0 {
			fail("%s.platforms: Required value", where)
		}
		validPorts(e.Ports, where+".ports", fail)
		seenPlat := map[string]int{}
		for j, p := range e.Platforms {
			pw := fmt.Sprintf("%s.platforms[%d]", where, j)
			switch p.OS {
			case Windows:
				if !buildRE.MatchString(p.Build) {
					fail("%s.build: Invalid value: %q: a windows platform needs a build like 10.0.20348", pw, p.Build)
				}
			case Linux:
				if p.Build != "" {
					fail("%s.build: Forbidden: only windows platforms have a build", pw)
				}
			default:
				fail("%s.os: Unsupported value: %q: supported values: %q, %q", pw, p.OS, Linux, Windows)
			}
			key := string(p.OS) + "/" + p.Build
			if k, dup := seenPlat[key]; dup {
				fail("%s: Duplicate value: %s already in platforms[%d]", pw, key, k)
			}
			seenPlat[key] = j
			if p.Size <= 0 {
				fail("%s.size: Invalid value: %d: must be greater than 0", pw, p.Size)
			}
			validPorts(p.Ports, pw+".ports", fail)
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("images catalog: %w", errors.Join(errs...))
	}
	return c, nil
}

func validPorts(ports []int32, where string, fail func(string, ...any)) {
	for k, p := range ports {
		if p < 1 || p > 65535 {
			fail("%s[%d]: Invalid value: %d: must be between 1 and 65535, inclusive", where, k, p)
		}
	}
}

func isGlob(tag string) bool { return strings.ContainsAny(tag, "*?[") }

var (
	defaultOnce sync.Once
	defaultCat  *Catalog
)

// Default is the catalog embedded from fixtures/images.yaml. It panics only
// if the embedded file is broken, which TestDefaultCatalog rules out.
func Default() *Catalog {
	defaultOnce.Do(func() {
		c, err := Load(fixtures.Images)
		if err != nil {
			panic(fmt.Sprintf("fixtures/images.yaml: %v", err))
		}
		defaultCat = c
	})
	return defaultCat
}

// lookup finds the entry for a normalised name and tag ("" for a digest
// reference): an exact tag first, then the first glob that matches.
func (c *Catalog) lookup(name, tag string) *Entry {
	if tag != "" {
		for _, e := range c.exact[name] {
			for _, t := range e.Tags {
				if t == tag {
					return e
				}
			}
		}
	}
	for _, e := range c.globs[name] {
		for _, t := range e.Tags {
			if !isGlob(t) {
				continue
			}
			if tag == "" {
				if t == "*" {
					return e
				}
				continue
			}
			if ok, _ := path.Match(t, tag); ok {
				return e
			}
		}
	}
	return nil
}

// buildNumber is the third part of a Windows version (10.0.20348[.UBR]).
func buildNumber(v string) int {
	parts := strings.Split(v, ".")
	if len(parts) < 3 {
		return -1
	}
	n, err := strconv.Atoi(parts[2])
	if err != nil {
		return -1
	}
	return n
}

// normaliseBuild cuts a Windows version to <major>.<minor>.<build>.
func normaliseBuild(v string) string {
	parts := strings.Split(v, ".")
	if len(parts) > 3 {
		parts = parts[:3]
	}
	return strings.Join(parts, ".")
}
