// Package controlplane runs the upstream control-plane components inside the
// wink binary, hyperkube style: `wink component kube-apiserver --flags...`.
//
// It is the only package in wink that links k8s.io/kubernetes and etcd's
// server. Only cmd/wink imports it, so the tests of every other package stay
// fast to build.
package controlplane

import (
	"fmt"
	"os"
	"sort"
	"time"

	_ "time/tzdata" // CronJob time zones, as upstream mains embed them

	"github.com/spf13/cobra"
	"go.etcd.io/etcd/server/v3/etcdmain"
	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register"          // JSON log format, as upstream mains register it
	_ "k8s.io/component-base/metrics/prometheus/clientgo" // client-go metrics, as upstream mains register them
	_ "k8s.io/component-base/metrics/prometheus/version"  // version metric, as upstream mains register it
	apiserver "k8s.io/kubernetes/cmd/kube-apiserver/app"
	controllermanager "k8s.io/kubernetes/cmd/kube-controller-manager/app"
	scheduler "k8s.io/kubernetes/cmd/kube-scheduler/app"

	"wink.dev/wink/harness/controlplane/kubeversion"
	"wink.dev/wink/harness/internal/supervisor"
)

// upstream maps a component name to its upstream command constructor.
var upstream = map[string]func() *cobra.Command{
	"kube-apiserver":          apiserver.NewAPIServerCommand,
	"kube-controller-manager": controllermanager.NewControllerManagerCommand,
	"kube-scheduler":          func() *cobra.Command { return scheduler.NewSchedulerCommand() },
	"metrics-server":          newMetricsServerCommand, // metricsserver.go
}

// Names lists the components this binary can run.
func Names() []string {
	names := []string{"etcd"}
	for n := range upstream {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Run runs component name with args (flags only, no program name) and returns
// its exit code. It does not return for etcd, which exits the process itself.
func Run(name string, args []string) int {
	exitWithin(name, supervisor.DefaultStopTimeout)
	if name == "etcd" {
		etcdmain.Main(append([]string{"etcd"}, args...))
		return 0
	}
	newCmd, ok := upstream[name]
	if !ok {
		fmt.Fprintf(os.Stderr, "unknown component %q: known components are %v\n", name, Names())
		return 2
	}
	// /version, kubernetes_build_info and user agents say the linked
	// release (v1.35.4), not go build's v0.0.0-master placeholder.
	info, err := kubeversion.Get()
	if err == nil {
		err = kubeversion.Apply(info)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		return 1
	}
	cmd := newCmd()
	cmd.SetArgs(args)
	return cli.Run(cmd)
}

// exitWithin makes the component exit at most d after its supervisor is
// gone, as the supervisor would kill it after SIGTERM. A killed
// supervisor's children get SIGTERM (Pdeathsig) and nobody is left to kill
// one whose graceful stop hangs: an apiserver draining requests to an etcd
// that stopped with it waits a minute. SIGTERM itself is left to the
// component (a kube-controller-manager just dies of it, its default), so
// this watches for the parent to change instead.
func exitWithin(name string, d time.Duration) {
	parent := os.Getppid()
	go func() {
		for os.Getppid() == parent {
			time.Sleep(time.Second)
		}
		time.Sleep(d)
		fmt.Fprintf(os.Stderr, "%s: its supervisor is gone and it did not stop within %s: exiting\n", name, d)
		os.Exit(1)
	}()
}
