package bench

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"wink.dev/wink/harness"
	"wink.dev/wink/simnode"
	"wink.dev/wink/suites/bench/profile"
)

// profileDir is $WINK_BENCH_PROFILE, the directory the benchmarks write
// their measured phases' profiles to, or "" for none.
func profileDir() string { return os.Getenv(profile.Env) }

// profileEnv, when the benchmarks profile, makes the next cluster serve its
// profiles: the apiserver's and etcd's (harness.ProfilingEnv) and simnode's
// on a free loopback port ($WINK_SIMNODE_PPROF, for the benchmark's
// duration).
func profileEnv(b *testing.B) {
	b.Helper()
	if profileDir() == "" {
		return
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	b.Setenv(harness.ProfilingEnv, "true")
	b.Setenv(simnode.PprofEnv, addr)
}

// stopFunc ends a profiled phase and prints its report, with the
// apiserver's writes per unit of work (e.g. per pod) when units > 0.
type stopFunc func(units int, unit string)

// profilePhase starts profiling a measured phase of a wink cluster when
// $WINK_BENCH_PROFILE is set (CPU profiles, CPU by component, the load,
// the apiserver's requests; pprof summaries in the directory).
func profilePhase(b *testing.B, name string, opts harness.Options) stopFunc {
	b.Helper()
	if profileDir() == "" {
		return func(int, string) {}
	}
	stop, err := startPhase(name, opts, b.Logf)
	if err != nil {
		b.Fatalf("profile %s: %v", name, err)
	}
	return stop
}

// profileUp profiles `wink up` of the cluster opts names, from its
// apiserver's first answer until the returned function is called (after
// up returned), when $WINK_BENCH_PROFILE is set.
func profileUp(b *testing.B, name string, opts harness.Options) stopFunc {
	b.Helper()
	if profileDir() == "" {
		return func(int, string) {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan stopFunc, 1)
	go func() {
		defer close(started)
		for ctx.Err() == nil {
			if stop, err := startPhase(name, opts, b.Logf); err == nil {
				started <- stop
				return
			}
			time.Sleep(200 * time.Millisecond)
		}
	}()
	return func(units int, unit string) {
		cancel()
		if stop, ok := <-started; ok {
			stop(units, unit)
		} else {
			b.Logf("profile %s: the apiserver never answered", name)
		}
	}
}

// startPhase starts profiling the cluster's components; it fails until the
// cluster's apiserver answers.
func startPhase(name string, opts harness.Options, logf func(string, ...any)) (stopFunc, error) {
	ctx := context.Background()
	kubeconfig, err := harness.KubeconfigPath(opts)
	if err != nil {
		return nil, err
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return nil, err
	}
	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return nil, err
	}
	apiserver := profile.HTTP{Base: cfg.Host, Client: hc}
	if _, err := apiserver.Get(ctx, "/readyz"); err != nil {
		return nil, err
	}
	pid := func(component string) func() int {
		return func() int {
			p, _ := harness.ComponentPID(opts, component) // 0: not running
			return p
		}
	}
	comps := []profile.Component{{Name: "kube-apiserver", PID: pid("kube-apiserver"), Pprof: apiserver}}
	if url, c, err := harness.EtcdClient(opts); err != nil {
		logf("profile %s: etcd: %v", name, err)
		comps = append(comps, profile.Component{Name: "etcd", PID: pid("etcd")})
	} else {
		comps = append(comps, profile.Component{Name: "etcd", PID: pid("etcd"), Pprof: profile.HTTP{Base: url, Client: c}})
	}
	sim := profile.Component{Name: "simnode", PID: pid("simnode")}
	if addr := os.Getenv(simnode.PprofEnv); addr != "" {
		sim.Pprof = profile.HTTP{Base: "http://" + addr}
	}
	comps = append(comps, sim,
		profile.Component{Name: "kube-scheduler", PID: pid("kube-scheduler")},
		profile.Component{Name: "kube-controller-manager", PID: pid("kube-controller-manager")},
		profile.Component{Name: "metrics-server", PID: pid("metrics-server")},
	)
	p, err := profile.Start(ctx, profileDir(), name, comps, apiserver)
	if err != nil {
		return nil, err
	}
	return reporter(name, p, logf), nil
}

// reporter is the stopFunc of a profiled phase.
func reporter(name string, p *profile.Phase, logf func(string, ...any)) stopFunc {
	return func(units int, unit string) {
		r, err := p.Stop(context.Background())
		if err != nil {
			logf("profile %s: %v", name, err)
		}
		if r == nil {
			return
		}
		fmt.Print(r.Summary)
		if units > 0 && len(r.Requests) > 0 {
			fmt.Printf("  writes per %s: %.2f (%d %ss)\n", unit, r.Requests.Writes()/float64(units), units, unit)
			for _, k := range r.Requests.Keys() {
				if k.Write() {
					fmt.Printf("    %-8s %-40s %6.2f per %s\n", k.Verb, k.Path(), r.Requests[k]/float64(units), unit)
				}
			}
		}
	}
}

// profileKwok profiles a measured phase of a kwok cluster when
// $WINK_BENCH_PROFILE is set: the CPU of kwokctl's processes (found by
// their working directory in their command lines), its apiserver's
// requests, and its apiserver's CPU profile when it serves one.
func profileKwok(b *testing.B, name string, k *kwokCluster) stopFunc {
	b.Helper()
	if profileDir() == "" {
		return func(int, string) {}
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", k.kubeconfig)
	if err != nil {
		b.Fatal(err)
	}
	if err := rest.LoadTLSFiles(cfg); err != nil { // as clientset's
		b.Fatal(err)
	}
	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		b.Fatal(err)
	}
	apiserver := profile.HTTP{Base: cfg.Host, Client: hc}
	var comps []profile.Component
	for _, c := range []string{"kube-apiserver", "etcd", "kwok-controller", "kube-scheduler", "kube-controller-manager"} {
		pid := kwokPID(k.workdir, c)
		comp := profile.Component{Name: "kwok-" + c, PID: func() int { return pid }}
		if c == "kube-apiserver" {
			comp.Pprof = apiserver
		}
		comps = append(comps, comp)
	}
	p, err := profile.Start(context.Background(), profileDir(), name, comps, apiserver)
	if err != nil {
		b.Fatal(err)
	}
	return reporter(name, p, b.Logf)
}

// kwokPID is the process running program (by its file name: kwokctl may
// run a copy) with workdir in its command line, or 0.
func kwokPID(workdir, program string) int {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, f := range procs {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		args := strings.Split(string(data), "\x00")
		if len(args) == 0 || filepath.Base(args[0]) != program || !strings.Contains(string(data), workdir) {
			continue
		}
		pid, err := strconv.Atoi(filepath.Base(filepath.Dir(f)))
		if err == nil {
			return pid
		}
	}
	return 0
}
