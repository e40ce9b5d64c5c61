package harness

import (
	"context"
	"fmt"
	"log/slog"
	"os"

	"wink.dev/wink/harness/internal/dockershim"
	"wink.dev/wink/harness/internal/kindgateway"
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

// KindGatewayOptions are the flags of `wink kind gateway`.
type KindGatewayOptions struct {
	// Addresses is the simulated nodes' block, <first>+<count>.
	Addresses string
	// Routes are <prefix>=<via>, kind's nodes' podCIDRs.
	Routes []string
	// Interface, RelayPort, Inbound and Outbound: kindgateway.Config's.
	Interface         string
	RelayPort         int
	Inbound, Outbound string
}

// KindGateway serves the kind backend's network gateway inside its
// container (the hidden `wink kind gateway`, harness/internal/kindgateway)
// until ctx is done.
func KindGateway(ctx context.Context, o KindGatewayOptions) error {
	b, err := kindgateway.ParseBlock(o.Addresses)
	if err != nil {
		return fmt.Errorf("--addresses: %w", err)
	}
	cfg := kindgateway.Config{Addresses: b, Interface: o.Interface, RelayPort: o.RelayPort, Inbound: o.Inbound, Outbound: o.Outbound}
	for _, r := range o.Routes {
		route, err := kindgateway.ParseRoute(r)
		if err != nil {
			return fmt.Errorf("--route: %w", err)
		}
		cfg.Routes = append(cfg.Routes, route)
	}
	return kindgateway.Run(ctx, cfg, slog.New(slog.NewTextHandler(os.Stderr, nil)))
}
