package harness

import (
	"context"

	"wink.dev/wink/harness/internal/dockershim"
)

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
	dir, _, err := dockershim.Setup(ctx, o.Home, o.Binary)
	return dir, err
}

// DockerShim runs the docker CLI for kind on an engine that refuses
// --privileged (the hidden `wink kind docker-shim` the shim script runs).
// It returns only when the CLI could not be started.
func DockerShim(args []string) error { return dockershim.Exec(args) }
