package conformance

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Binaries are the upstream test programs of one Kubernetes version.
type Binaries struct {
	// E2E is e2e.test (k8s.io/kubernetes/test/e2e built with go test -c).
	E2E string
	// Ginkgo is the ginkgo CLI of the version's go.mod, which runs
	// e2e.test in parallel processes; "" when not built.
	Ginkgo string
}

// BuildOptions say what to build where.
type BuildOptions struct {
	// Version of Kubernetes, e.g. v1.35.4.
	Version string
	// Dir caches the build: <Dir>/<version>/{e2e.test,ginkgo,go.mod}.
	Dir string
	// Ginkgo builds the ginkgo CLI too (parallel jobs).
	Ginkgo bool
	// Have are binaries the caller already has (--e2e-binary,
	// --ginkgo-binary): they are returned as given, never built.
	Have Binaries
	// Log gets the go commands and their output.
	Log io.Writer
	// Progress, when a build is needed, is told what is built, where, and
	// how long it has taken so far against ExpectedBuildTime, every
	// ProgressEvery (default 30s) until it is done (issue 21).
	Progress      io.Writer
	ProgressEvery time.Duration
}

// ExpectedBuildTime is about how long the first build of e2e.test takes on
// a machine of 2 cores (issue 21: 30 minutes on 2 cores shared with six
// other builds; later builds reuse it).
const ExpectedBuildTime = 15 * time.Minute

// CacheDir is where e2e.test and ginkgo are built once per machine, one
// directory per version: the user cache directory's wink/e2e
// ($XDG_CACHE_HOME or ~/.cache), which `wink conformance` and the tests
// share.
func CacheDir() (string, error) {
	c, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no user cache directory to build e2e.test in: %w", err)
	}
	return filepath.Join(c, "wink", "e2e"), nil
}

// Built reports whether BuildE2E has nothing to build for opts (the
// binaries are given or in its cache).
func Built(opts BuildOptions) bool {
	dir := filepath.Join(opts.Dir, opts.Version)
	if opts.Have.E2E == "" && !exists(filepath.Join(dir, "e2e.test")) {
		return false
	}
	return !opts.Ginkgo || opts.Have.Ginkgo != "" || exists(filepath.Join(dir, "ginkgo"))
}

// ErrNoGo is BuildE2E's error without a Go toolchain.
var ErrNoGo = errors.New("no Go toolchain (go) on PATH to build e2e.test: install Go, or give --e2e-binary (and --ginkgo-binary for parallel jobs)")

// BuildE2E builds e2e.test (and ginkgo) of opts.Version from the Go module
// cache, or reuses an earlier build in opts.Dir; it builds only what
// opts.Have and the cache lack. The build is a module of
// its own that requires k8s.io/kubernetes at the version and replaces its
// staging modules (k8s.io/api, ...) by their published v0.<minor>.<patch>
// versions, as k8s.io/kubernetes' own go.mod maps them to ./staging.
func BuildE2E(ctx context.Context, opts BuildOptions) (_ Binaries, err error) {
	dir := filepath.Join(opts.Dir, opts.Version)
	bins := opts.Have
	needE2E, needGinkgo := false, false
	if bins.E2E == "" {
		bins.E2E = filepath.Join(dir, "e2e.test")
		needE2E = !exists(bins.E2E)
	}
	if opts.Ginkgo && bins.Ginkgo == "" {
		bins.Ginkgo = filepath.Join(dir, "ginkgo")
		needGinkgo = !exists(bins.Ginkgo)
	}
	if !needE2E && !needGinkgo {
		return bins, nil
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		return Binaries{}, ErrNoGo
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Binaries{}, err
	}
	log := opts.Log
	if log == nil {
		log = io.Discard
	}
	staging, err := stagingModules(ctx, goBin, opts.Version, log)
	if err != nil {
		return Binaries{}, err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(buildModule(opts.Version, staging)), 0o644); err != nil {
		return Binaries{}, err
	}
	tools := "//go:build tools\n\npackage tools\n\nimport (\n\t_ \"github.com/onsi/ginkgo/v2/ginkgo\"\n\t_ \"k8s.io/kubernetes/test/e2e\"\n)\n"
	if err := os.WriteFile(filepath.Join(dir, "tools.go"), []byte(tools), 0o644); err != nil {
		return Binaries{}, err
	}
	run := func(args ...string) error {
		fmt.Fprintf(log, "(cd %s && go %s)\n", dir, strings.Join(args, " "))
		cmd := exec.CommandContext(ctx, goBin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		cmd.Stdout, cmd.Stderr = log, log
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("go %s (in %s): %w", strings.Join(args, " "), dir, err)
		}
		return nil
	}
	fmt.Fprintf(log, "building the upstream test programs of %s (once; about %s on 2 cores)...\n", opts.Version, ExpectedBuildTime)
	if opts.Progress != nil {
		stop := announce(opts, dir)
		defer func() { stop(err) }()
	}
	if err := run("mod", "tidy"); err != nil {
		return Binaries{}, err
	}
	if needE2E {
		if err := run("test", "-c", "-o", bins.E2E+".tmp", "k8s.io/kubernetes/test/e2e"); err != nil {
			return Binaries{}, err
		}
		if err := os.Rename(bins.E2E+".tmp", bins.E2E); err != nil {
			return Binaries{}, err
		}
	}
	if needGinkgo {
		if err := run("build", "-o", bins.Ginkgo, "github.com/onsi/ginkgo/v2/ginkgo"); err != nil {
			return Binaries{}, err
		}
	}
	return bins, nil
}

// announce tells opts.Progress what BuildE2E builds, then how long it has
// taken, until stop is called.
func announce(opts BuildOptions, dir string) (stop func(error)) {
	what := "e2e.test"
	if opts.Ginkgo {
		what = "e2e.test and ginkgo"
	}
	fmt.Fprintf(opts.Progress, "Building upstream %s of Kubernetes %s from the Go module cache into %s: once, about %s on 2 cores (later runs reuse it)\n",
		what, opts.Version, dir, ExpectedBuildTime)
	every := opts.ProgressEvery
	if every <= 0 {
		every = 30 * time.Second
	}
	start := time.Now()
	done := make(chan error)
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case err := <-done:
				if err != nil {
					fmt.Fprintf(opts.Progress, "  %s: failed after %s\n", what, time.Since(start).Round(time.Second))
				} else {
					fmt.Fprintf(opts.Progress, "  %s: built in %s\n", what, time.Since(start).Round(time.Second))
				}
				return
			case <-t.C:
				fmt.Fprintf(opts.Progress, "  %s: building, %s of about %s\n", what, time.Since(start).Round(time.Second), ExpectedBuildTime)
			}
		}
	}()
	return func(err error) { done <- err; <-finished }
}

func exists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}

// stagingModules reads the staging modules k8s.io/kubernetes' go.mod
// replaces with ./staging/src/... (downloading the module when needed).
func stagingModules(ctx context.Context, goBin, version string, log io.Writer) ([]string, error) {
	cmd := exec.CommandContext(ctx, goBin, "mod", "download", "-json", "k8s.io/kubernetes@"+version)
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	cmd.Stderr = log
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go mod download k8s.io/kubernetes@%s: %w", version, err)
	}
	var mod struct{ GoMod string }
	if err := json.Unmarshal(out, &mod); err != nil || mod.GoMod == "" {
		return nil, fmt.Errorf("go mod download k8s.io/kubernetes@%s: no GoMod in %s", version, out)
	}
	data, err := os.ReadFile(mod.GoMod)
	if err != nil {
		return nil, err
	}
	return parseStaging(data), nil
}

// parseStaging returns the module paths a go.mod replaces with
// ./staging/src/<path>.
func parseStaging(gomod []byte) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(gomod))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if n := len(f); n >= 3 && f[n-2] == "=>" && strings.HasPrefix(f[n-1], "./staging/src/") {
			out = append(out, f[n-3])
		}
	}
	return out
}

// buildModule is the go.mod of the build: k8s.io/kubernetes vX.Y.Z, its
// staging modules at v0.Y.Z.
func buildModule(version string, staging []string) string {
	staged := "v0" + strings.TrimPrefix(strings.TrimPrefix(version, "v"), "1")
	var b strings.Builder
	b.WriteString("// Generated by wink conformance: builds k8s.io/kubernetes/test/e2e.\nmodule wink.dev/e2e-build\n\ngo 1.25.0\n\nrequire k8s.io/kubernetes " + version + "\n\nreplace (\n")
	for _, m := range staging {
		fmt.Fprintf(&b, "\t%s => %s %s\n", m, m, staged)
	}
	b.WriteString(")\n")
	return b.String()
}
