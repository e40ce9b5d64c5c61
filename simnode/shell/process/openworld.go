package process

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strings"
	"sync"

	"github.com/distribution/reference"
	"sigs.k8s.io/yaml"
)

// This file is the open world of the simulated shell: what wink knows of a
// container image's programs besides those it simulates (inbox.yaml), and
// what happens to the others. See inbox.yaml's header for the principle.

// Image is what wink knows of the programs of a container's image. The zero
// value is an image whose programs are exactly the shell's tables (the
// upstream e2e images): anything else is not found.
type Image struct {
	// Open: wink does not know every file of the image (an image that is
	// none of inbox.yaml's bases, or a HostProcess container's host). A
	// program the shell does not simulate may be there, and runs until it
	// is stopped, with no output, as a real program whose output wink
	// cannot know.
	Open bool
	// InBox: the image has Windows Server's in-box System32 executables and
	// PowerShell modules (servercore, a HostProcess container's host; not
	// nanoserver). Those wink does not simulate succeed silently.
	InBox bool
	// Base names the inbox.yaml base the image is ("" when unknown).
	Base string
}

//go:embed inbox.yaml
var inboxYAML []byte

// InBoxFile is inbox.yaml.
type InBoxFile struct {
	Bases       []BaseImage   `json:"bases"`
	Modules     []InBoxModule `json:"modules"`
	Executables struct {
		Source string   `json:"source"`
		Names  []string `json:"names"`
	} `json:"executables"`
	// Tools are command-line programs that end, per OS.
	Tools map[OS][]string `json:"tools"`
}

// BaseImage is a base image whose file set wink knows.
type BaseImage struct {
	Name         string   `json:"name"`
	OS           OS       `json:"os"`
	Repositories []string `json:"repositories"`
	InBox        bool     `json:"inBox"`
	// Programs are the programs on the image's PATH (busybox --list of its
	// busybox, the base packages' executables) and Servers those of them
	// that run until stopped; Source says where the list comes from.
	Source   string   `json:"source,omitempty"`
	Programs []string `json:"programs,omitempty"`
	Servers  []string `json:"servers,omitempty"`
	// Exact: the image has no program but Programs, not even one the
	// shell's table simulates (curl is not in busybox).
	Exact bool `json:"exact,omitempty"`
	// Absent are programs of the shell's tables the base does not have
	// (nanoserver: no PowerShell), as program names (bases.go).
	Absent []string `json:"absent,omitempty"`
	// PowerShell is the Windows PowerShell the base has ("5.1": of its
	// Windows build, bases.go); "" none.
	PowerShell string `json:"powerShell,omitempty"`
}

// InBoxModule is an in-box PowerShell module and its cmdlets.
type InBoxModule struct {
	Module  string   `json:"module"`
	Source  string   `json:"source"`
	Cmdlets []string `json:"cmdlets"`
}

// inBox is the loaded inbox.yaml.
type inBoxTable struct {
	bases   map[OS]map[string]BaseImage // os -> repository -> base
	cmdlets map[string]string           // lower-case cmdlet -> module
	exes    map[string]bool             // program name (programName) -> in-box
	tools   map[OS]map[string]bool      // os -> program name -> a tool that ends
	// programs: base name -> program name -> a server (runs until stopped)
	programs map[string]map[string]bool
	// exact: the bases whose programs are all in programs
	exact map[string]bool
	// absent: os -> base -> program name -> absent; bases2: os -> base
	// name -> base (bases.go)
	absent map[OS]map[string]map[string]bool
	bases2 map[OS]map[string]BaseImage
}

// inBox loads inbox.yaml on first use.
var inBox = sync.OnceValue(func() *inBoxTable { return mustLoadInBox(inboxYAML) })

// VerbNounRE matches a PowerShell Verb-Noun command name.
var VerbNounRE = regexp.MustCompile(`^[A-Za-z]+-[A-Za-z][A-Za-z0-9]*$`)

// LoadInBox parses and validates an in-box table (inbox.yaml); errors name
// the entry and field.
func LoadInBox(data []byte) (*InBoxFile, error) {
	var f InBoxFile
	if err := yaml.UnmarshalStrict(data, &f); err != nil {
		return nil, fmt.Errorf("inbox.yaml: %w", err)
	}
	var errs []string
	fail := func(format string, a ...any) { errs = append(errs, fmt.Sprintf(format, a...)) }
	seenRepo := map[string]string{}
	for i, b := range f.Bases {
		where := fmt.Sprintf("bases[%d] (%s)", i, b.Name)
		if b.OS != Windows && b.OS != Linux {
			fail("%s.os: Unsupported value: %q: supported values: %q, %q", where, b.OS, Linux, Windows)
		}
		if b.OS == Linux && b.InBox {
			fail("%s.inBox: Forbidden: only windows bases have Windows Server's in-box programs", where)
		}
		for j, r := range b.Repositories {
			named, err := reference.ParseNormalizedNamed(r)
			if err != nil || !reference.IsNameOnly(named) {
				fail("%s.repositories[%d]: Invalid value: %q: a repository without tag or digest", where, j, r)
				continue
			}
			key := string(b.OS) + "/" + named.Name()
			if prev, dup := seenRepo[key]; dup {
				fail("%s.repositories[%d]: Duplicate value: %q: already in base %s", where, j, r, prev)
			}
			seenRepo[key] = b.Name
		}
		validateBase(b, where, fail)
	}
	seenCmdlet := map[string]string{}
	for i, m := range f.Modules {
		where := fmt.Sprintf("modules[%d] (%s)", i, m.Module)
		if !strings.HasPrefix(m.Source, "https://learn.microsoft.com/") {
			fail("%s.source: Invalid value: %q: cite the module's reference page on learn.microsoft.com", where, m.Source)
		}
		for j, c := range m.Cmdlets {
			switch {
			case !VerbNounRE.MatchString(c):
				fail("%s.cmdlets[%d]: Invalid value: %q: want Verb-Noun", where, j, c)
			case seenCmdlet[strings.ToLower(c)] != "":
				fail("%s.cmdlets[%d]: Duplicate value: %q: already in module %s", where, j, c, seenCmdlet[strings.ToLower(c)])
			}
			seenCmdlet[strings.ToLower(c)] = m.Module
		}
	}
	seenExe := map[string]bool{}
	for i, n := range f.Executables.Names {
		switch {
		case ProgramName(n, true) != n:
			fail("executables.names[%d]: Invalid value: %q: a lower-case name without .exe", i, n)
		case seenExe[n]:
			fail("executables.names[%d]: Duplicate value: %q", i, n)
		}
		seenExe[n] = true
	}
	for os, names := range f.Tools {
		if os != Windows && os != Linux {
			fail("tools.%s: Unsupported value: %q: supported values: %q, %q", os, os, Linux, Windows)
		}
		seen := map[string]bool{}
		for i, n := range names {
			switch {
			case ProgramName(n, os == Windows) != n || strings.Contains(n, "/"):
				fail("tools.%s[%d]: Invalid value: %q: a program name without path (Windows: lower case, no .exe)", os, i, n)
			case seen[n]:
				fail("tools.%s[%d]: Duplicate value: %q", os, i, n)
			}
			seen[n] = true
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("inbox.yaml: %s", strings.Join(errs, "; "))
	}
	return &f, nil
}

func mustLoadInBox(data []byte) *inBoxTable {
	f, err := LoadInBox(data)
	if err != nil {
		panic(err) // TestInBoxTable rules this out
	}
	t := &inBoxTable{bases: map[OS]map[string]BaseImage{}, cmdlets: map[string]string{}, exes: map[string]bool{}}
	t.loadBases(f.Bases)
	for _, b := range f.Bases {
		if t.bases[b.OS] == nil {
			t.bases[b.OS] = map[string]BaseImage{}
		}
		for _, r := range b.Repositories {
			named, _ := reference.ParseNormalizedNamed(r)
			t.bases[b.OS][named.Name()] = b
		}
	}
	for _, m := range f.Modules {
		for _, c := range m.Cmdlets {
			t.cmdlets[strings.ToLower(c)] = m.Module
		}
	}
	for _, n := range f.Executables.Names {
		t.exes[n] = true
	}
	t.programs, t.exact = map[string]map[string]bool{}, map[string]bool{}
	for _, b := range f.Bases {
		t.exact[b.Name] = b.Exact
		if len(b.Programs) > 0 {
			t.programs[b.Name] = map[string]bool{}
		}
		for _, n := range b.Programs {
			t.programs[b.Name][n] = false
		}
		for _, n := range b.Servers {
			t.programs[b.Name][n] = true
		}
	}
	t.tools = map[OS]map[string]bool{}
	for os, names := range f.Tools {
		t.tools[os] = map[string]bool{}
		for _, n := range names {
			t.tools[os][n] = true
		}
	}
	return t
}

// ImageOf is what wink knows of the programs of image ref (a container's
// image reference) on os: a base of inbox.yaml, or an open image (of a
// servercore-like base, with in-box programs, on Windows). A HostProcess
// container sees the host's in-box programs besides its image's files
// (under the sandbox mount point): open when the image is not a base, so
// that upstream's `foobar.exe` in the e2e busybox image still fails to
// start (host_process.go, row B10).
func ImageOf(os OS, ref string, hostProcess bool) Image {
	img := Image{Open: true, InBox: os == Windows}
	if named, err := reference.ParseNormalizedNamed(ref); err == nil {
		if b, ok := inBox().bases[os][named.Name()]; ok {
			img = Image{InBox: b.InBox, Base: b.Name}
		}
	}
	if hostProcess {
		img.InBox, img.Base = true, "host"
	}
	return img
}

// InBoxCmdlet returns the in-box module of a PowerShell cmdlet wink does not
// simulate.
func InBoxCmdlet(name string) (module string, ok bool) {
	module, ok = inBox().cmdlets[strings.ToLower(name)]
	return module, ok
}

// InBoxExecutable reports whether argv0 names an in-box System32
// executable wink does not simulate.
func InBoxExecutable(argv0 string) bool { return inBox().exes[ProgramName(argv0, true)] }

// Unsimulated runs a program wink does not simulate but knows may be
// present (see Present): an in-box program exits 0 at once with no output;
// a tool that ends exits 0 at once; any other program of an open image is
// an UnknownProgram. ok is false when the program is known to be absent.
//
// Each of these leaves a trace (NotSimulated: a Warning event on the pod,
// issue 18): the program ran, but wink did not judge what it did.
func (p *Proc) Unsimulated(argv0 string) (code int, ok bool) {
	if p.Win && p.Env.Image.InBox && InBoxExecutable(argv0) {
		p.NotSimulated(ProgramName(argv0, true))
		return 0, true
	}
	if server, ok := inBox().programs[p.Env.Image.Base][ProgramName(argv0, p.Win)]; ok {
		// a program the base image has that wink does not simulate (issue 18)
		p.NotSimulated(ProgramName(argv0, p.Win))
		if server {
			return p.UnknownProgram(), true
		}
		return 0, true
	}
	if p.Env.Image.Open {
		p.NotSimulated(ProgramName(argv0, p.Win))
		if Tool(p.Env.OS, argv0) {
			return 0, true
		}
		return p.UnknownProgram(), true
	}
	return 0, false
}

// UnknownProgram runs a program or script of an open image that wink does
// not simulate: run to completion (Env.Completes: by a probe, a hook,
// kubectl exec, as an init container or in a Job) it ends at once with 0;
// otherwise it runs until stopped.
func (p *Proc) UnknownProgram() int {
	if p.Env.Completes {
		return 0
	}
	return p.Block()
}

// BaseHas reports whether base (an inbox.yaml base's name) has program
// argv0 on its PATH.
func BaseHas(base, argv0 string) bool {
	_, ok := inBox().programs[base][ProgramName(argv0, false)]
	return ok
}

// BaseLacks reports whether base is known to lack program argv0: a base
// whose programs are exactly its list, which does not have it.
func BaseLacks(base, argv0 string) bool {
	return inBox().exact[base] && !BaseHas(base, argv0)
}

// Tool reports whether argv0 is a command-line tool that ends (inbox.yaml
// tools): in an open image, where the shell does not simulate it, it exits
// 0 with no output.
func Tool(os OS, argv0 string) bool { return inBox().tools[os][ProgramName(argv0, os == Windows)] }

// ScriptMayExist reports whether a script that the container's file system
// does not have may still be in the image: an open image's files are not
// all known (a script shipped in the image, e.g.
// $env:CONTAINER_SANDBOX_MOUNT_POINT/kube-proxy/start.ps1). A file the
// file system knows is absent for sure (a path in a volume wink simulates)
// answers with a permission error or a readable parent directory.
func (p *Proc) ScriptMayExist(path string, err error) bool {
	if !p.Env.Image.Open {
		return false
	}
	if errors.Is(err, fs.ErrPermission) {
		return false
	}
	return !p.knownAbsent(path)
}

// VolumeFS is an FS that tells which paths lie in a volume wink simulates,
// whose content it knows entirely (volumes.containerFS implements it).
type VolumeFS interface {
	InVolume(path string) bool
}

// knownAbsent reports whether a missing path is known to be absent: it lies
// in a volume wink simulates.
func (p *Proc) knownAbsent(path string) bool {
	v, ok := p.Env.Files.(VolumeFS)
	return ok && v.InVolume(p.Path(path))
}

// RunUntilStopped runs a program wink does not simulate (an image's own
// ENTRYPOINT): no output, until ctx is done, sleeping on env's clock; it
// returns what a stopped process returns.
func RunUntilStopped(ctx context.Context, env *Env) int {
	if env == nil {
		env = &Env{}
	}
	p := NewProc(ctx, env, nil, nil, nil, nil)
	defer p.End()
	return p.Block()
}

// RunUnsimulated is RunUntilStopped for a program wink knows by name
// (argv[0], the image's own server): it leaves the trace of Unsimulated.
func RunUnsimulated(ctx context.Context, env *Env, argv []string) int {
	if env != nil && len(argv) > 0 && env.Tracer != nil {
		env.Tracer.NotSimulated(ProgramName(argv[0], env.OS == Windows))
	}
	return RunUntilStopped(ctx, env)
}
