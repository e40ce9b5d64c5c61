// Command wink brings up Kubernetes clusters with simulated Windows nodes.
package main

import (
	"os"
	"path/filepath"
	"slices"

	"wink.dev/wink/cmd/wink/app"
	"wink.dev/wink/harness/controlplane"
	"wink.dev/wink/simnode/shell/programs/awk"
)

func main() {
	// simnode's awk runs in a bounded child: this binary in a hidden mode.
	if code, ok := awk.ServeAwk(); ok {
		os.Exit(code)
	}
	args := os.Args[1:]
	// Started as a control-plane component's name (the kind node image's
	// control-plane images link kube-apiserver, etcd, ... to this binary,
	// as kubeadm's static pods call them), it is that component.
	if name := filepath.Base(os.Args[0]); slices.Contains(controlplane.Names(), name) {
		args = append([]string{"component", name}, args...)
	}
	os.Exit(app.Main(args, os.Stdout, os.Stderr))
}
