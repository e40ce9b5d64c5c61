// Command wink brings up Kubernetes clusters with simulated Windows nodes.
package main

import (
	"os"

	"wink.dev/wink/cmd/wink/app"
	"wink.dev/wink/simnode/shell/programs/awk"
)

func main() {
	// simnode's awk runs in a bounded child: this binary in a hidden mode
	// (issue 18).
	if code, ok := awk.ServeAwk(); ok {
		os.Exit(code)
	}
	os.Exit(app.Main(os.Args[1:], os.Stdout, os.Stderr))
}
