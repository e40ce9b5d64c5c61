package process

import (
	"fmt"
	"slices"
	"strings"
)

// The Windows side of inbox.yaml's bases (issue 18: images' programs as
// data): which programs of the shell's tables a base does not have, and
// the Windows PowerShell it has, whose version follows the build the
// container runs on (Env.OSVersion, row N3).

// validateBase checks a base's absent and powerShell fields.
func validateBase(b BaseImage, where string, fail func(string, ...any)) {
	for i, n := range b.Absent {
		if ProgramName(n, b.OS == Windows) != n || strings.Contains(n, "/") {
			fail("%s.absent[%d]: Invalid value: %q: a program name without path (Windows: lower case, no .exe)", where, i, n)
		}
		if slices.Contains(b.Absent[:i], n) {
			fail("%s.absent[%d]: Duplicate value: %q", where, i, n)
		}
	}
	switch {
	case b.PowerShell == "":
	case b.OS != Windows:
		fail("%s.powerShell: Forbidden: only windows bases have Windows PowerShell", where)
	case b.PowerShell != "5.1":
		fail("%s.powerShell: Unsupported value: %q: supported values: %q", where, b.PowerShell, "5.1")
	case slices.Contains(b.Absent, "powershell"):
		fail("%s.powerShell: Invalid value: %q: the base has powershell among its absent programs", where, b.PowerShell)
	}
}

// loadBases indexes the bases by name.
func (t *inBoxTable) loadBases(bases []BaseImage) {
	t.absent = map[OS]map[string]map[string]bool{}
	t.bases2 = map[OS]map[string]BaseImage{}
	for _, b := range bases {
		if t.absent[b.OS] == nil {
			t.absent[b.OS], t.bases2[b.OS] = map[string]map[string]bool{}, map[string]BaseImage{}
		}
		t.bases2[b.OS][b.Name] = b
		t.absent[b.OS][b.Name] = map[string]bool{}
		for _, n := range b.Absent {
			t.absent[b.OS][b.Name][n] = true
		}
	}
}

// Absent reports whether the image's base is known not to have program
// argv0, though the shell's tables simulate it (inbox.yaml bases[].absent:
// `powershell` in nanoserver). The program is then not found: cmd says it
// is not recognized (9009), and as the container's command it is the
// runtime's StartError.
func (img Image) Absent(os OS, argv0 string) bool {
	return img.Base != "" && inBox().absent[os][img.Base][ProgramName(argv0, os == Windows)]
}

// imagePrograms are the programs of a table the image's base has.
type imagePrograms struct {
	Programs
	img Image
}

func (t imagePrograms) Lookup(os OS, argv0 string) (*Command, bool) {
	if t.img.Absent(os, argv0) {
		return nil, false
	}
	return t.Programs.Lookup(os, argv0)
}

// WindowsPowerShell is the version $PSVersionTable.PSVersion of the
// image's Windows PowerShell says, 5.1.<build>.<revision> of the Windows
// build the container runs on (Env.OSVersion, row N3); ok is false when
// the image's base has none (nanoserver) or is not known to have it.
func (p *Proc) WindowsPowerShell() (version string, ok bool) {
	b, known := inBox().bases2[p.Env.OS][p.Env.Image.Base]
	has := known && b.PowerShell != "" || p.Env.Image.InBox && !known
	if !has {
		return "", false
	}
	build, rev := p.WindowsBuild()
	return fmt.Sprintf("5.1.%s.%s", build, rev), true
}

// WindowsBuild is the build and revision (UBR) of the Windows version the
// container runs on (OSVersion, row N3): "20348", "2655" for
// 10.0.20348.2655, as the registry's CurrentBuild and UBR say.
func (p *Proc) WindowsBuild() (build, revision string) {
	parts := strings.Split(p.OSVersion(), ".")
	if len(parts) < 3 {
		return "20348", "0"
	}
	revision = "0"
	if len(parts) > 3 {
		revision = parts[3]
	}
	return parts[2], revision
}
