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
	kind.AddCommand(shimPath, shim)
	return kind
}
