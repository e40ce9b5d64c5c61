package profile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// Env names the directory a benchmark writes its profiles to; unset, the
// benchmarks capture none.
const Env = "WINK_BENCH_PROFILE"

// window is the length of one CPU profile request: a phase is covered by
// consecutive windows, merged when it ends.
const window = 5 * time.Second

// Getter fetches a path (e.g. /debug/pprof/profile?seconds=10) from a
// component.
type Getter interface {
	Get(ctx context.Context, path string) ([]byte, error)
}

// HTTP is a Getter of a base URL through an HTTP client.
type HTTP struct {
	Base   string
	Client *http.Client
}

// Get fetches Base+path and fails on any status but 200.
func (h HTTP) Get(ctx context.Context, path string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.Base+path, nil)
	if err != nil {
		return nil, err
	}
	c := h.Client
	if c == nil {
		c = http.DefaultClient
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s%s: %s: %s", h.Base, path, resp.Status, bytes.TrimSpace(body))
	}
	return body, nil
}

// Component is one process of the cluster: its name, its pid (nil or 0:
// none known; asked at Start and at Stop, so a process that starts during
// the phase counts from 0), and where its profiles are served (nil: none).
type Component struct {
	Name  string
	PID   func() int
	Pprof Getter
}

// Phase is a measured phase being profiled.
type Phase struct {
	dir, name  string
	components []Component
	metrics    Getter // the apiserver's /metrics, or nil

	start       time.Time
	load0       string
	cpu0        map[string]float64
	machine0    machineTicks
	requests0   Requests
	requestsErr error

	stop context.CancelFunc
	wg   sync.WaitGroup
	mu   sync.Mutex
	errs []error
	pfs  map[string][]string // component: its profile files
}

// Start begins profiling a phase named name (a file name prefix) into dir:
// CPU profiles of each component that serves them, back to back, until
// Stop. metrics, when set, is the apiserver whose request counters are
// read at Start and Stop.
func Start(ctx context.Context, dir, name string, components []Component, metrics Getter) (*Phase, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("%s=%s: %w", Env, dir, err)
	}
	p := &Phase{dir: dir, name: name, components: components, metrics: metrics, pfs: map[string][]string{}}
	if metrics != nil {
		p.requests0, p.requestsErr = readRequests(ctx, metrics)
	}
	p.load0 = loadavg()
	p.cpu0 = p.cpuSeconds()
	p.machine0 = readMachine()
	p.start = time.Now()
	run, stop := context.WithCancel(ctx)
	p.stop = stop
	for _, c := range components {
		if c.Pprof == nil {
			continue
		}
		p.wg.Add(1)
		go p.capture(run, c)
	}
	return p, nil
}

// capture requests consecutive CPU profile windows of c until ctx ends; the
// window in flight then completes (a cancelled request returns no profile).
// A component that does not serve yet (it starts during the phase) is
// asked again each second.
func (p *Phase) capture(ctx context.Context, c Component) {
	defer p.wg.Done()
	var last error
	for i := 0; ctx.Err() == nil; {
		data, err := c.Pprof.Get(context.WithoutCancel(ctx), fmt.Sprintf("/debug/pprof/profile?seconds=%d", int(window.Seconds())))
		if err != nil {
			last = err
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
			continue
		}
		f := filepath.Join(p.dir, fmt.Sprintf("%s-%s-%02d.pprof", p.name, c.Name, i))
		if err := os.WriteFile(f, data, 0o644); err != nil {
			p.fail(err)
			return
		}
		p.mu.Lock()
		p.pfs[c.Name] = append(p.pfs[c.Name], f)
		p.mu.Unlock()
		i++
	}
	if len(p.files(c.Name)) == 0 && last != nil {
		p.fail(fmt.Errorf("%s CPU profile: %w", c.Name, last))
	}
}

func (p *Phase) files(name string) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.pfs[name]
}

func (p *Phase) fail(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.errs = append(p.errs, err)
}

// Usage is one component's CPU over a phase.
type Usage struct {
	Name       string
	CPUSeconds float64
	// Share is CPUSeconds over the phase's wall time: 1.0 is one core.
	Share float64
}

// Report is what a phase cost.
type Report struct {
	Phase     string
	Wall      time.Duration
	LoadStart string // /proc/loadavg's three averages at Start
	LoadEnd   string
	// MachineBusy is the share of all the machine's cores busy during the
	// phase (every process, other users' included): 1.0 is all cores.
	MachineBusy float64
	Components  []Usage
	// Requests are the apiserver's requests during the phase, by verb,
	// group, resource and subresource.
	Requests Requests
	// Tops are the files of `go tool pprof -top` summaries by component.
	Tops map[string]string
	// Summary is the report as text, also written to <dir>/<phase>.txt.
	Summary string
}

// Stop ends the phase: it waits for the CPU windows in flight, merges each
// component's into <dir>/<phase>-<component>.top.txt and writes the
// report to <dir>/<phase>.txt.
func (p *Phase) Stop(ctx context.Context) (*Report, error) {
	wall := time.Since(p.start)
	cpu1 := p.cpuSeconds()
	machine1 := readMachine()
	r := &Report{Phase: p.name, Wall: wall, LoadStart: p.load0, LoadEnd: loadavg(), Tops: map[string]string{}}
	r.MachineBusy = machine1.busySince(p.machine0)
	for _, c := range p.components {
		end, ok := cpu1[c.Name]
		if !ok {
			continue
		}
		s := end - p.cpu0[c.Name]
		r.Components = append(r.Components, Usage{Name: c.Name, CPUSeconds: s, Share: s / wall.Seconds()})
	}
	var errs []error
	if p.metrics != nil {
		after, err := readRequests(ctx, p.metrics)
		switch {
		case p.requestsErr != nil:
			errs = append(errs, p.requestsErr)
		case err != nil:
			errs = append(errs, err)
		default:
			r.Requests = after.Sub(p.requests0)
		}
	}
	p.stop()
	p.wg.Wait()
	errs = append(errs, p.errs...)
	for _, c := range p.components {
		files := p.files(c.Name)
		if len(files) == 0 {
			continue
		}
		top := filepath.Join(p.dir, p.name+"-"+c.Name+".top.txt")
		args := append([]string{"tool", "pprof", "-top", "-nodecount=30", "-output", top}, files...)
		if out, err := exec.CommandContext(ctx, "go", args...).CombinedOutput(); err != nil {
			errs = append(errs, fmt.Errorf("go tool pprof -top %s: %w\n%s", c.Name, err, out))
			continue
		}
		cum := filepath.Join(p.dir, p.name+"-"+c.Name+".cum.txt")
		args = append([]string{"tool", "pprof", "-top", "-cum", "-nodecount=40", "-output", cum}, files...)
		if out, err := exec.CommandContext(ctx, "go", args...).CombinedOutput(); err != nil {
			errs = append(errs, fmt.Errorf("go tool pprof -top -cum %s: %w\n%s", c.Name, err, out))
		}
		r.Tops[c.Name] = top
	}
	r.Summary = r.text()
	if err := os.WriteFile(filepath.Join(p.dir, p.name+".txt"), []byte(r.Summary), 0o644); err != nil {
		errs = append(errs, err)
	}
	return r, errors.Join(errs...)
}

func (r *Report) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "phase %s: %.1f s; load average %s at start, %s at end; machine %.0f%% busy (all cores, every user)\n",
		r.Phase, r.Wall.Seconds(), r.LoadStart, r.LoadEnd, 100*r.MachineBusy)
	for _, u := range r.Components {
		fmt.Fprintf(&b, "  %-24s %7.1f CPU s  %5.0f%% of one core\n", u.Name, u.CPUSeconds, 100*u.Share)
	}
	if len(r.Requests) > 0 {
		fmt.Fprintf(&b, "  apiserver requests during the phase (apiserver_request_total):\n")
		for _, k := range r.Requests.Keys() {
			fmt.Fprintf(&b, "    %-8s %-40s %8.0f\n", k.Verb, k.Path(), r.Requests[k])
		}
	}
	names := make([]string, 0, len(r.Tops))
	for n := range r.Tops {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&b, "  %s CPU profile: %s\n", n, r.Tops[n])
	}
	return b.String()
}

func loadavg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}
