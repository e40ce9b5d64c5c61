package app

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"wink.dev/wink/harness"
)

func newKind(stdout io.Writer) *cobra.Command {
	kind := &cobra.Command{
		Use:   "kind",
		Short: "Run kind on this machine's Docker engine",
		Args:  cobra.NoArgs,
	}
	var home string
	shimPath := &cobra.Command{
		Use:   "shim-path",
		Short: "Print the directory of the docker shim kind needs on this engine (empty when it needs none)",
		Long: `Print the directory holding a docker shim for kind, or nothing when the
Docker engine runs --privileged containers and kind needs no shim.

Docker 20.10 refuses --privileged where the machine's capability bounding
set lacks a capability ("unable to apply caps"); the shim rewrites kind's
--privileged into the capabilities and devices the engine can grant. The
engine is probed once; the answer is kept under the wink home. Use it as

    PATH="$(wink kind shim-path):$PATH" kind create cluster --image wink.dev/kind-node:v1.35.4`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dir, err := harness.KindShimPath(cmd.Context(), harness.Options{Home: home})
			if err != nil {
				return err
			}
			if dir != "" {
				fmt.Fprintln(stdout, dir)
			}
			return nil
		},
	}
	shimPath.Flags().StringVar(&home, "home", "", "directory holding the clusters' state (default $WINK_HOME, else ~/.wink)")
	shim := &cobra.Command{
		Use:                "docker-shim",
		Hidden:             true,
		DisableFlagParsing: true,
		RunE: func(_ *cobra.Command, args []string) error {
			return harness.DockerShim(args)
		},
	}
	var gw harness.KindGatewayOptions
	gateway := &cobra.Command{
		Use:    "gateway",
		Hidden: true,
		Short:  "Serve the kind backend's network gateway (inside its container)",
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return harness.KindGateway(cmd.Context(), gw)
		},
	}
	gateway.Flags().StringVar(&gw.Addresses, "addresses", "", "the simulated nodes' addresses, <first>+<count>")
	gateway.Flags().StringArrayVar(&gw.Routes, "route", nil, "a route to a kind node's podCIDR, <prefix>=<via> (repeatable)")
	gateway.Flags().StringVar(&gw.Interface, "interface", "eth0", "the interface on kind's network")
	gateway.Flags().IntVar(&gw.RelayPort, "relay-port", 15001, "where redirected connections arrive")
	gateway.Flags().StringVar(&gw.Inbound, "inbound", "", "simnode's egress proxy (Unix socket)")
	gateway.Flags().StringVar(&gw.Outbound, "outbound", "", "the Unix socket to serve the gateway's own CONNECT proxy on")
	kind.AddCommand(shimPath, shim, gateway)
	return kind
}
