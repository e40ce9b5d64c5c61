package check

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	chart "helm.sh/helm/v4/pkg/chart/v2"
	"helm.sh/helm/v4/pkg/cli"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"wink.dev/wink/harness"
	"wink.dev/wink/harness/config"
	"wink.dev/wink/harness/config/v1alpha1"
	"wink.dev/wink/reports"
	"wink.dev/wink/simnode/images"
)

// DefaultTimeout bounds, per chart and platform, the install with its
// hooks and tests and the wait for the workloads to settle.
const DefaultTimeout = 3 * time.Minute

// ExistingPlatform is the platform name of a cluster given by kubeconfig
// or name when no --platform names it.
const ExistingPlatform = "existing"

// Options of a check run (the flags of `wink check`).
type Options struct {
	// Charts are the CHART arguments: directories, .tgz files, repo/name
	// or oci:// references.
	Charts []string
	// ValuesFiles (-f) and Set (--set k=v) as for `helm install`.
	ValuesFiles []string
	Set         []string
	// Namespace of the releases; default "default".
	Namespace string
	// Platforms are profile names (platforms.yaml); default generic.
	Platforms []string
	// Kubeconfig or Name: judge on this cluster instead of fresh ones.
	Kubeconfig string
	Name       string
	// Home and Binary are the harness's (WINK_HOME, the wink executable).
	Home   string
	Binary string
	// Config is a wink.yaml whose nodePools extend or replace each
	// profile's, and whose images and networking settings apply.
	Config string
	// BaseCluster is Config already read (tests); it wins over Config.
	BaseCluster *v1alpha1.Cluster
	// Timeout per chart and platform; default DefaultTimeout.
	Timeout time.Duration
	// Expect is an --expect file.
	Expect string
	// Chart sources: helm's --version and --plain-http.
	ChartVersion string
	PlainHTTP    bool
	// HelmSettings override Helm's environment (tests); nil: HELM_* env.
	HelmSettings *cli.EnvSettings
	// Progress gets one line per step; nil: none.
	Progress io.Writer
}

// UsageError is a problem of the options found before anything starts: a
// bad flag, an unknown platform, a chart that cannot be found, a bad
// --expect or values file. `wink check` exits 2 on it.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// IsUsageError reports whether err is (or wraps) a UsageError.
func IsUsageError(err error) bool {
	var u *UsageError
	return errors.As(err, &u) || harness.IsOptionError(err)
}

func usage(format string, args ...any) error { return &UsageError{fmt.Errorf(format, args...)} }

// plan is what the options resolve to before any cluster starts.
type plan struct {
	charts    []*chart.Chart
	values    map[string]any
	profiles  []Profile
	configs   map[string]*v1alpha1.Cluster
	expect    *Expectations
	taintKeys map[string][]string
	existing  bool
	// kubeconfig of the given cluster (--kubeconfig, or --name's).
	kubeconfig string
	timeout    time.Duration
	namespace  string
}

// prepare checks the options and loads everything a run needs, so that a
// usage error is said at once.
func prepare(o Options) (*plan, error) {
	p := &plan{timeout: o.Timeout, namespace: o.Namespace, configs: map[string]*v1alpha1.Cluster{}}
	if len(o.Charts) == 0 {
		return nil, usage("no CHART given: name a chart directory, a .tgz, repo/name or an oci:// reference, e.g. `wink check ./charts/agent`")
	}
	if p.timeout == 0 {
		p.timeout = DefaultTimeout
	}
	if p.timeout < 0 {
		return nil, usage("--timeout %s: must be a positive duration, e.g. --timeout 3m", o.Timeout)
	}
	if p.namespace == "" {
		p.namespace = "default"
	}
	if o.Kubeconfig != "" && o.Name != "" {
		return nil, usage("--kubeconfig and --name both given: judge on one cluster, give one of them")
	}
	p.existing = o.Kubeconfig != "" || o.Name != ""
	p.kubeconfig = o.Kubeconfig
	if o.Name != "" {
		if err := v1alpha1.ValidateName("--name", o.Name); err != nil {
			return nil, &UsageError{err}
		}
		kc, err := harness.KubeconfigPath(harness.Options{Name: o.Name, Home: o.Home})
		if err != nil {
			return nil, &UsageError{err}
		}
		p.kubeconfig = kc
	}
	if p.kubeconfig != "" {
		if _, err := os.Stat(p.kubeconfig); err != nil {
			return nil, usage("--kubeconfig: %w", err)
		}
	}
	platforms := o.Platforms
	if len(platforms) == 0 {
		platforms = []string{"generic"}
	}
	if p.existing && len(o.Platforms) > 1 {
		return nil, usage("--platform given %d times with --kubeconfig/--name: a given cluster is one platform; give one --platform (its name in the reports) or none", len(o.Platforms))
	}
	var base *v1alpha1.Cluster
	switch {
	case o.BaseCluster != nil:
		base = o.BaseCluster
	case o.Config != "":
		if p.existing {
			return nil, usage("--config with --kubeconfig/--name: the pools of a given cluster are its own; leave --config out")
		}
		var err error
		if base, err = loadBase(o.Config); err != nil {
			return nil, &UsageError{err}
		}
	}
	seen := map[string]bool{}
	for _, name := range platforms {
		if seen[name] {
			return nil, usage("--platform %s given twice", name)
		}
		seen[name] = true
		if p.existing && len(o.Platforms) == 1 {
			p.profiles = append(p.profiles, Profile{Name: name})
			continue
		}
		if p.existing {
			p.profiles = append(p.profiles, Profile{Name: ExistingPlatform})
			continue
		}
		prof, err := LookupProfile(name)
		if err != nil {
			return nil, &UsageError{err}
		}
		cfg, err := ClusterConfig(prof, base)
		if err != nil {
			return nil, &UsageError{err}
		}
		p.profiles = append(p.profiles, prof)
		p.configs[name] = cfg
	}
	all, err := Profiles()
	if err != nil {
		return nil, err
	}
	p.taintKeys = map[string][]string{}
	for _, prof := range all {
		for _, np := range prof.NodePools {
			if np.OS != v1alpha1.OSWindows {
				continue
			}
			for _, t := range np.Taints {
				if ps := p.taintKeys[t.Key]; len(ps) == 0 || ps[len(ps)-1] != prof.Name {
					p.taintKeys[t.Key] = append(ps, prof.Name)
				}
			}
		}
	}
	if o.Expect != "" {
		if p.expect, err = LoadExpectations(o.Expect); err != nil {
			return nil, &UsageError{err}
		}
	}
	if p.values, err = Values(o.ValuesFiles, o.Set); err != nil {
		return nil, &UsageError{err}
	}
	for _, ref := range o.Charts {
		ch, err := LocateChart(ref, ChartOptions{Version: o.ChartVersion, PlainHTTP: o.PlainHTTP, Settings: o.HelmSettings})
		if err != nil {
			return nil, &UsageError{err}
		}
		p.charts = append(p.charts, ch)
	}
	return p, nil
}

// loadBase reads a wink.yaml without defaulting it, so that a file that
// names no nodePools adds none to the profiles.
func loadBase(path string) (*v1alpha1.Cluster, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--config: %w", err)
	}
	// Parse validates the whole file and its lines; the undefaulted
	// document then says which fields the file sets.
	if _, err := config.Parse(data, path); err != nil {
		return nil, err
	}
	doc, err := config.ParseDocument(data, path)
	if err != nil {
		return nil, err
	}
	var c v1alpha1.Cluster
	if err := doc.Decode(&c); err != nil {
		return nil, err
	}
	return &c, nil
}

// Run checks every chart on every platform and returns the report. Errors
// of a platform as a whole (a cluster that did not come up, a chart whose
// install failed before any workload existed) are in the report's
// PlatformErrors; the error returned is a usage error (nothing started) or
// the context's.
func Run(ctx context.Context, o Options) (*reports.CheckReport, error) {
	start := time.Now()
	p, err := prepare(o)
	if err != nil {
		return nil, err
	}
	progress := o.Progress
	if progress == nil {
		progress = io.Discard
	}
	pr := &printer{w: progress}
	rep := &reports.CheckReport{Charts: o.Charts, Started: start, PlatformErrors: map[string]string{}}
	for _, prof := range p.profiles {
		rep.Platforms = append(rep.Platforms, prof.Name)
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, prof := range p.profiles {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws, kv, err := runPlatform(ctx, o, p, prof, pr)
			mu.Lock()
			defer mu.Unlock()
			rep.Workloads = append(rep.Workloads, ws...)
			if kv != "" {
				rep.Kubernetes = kv
			}
			if err != nil {
				rep.PlatformErrors[prof.Name] = err.Error()
				pr.say("[%s] ERROR %v", prof.Name, err)
			}
		}()
	}
	wg.Wait()
	sort.SliceStable(rep.Workloads, func(i, j int) bool {
		a, b := rep.Workloads[i], rep.Workloads[j]
		for _, c := range [][2]string{{a.Chart, b.Chart}, {a.Kind, b.Kind}, {a.Namespace, b.Namespace}, {a.Name, b.Name}, {a.Platform, b.Platform}} {
			if c[0] != c[1] {
				return c[0] < c[1]
			}
		}
		return false
	})
	if len(rep.PlatformErrors) == 0 {
		rep.PlatformErrors = nil
	}
	rep.Duration = time.Since(start).Seconds()
	if err := ctx.Err(); err != nil {
		return rep, err
	}
	return rep, nil
}

// Failed reports whether a report has an error finding or a platform error.
func Failed(r *reports.CheckReport) bool {
	if len(r.PlatformErrors) > 0 {
		return true
	}
	for _, w := range r.Workloads {
		if w.Failed() {
			return true
		}
	}
	return false
}

type printer struct {
	mu sync.Mutex
	w  io.Writer
}

func (p *printer) say(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, format+"\n", args...)
}

// runPlatform brings up the platform's cluster (or takes the given one),
// checks every chart on it and deletes the cluster.
func runPlatform(ctx context.Context, o Options, p *plan, prof Profile, pr *printer) (out []reports.CheckWorkload, kubeVersion string, err error) {
	kubeconfig := p.kubeconfig
	if !p.existing {
		name := "check-" + prof.Name + "-" + randomSuffix()
		hopts := harness.Options{Name: name, Home: o.Home, Binary: o.Binary}
		t0 := time.Now()
		pr.say("[%s] bringing up cluster %s (%d node pools)", prof.Name, name, len(p.configs[prof.Name].NodePools))
		defer func() {
			// Delete also on failure and interrupt: a context of its own.
			dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
			defer cancel()
			if derr := harness.Delete(dctx, hopts); derr != nil {
				pr.say("[%s] could not delete cluster %s: %v (delete it with `wink delete --name %s`)", prof.Name, name, derr, name)
			}
		}()
		up, err := harness.Up(ctx, harness.UpOptions{Options: hopts, Config: p.configs[prof.Name], Fresh: true, Wait: 2 * time.Minute, Schedulable: true})
		if err != nil {
			return nil, "", fmt.Errorf("cluster %s did not come up: %w", name, err)
		}
		kubeconfig = up.Kubeconfig
		pr.say("[%s] cluster %s up (%s)", prof.Name, name, time.Since(t0).Round(100*time.Millisecond))
	}
	rc, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return nil, "", err
	}
	cs, err := kubernetes.NewForConfig(rc)
	if err != nil {
		return nil, "", err
	}
	sv, err := cs.Discovery().ServerVersion()
	if err != nil {
		return nil, "", fmt.Errorf("the cluster's /version: %w", err)
	}
	kubeVersion = sv.GitVersion
	var errs []error
	used := map[string]int{}
	for i, ch := range p.charts {
		rel := releaseName(ch.Metadata.Name)
		if used[rel]++; used[rel] > 1 {
			rel = fmt.Sprintf("%s-%d", rel, used[rel])
		}
		if p.existing {
			// Leave a given cluster as it was found.
			defer func() {
				if err := Uninstall(InstallOptions{Kubeconfig: kubeconfig, Namespace: p.namespace, Release: rel, Timeout: time.Minute}); err != nil {
					pr.say("[%s] helm uninstall %s -n %s: %v", prof.Name, rel, p.namespace, err)
				}
			}()
		}
		ws, err := checkChart(ctx, p, prof.Name, o.Charts[i], ch, rel, kubeconfig, cs, kubeVersion, pr)
		out = append(out, ws...)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", o.Charts[i], err))
		}
		if ctx.Err() != nil {
			return out, kubeVersion, ctx.Err()
		}
	}
	return out, kubeVersion, errors.Join(errs...)
}

// checkChart installs one chart, runs its tests, waits for its workloads
// and judges them. Its error is one that leaves nothing to judge.
func checkChart(ctx context.Context, p *plan, platform, ref string, ch *chart.Chart, rel, kubeconfig string, cs kubernetes.Interface, kubeVersion string, pr *printer) ([]reports.CheckWorkload, error) {
	inst := InstallOptions{Kubeconfig: kubeconfig, Namespace: p.namespace, Release: rel, Values: p.values, Timeout: p.timeout}
	manifest, hooks, err := Template(ch, inst, kubeVersion)
	if err != nil {
		return []reports.CheckWorkload{releaseFinding(ref, rel, platform, p.namespace, CodeInstallFailed, "helm template: "+err.Error(),
			"fix the chart or its values so that it renders for Kubernetes "+kubeVersion)}, nil
	}
	ws, err := workloadsOf(manifest, hooks, p.namespace)
	if err != nil {
		return nil, err
	}
	if err := ensureNamespace(ctx, cs, p.namespace); err != nil {
		return nil, err
	}
	t0 := time.Now()
	pr.say("[%s] helm install %s %s -n %s", platform, rel, ref, p.namespace)
	_, installErr := Install(ctx, inst, ch)
	hookErrors, refused := map[string]string{}, map[string]string{}
	var extra []reports.CheckWorkload
	testsRun := false
	if installErr != nil {
		pr.say("[%s] helm install %s: %v", platform, rel, installErr)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		for _, w := range ws {
			if msg := refusal(installErr.Error(), w.Workload); msg != "" {
				refused[w.Kind+"/"+w.Name] = msg
			}
		}
		if !attribute(ctx, cs, ws, installErr, false, hookErrors) && len(refused) == 0 {
			extra = append(extra, releaseFinding(ref, rel, platform, p.namespace, CodeInstallFailed, "helm install: "+installErr.Error(),
				"the message says which object Helm could not create and why"))
		}
	} else if hasTests(ws) {
		pr.say("[%s] helm test %s", platform, rel)
		testsRun = true
		if err := Test(ctx, inst); err != nil {
			attribute(ctx, cs, ws, err, true, hookErrors)
		}
	}
	var judge []rendered
	for _, w := range ws {
		if w.Hook == "test" && !testsRun {
			continue
		}
		judge = append(judge, w)
	}
	deadline := t0.Add(p.timeout)
	var judged []Judged
	for {
		obs, err := observe(ctx, cs, judge, installErr == nil)
		if err != nil {
			return nil, err
		}
		obs.Platform, obs.Chart, obs.Release = platform, ref, rel
		obs.Refused = refused
		if installErr != nil {
			obs.InstallError = installErr.Error()
		}
		obs.HookErrors, obs.Expect, obs.Images, obs.WindowsTaintKeys = hookErrors, p.expect, images.Default(), p.taintKeys
		obs.Elapsed = time.Since(t0)
		obs.Final = time.Now().After(deadline)
		judged = Judge(obs)
		settled := true
		for _, j := range judged {
			settled = settled && j.Settled
		}
		if settled {
			break
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Second):
		}
	}
	static := map[string][]reports.Finding{}
	for _, w := range judge {
		static[w.Kind+"/"+w.Namespace+"/"+w.Name] = Static(w.Workload)
	}
	out := extra
	failed := 0
	for _, j := range judged {
		w := j.CheckWorkload
		w.Findings = append(w.Findings, static[w.Kind+"/"+w.Namespace+"/"+w.Name]...)
		if w.Failed() {
			failed++
		}
		out = append(out, w)
	}
	pr.say("[%s] %s: %d workload(s) judged, %d with findings (%s)", platform, rel, len(judged), failed, time.Since(t0).Round(100*time.Millisecond))
	return out, nil
}

// attribute gives a Helm error to the hooks (or tests) it is about: the
// hook Jobs and Pods that failed. It reports whether it found one.
func attribute(ctx context.Context, cs kubernetes.Interface, ws []rendered, helmErr error, tests bool, into map[string]string) bool {
	found := false
	msg := strings.TrimSpace(helmErr.Error())
	for _, w := range ws {
		if w.Hook == "" || (w.Hook == "test") != tests {
			continue
		}
		failed := strings.Contains(msg, w.Name)
		switch w.Kind {
		case "Job":
			if j, err := cs.BatchV1().Jobs(w.Namespace).Get(ctx, w.Name, metav1.GetOptions{}); err == nil {
				for _, c := range j.Status.Conditions {
					failed = failed || c.Type == "Failed" && c.Status == corev1.ConditionTrue
				}
			}
		case "Pod":
			if pod, err := cs.CoreV1().Pods(w.Namespace).Get(ctx, w.Name, metav1.GetOptions{}); err == nil {
				failed = failed || pod.Status.Phase == corev1.PodFailed
			}
		}
		if failed {
			into[w.Kind+"/"+w.Name] = msg
			found = true
		}
	}
	return found
}

// refusal is the part of Helm's install error where the apiserver refuses
// the workload itself: `DaemonSet.apps "x" is invalid: ...`, `... "x" is
// forbidden: ...`, "" when it does not.
func refusal(helmErr string, w Workload) string {
	for _, verb := range []string{" is invalid: ", " is forbidden: "} {
		needle := `"` + w.Name + `"` + verb
		i := strings.Index(helmErr, needle)
		if i < 0 {
			continue
		}
		start := strings.LastIndex(helmErr[:i], w.Kind)
		if start < 0 {
			start = i
		}
		return strings.TrimSpace(helmErr[start:])
	}
	return ""
}

func hasTests(ws []rendered) bool {
	for _, w := range ws {
		if w.Hook == "test" {
			return true
		}
	}
	return false
}

// releaseFinding is a finding about the release as a whole.
func releaseFinding(ref, rel, platform, ns, code, msg, fix string) reports.CheckWorkload {
	return reports.CheckWorkload{Chart: ref, Release: rel, Kind: "Release", Namespace: ns, Name: rel, Platform: platform,
		Findings: []reports.Finding{{Severity: reports.SeverityError, Code: code, Message: msg, Fix: fix}}}
}

func ensureNamespace(ctx context.Context, cs kubernetes.Interface, ns string) error {
	_, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	return nil
}

// releaseName is a chart's release name: its name, cut to Helm's 53
// characters.
func releaseName(chartName string) string {
	n := strings.ToLower(chartName)
	if len(n) > 53 {
		n = strings.TrimRight(n[:53], "-")
	}
	return n
}

func randomSuffix() string {
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
