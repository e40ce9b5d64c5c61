// Command wink brings up Kubernetes clusters with simulated Windows nodes.
package main

import (
	"os"

	"wink.dev/wink/cmd/wink/app"
)

func main() {
	os.Exit(app.Main(os.Args[1:], os.Stdout, os.Stderr))
}
