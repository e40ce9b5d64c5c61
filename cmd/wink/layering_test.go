package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "wink.dev/wink"

// The size limits of docs/architecture.md: a package over maxPackageLines
// (non-test Go) or holding a non-test file over maxFileLines says why in its
// doc.go, in a paragraph starting "Size:".
const (
	maxFileLines    = 1200
	maxPackageLines = 6000
)

// TestLayering keeps the layers of docs/architecture.md true, from the
// imports the build really links (go list -deps, tests excluded):
//   - simnode links nothing of harness: harness converts the user's
//     wink.yaml into simnode/config;
//   - suites and reports link none of simnode's runtime: only its leaf
//     packages simnode/facts (the catalog and the evidence format),
//     simnode/config (what harness writes), simnode/egress
//     (harness.Dialer), simnode/certs, simnode/atomicfile and
//     simnode/images (the image catalog the reference webhook decides B4
//     with, as the nodes do);
//   - only harness/controlplane, and the binary that runs it, link
//     k8s.io/kubernetes; but for agnhost's own code (test/images/agnhost),
//     the e2e image's program that simnode/agnhost runs as it is, which
//     links no control plane.
func TestLayering(t *testing.T) {
	deps := listDeps(t)
	notRuntime := []string{module + "/simnode/facts", module + "/simnode/config", module + "/simnode/egress", module + "/simnode/certs", module + "/simnode/atomicfile", module + "/simnode/images"}
	for pkg, ds := range deps {
		for _, d := range ds {
			switch {
			case under(pkg, "simnode") && under(d, "harness"):
				t.Errorf("%s links %s: simnode must link nothing of harness", pkg, d)
			case (under(pkg, "suites") || under(pkg, "reports")) && under(d, "simnode") && !slices.Contains(notRuntime, d):
				t.Errorf("%s links %s: suites and reports link none of simnode's runtime (only %s)", pkg, d, strings.Join(notRuntime, ", "))
			case strings.HasPrefix(d, "k8s.io/kubernetes/") && !strings.HasPrefix(d, "k8s.io/kubernetes/test/images/agnhost/") && !slices.Contains([]string{module + "/harness/controlplane", module + "/cmd/wink/app", module + "/cmd/wink"}, pkg):
				t.Errorf("%s links %s: only harness/controlplane links k8s.io/kubernetes", pkg, d)
			}
		}
	}
}

// TestSizes: no non-test Go file over maxFileLines lines and no package
// over maxPackageLines, unless its doc.go gives the reason ("Size: ...").
func TestSizes(t *testing.T) {
	root := filepath.Join("..", "..")
	perDir := map[string]int{}
	big := map[string][]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "bin") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n := bytes.Count(data, []byte("\n"))
		dir := filepath.Dir(p)
		perDir[dir] += n
		if n > maxFileLines {
			big[dir] = append(big[dir], fmt.Sprintf("%s (%d lines)", filepath.Base(p), n))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for dir, n := range perDir {
		if n <= maxPackageLines && len(big[dir]) == 0 {
			continue
		}
		if sizeReason(filepath.Join(dir, "doc.go")) {
			continue
		}
		rel, _ := filepath.Rel(root, dir)
		t.Errorf("%s: %d lines of Go, files over %d lines: %v; split it, or say why not in a \"Size:\" paragraph of its doc.go", rel, n, maxFileLines, big[dir])
	}
}

// sizeReason says whether a doc.go has a "// Size:" paragraph.
func sizeReason(docGo string) bool {
	f, err := os.Open(docGo)
	if err != nil {
		return false
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if strings.HasPrefix(s.Text(), "// Size: ") {
			return true
		}
	}
	return false
}

// listDeps maps each package of the module to what it links.
func listDeps(t *testing.T) map[string][]string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	out, err := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}}{{range .Deps}} {{.}}{{end}}`, module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		if len(fields) > 0 && under(fields[0], "") {
			deps[fields[0]] = fields[1:]
		}
	}
	if len(deps) == 0 {
		t.Fatal("go list found no package of the module")
	}
	return deps
}

// under says whether pkg is the module's dir or below it ("" for the module).
func under(pkg, dir string) bool {
	base := module
	if dir != "" {
		base += "/" + dir
	}
	return pkg == base || strings.HasPrefix(pkg, base+"/")
}
