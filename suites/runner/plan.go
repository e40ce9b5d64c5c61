package runner

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// suiteRun is one suite to run: a prebuilt binary, or a package for go test.
type suiteRun struct {
	Area    string
	Package string
	Binary  string // "" for go test
	Dir     string // the working directory (the package directory, for its fixtures)
	Total   int    // features it will run (-1: unknown)
}

// testPlan is how `wink test` runs the suites.
type testPlan struct {
	Mode   string // "binaries" or "go test"
	From   string // the suite directory or the module root
	Root   string // the checkout, "" if none
	Suites []suiteRun
	Note   string // one line about the choice, "" if none (stale binaries)
	// Upstream is the conformance suite's upstream specs, built beside
	// the suites; "" when there is none.
	Upstream string
}

// findSuites looks for prebuilt suite binaries, then for a checkout with a
// Go toolchain. Inside a checkout, binaries older than the sources they are
// built from (staleSource), or lacking some suite, are built again from
// source with a note, or, when --suite-dir insists on them or there is no
// Go toolchain, run with a warning.
func findSuites(f *Options) (*testPlan, error) {
	root := findModuleRoot()
	var note string // why binaries that were found are not run
	var dirs []string
	if f.SuiteDir != "" {
		dirs = []string{f.SuiteDir}
	} else {
		if exe, err := os.Executable(); err == nil {
			dirs = append(dirs, filepath.Join(filepath.Dir(exe), "suites"))
		}
		dirs = append(dirs, filepath.Join("bin", "suites"))
		if root != "" {
			dirs = append(dirs, filepath.Join(root, "bin", "suites"))
		}
	}
	for _, dir := range dirs {
		bins, _ := filepath.Glob(filepath.Join(dir, "*.test"))
		if len(bins) == 0 {
			continue
		}
		plan := &testPlan{Mode: "binaries", From: dir, Root: root}
		if up := filepath.Join(dir, upstreamBinary); isFile(up) {
			plan.Upstream = absPath(up)
		}
		if root == "" {
			// bin/suites of a checkout: its root is two levels up.
			if r := filepath.Dir(filepath.Dir(absPath(dir))); isModuleRoot(r) {
				plan.Root = r
			}
		}
		for _, bin := range bins {
			area := strings.TrimSuffix(filepath.Base(bin), ".test")
			if slices.Contains(notSuites, area) {
				continue
			}
			s := suiteRun{Area: area, Package: suitePackage + area, Binary: absPath(bin), Total: -1}
			if plan.Root != "" {
				s.Dir = filepath.Join(plan.Root, "suites", area)
			}
			plan.Suites = append(plan.Suites, s)
		}
		if plan.Root == "" {
			return plan, selectSuites(plan, f.Suites)
		}
		var stale string // why the binaries should be built again
		missing := missingSuites(plan, f.Suites)
		if len(missing) > 0 {
			stale = "lack the suites " + strings.Join(missing, ", ")
		} else {
			if err := selectSuites(plan, f.Suites); err != nil {
				return nil, err
			}
			src, err := staleSource(plan.Root, plan.Suites)
			if err != nil {
				plan.Note = fmt.Sprintf("WARNING: cannot tell whether the suite binaries in %s are as new as the checkout %s: %v", dir, plan.Root, err)
				return plan, nil
			}
			if src == "" {
				return plan, nil
			}
			stale = "are older than " + src
		}
		_, noGo := exec.LookPath("go")
		if f.SuiteDir != "" || noGo != nil {
			if len(missing) > 0 {
				if err := selectSuites(plan, f.Suites); err != nil {
					return nil, err
				}
			}
			why := "as --suite-dir says (`make suites` builds them again)"
			if f.SuiteDir == "" {
				why = "anyway: without a Go toolchain the suites cannot be built"
			}
			plan.Note = fmt.Sprintf("WARNING: the suite binaries in %s %s: running them %s", dir, stale, why)
			return plan, nil
		}
		root, note = plan.Root, fmt.Sprintf("The suite binaries in %s %s: building them", dir, stale)
		break
	}
	if f.SuiteDir != "" {
		return nil, UsageError{fmt.Errorf("--suite-dir %s: no suite binaries (<area>.test) there: build them with `make suites`", f.SuiteDir)}
	}
	if root == "" {
		return nil, fmt.Errorf("no suites to run: no prebuilt binaries in %s (build them with `make suites`) and not inside a wink checkout", strings.Join(dirs, ", "))
	}
	if _, err := exec.LookPath("go"); err != nil {
		return nil, fmt.Errorf("no suites to run: no prebuilt binaries in %s (build them with `make suites`) and no Go toolchain for `go test`", strings.Join(dirs, ", "))
	}
	plan := &testPlan{Mode: "go test", From: root, Root: root, Note: note}
	areas, err := sourceSuites(root)
	if err != nil {
		return nil, err
	}
	for _, a := range areas {
		plan.Suites = append(plan.Suites, suiteRun{Area: a, Package: suitePackage + a, Dir: filepath.Join(root, "suites", a), Total: -1})
	}
	return plan, selectSuites(plan, f.Suites)
}

// sourceSuites are the areas of the checkout root's suites: the packages
// directly under suites/ that hold tests, but notSuites.
func sourceSuites(root string) ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(root, "suites"))
	if err != nil {
		return nil, err
	}
	var areas []string
	for _, e := range entries {
		if !e.IsDir() || slices.Contains(notSuites, e.Name()) {
			continue
		}
		if tests, _ := filepath.Glob(filepath.Join(root, "suites", e.Name(), "*_test.go")); len(tests) > 0 {
			areas = append(areas, e.Name())
		}
	}
	return areas, nil
}

// missingSuites are the suites of the plan's checkout that it would run
// (all, or those named) but has no binary of: an earlier run built only
// some, or a suite was added since.
func missingSuites(plan *testPlan, names []string) []string {
	areas, err := sourceSuites(plan.Root)
	if err != nil {
		return nil
	}
	have := map[string]bool{}
	for _, s := range plan.Suites {
		have[s.Area] = true
	}
	var missing []string
	for _, a := range areas {
		if !have[a] && (len(names) == 0 || slices.Contains(names, a)) {
			missing = append(missing, a)
		}
	}
	return missing
}

// selectSuites keeps the suites named by --suites, in the order given.
func selectSuites(plan *testPlan, names []string) error {
	if len(names) == 0 {
		return nil
	}
	var areas []string
	for _, s := range plan.Suites {
		areas = append(areas, s.Area)
	}
	var kept []suiteRun
	for _, n := range names {
		i := slices.Index(areas, strings.TrimSpace(n))
		if i < 0 {
			return UsageError{fmt.Errorf("--suites: no suite %q (there are: %s)", n, strings.Join(areas, ", "))}
		}
		kept = append(kept, plan.Suites[i])
	}
	plan.Suites = kept
	return nil
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

func isModuleRoot(dir string) bool {
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	return err == nil && strings.Contains(string(data), "module wink.dev/wink\n")
}

// staleSource is the newest file of the checkout root that the suite
// binaries are built from, relative to root, when it is newer than one of
// them; "" when every binary is at least as new. `go test -c` sets a
// binary's mtime even when it had nothing to rebuild, so an mtime older
// than a source file means the binary may not hold that file's change.
// Which files count is what any package could build from, over-approximated
// for soundness rather than asked of `go list` (seconds, and no toolchain
// needed): go.mod and go.sum, every .go file, and every other file in or
// below a directory holding Go files, since //go:embed patterns reach the
// package directory and its subdirectories (testdata included). Left out:
// bin/, directories whose names start with "." (.git) and nested modules.
// Files outside any package directory, such as README.md and docs/, cannot
// be built into a binary.
func staleSource(root string, suites []suiteRun) (string, error) {
	var oldest time.Time
	for _, s := range suites {
		if s.Binary == "" {
			continue
		}
		fi, err := os.Stat(s.Binary)
		if err != nil {
			return "", err
		}
		if oldest.IsZero() || fi.ModTime().Before(oldest) {
			oldest = fi.ModTime()
		}
	}
	if oldest.IsZero() {
		return "", nil
	}
	path, mod, err := newestSource(root)
	if err != nil || !mod.After(oldest) {
		return "", err
	}
	rel, err := filepath.Rel(root, path)
	if err != nil {
		rel = path
	}
	return fmt.Sprintf("%s (modified %s after them)", rel, mod.Sub(oldest).Round(time.Second)), nil
}

// newestSource is the most recently modified file of root that a binary of
// the module can be built from (see staleSource) and its mtime.
func newestSource(root string) (string, time.Time, error) {
	type file struct {
		path string
		mod  time.Time
	}
	var newest file
	var others []file // neither .go nor go.mod/go.sum
	goDirs := map[string]bool{}
	bin := filepath.Join(root, "bin")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			return nil // unreadable or vanished: nothing a build reads either
		}
		if d.IsDir() {
			if p != root && (strings.HasPrefix(d.Name(), ".") || p == bin || isFile(filepath.Join(p, "go.mod"))) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		f := file{p, info.ModTime()}
		switch {
		case strings.HasSuffix(p, ".go"):
			goDirs[filepath.Dir(p)] = true
		case p == filepath.Join(root, "go.mod") || p == filepath.Join(root, "go.sum"):
		default:
			others = append(others, f)
			return nil
		}
		if f.mod.After(newest.mod) {
			newest = f
		}
		return nil
	})
	if err != nil {
		return "", time.Time{}, err
	}
	for _, f := range others {
		if !f.mod.After(newest.mod) {
			continue
		}
		for dir := filepath.Dir(f.path); len(dir) >= len(root); dir = filepath.Dir(dir) {
			if goDirs[dir] {
				newest = f
				break
			}
			if dir == root {
				break
			}
		}
	}
	return newest.path, newest.mod, nil
}

func isFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir()
}

// findModuleRoot is the wink checkout holding the working directory, if any.
func findModuleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if isModuleRoot(dir) {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
