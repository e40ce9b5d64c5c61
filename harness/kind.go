package harness

import (
	"context"
	"fmt"
	"path/filepath"

	"wink.dev/wink/harness/internal/dockershim"
)

// shimDir holds the probed engines and their docker shims under the home;
// a leading dot keeps it apart from every cluster name.
const shimDir = ".docker-shim"

// KindShimPath returns the directory holding the docker shim that lets
// kind run on the Docker engine the docker CLI talks to, or "" when the
// engine needs none (it runs --privileged containers). The engine is
// probed once and the answer kept under the home. Put the directory first
// on PATH for the kind CLI:
//
//	PATH="$(wink kind shim-path):$PATH" kind create cluster ...
func KindShimPath(ctx context.Context, opts Options) (string, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return "", err
	}
	return kindShim(ctx, o.Home, o.Binary)
}

// kindShim is KindShimPath for a home and wink executable.
func kindShim(ctx context.Context, home, wink string) (string, error) {
	docker, err := dockershim.RealDocker()
	if err != nil {
		return "", err
	}
	engines := filepath.Join(home, shimDir)
	e, err := dockershim.Cached(ctx, docker, engines)
	if err != nil {
		return "", fmt.Errorf("probing the Docker engine for kind: %w", err)
	}
	if !e.NeedsShim() {
		return "", nil
	}
	return dockershim.Install(filepath.Join(engines, "shim-"+e.FileName()), wink, docker, e)
}

// DockerShim runs the docker CLI for kind on an engine that refuses
// --privileged (the hidden `wink kind docker-shim` the shim script runs).
// It returns only when the CLI could not be started.
func DockerShim(args []string) error { return dockershim.Exec(args) }
