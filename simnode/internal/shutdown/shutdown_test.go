package shutdown

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clocktesting "k8s.io/utils/clock/testing"

	"wink.dev/wink/simnode/config"
	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/simnode/internal/nodes"
	"wink.dev/wink/simnode/internal/pods"
	"wink.dev/wink/simnode/rules"
)

// recorder collects events.
type recorder struct {
	mu     sync.Mutex
	events []string
}

func (r *recorder) add(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, s)
}

func (r *recorder) Event(_ runtime.Object, typ, reason, msg string) {
	r.add(typ + " " + reason + ": " + msg)
}

func (r *recorder) Eventf(o runtime.Object, typ, reason, f string, args ...interface{}) {
	r.Event(o, typ, reason, fmt.Sprintf(f, args...))
}

func (r *recorder) AnnotatedEventf(o runtime.Object, _ map[string]string, typ, reason, f string, args ...interface{}) {
	r.Eventf(o, typ, reason, f, args...)
}

func info(t *testing.T, os string, kubelet string) *nodes.Info {
	t.Helper()
	_, i, err := nodes.Build(rules.Default(), nodes.Spec{ClusterName: "c", Pool: config.Pool{Name: "p", OS: facts.OS(os), KubeletVersion: kubelet}, InternalIP: net.ParseIP("10.0.0.2"), BootID: "1"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return i
}

func pod(name string, priority *int32, grace *int64) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns"}, Spec: corev1.PodSpec{Priority: priority, TerminationGracePeriodSeconds: grace}}
}

func i32(n int32) *int32 { return &n }
func i64(n int64) *int64 { return &n }

// kill is one call of Config.Kill.
type kill struct {
	pod   string
	grace time.Duration
	at    time.Duration // since the shutdown began
	t     pods.Termination
}

// TestShutdown checks the node shutdown manager (B15): the Shutdown event,
// NotReady, then the pods killed group by group, lowest priority first,
// each with the rules' status and the grace period of its group (or its
// own, shorter one); the next group waits for the previous one's pods or
// its grace period.
func TestShutdown(t *testing.T) {
	clk := clocktesting.NewFakeClock(time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC))
	start := clk.Now()
	rec := &recorder{}
	var mu sync.Mutex
	var kills []kill
	// Pods whose kill never reports: their group waits its full period.
	stuck := map[string]bool{"stuck": true}
	notReady := 0
	active := []*corev1.Pod{
		pod("dns", i32(2000000000), i64(30)),
		pod("web", nil, nil),
		pod("quick", i32(100), i64(3)),
		pod("stuck", nil, i64(60)),
	}
	m := New(Config{
		Rules: rules.Default(), Node: info(t, "windows", "v1.35.4"),
		ActivePods: func() []*corev1.Pod { return active },
		Kill: func(p *corev1.Pod, tm pods.Termination) <-chan error {
			mu.Lock()
			kills = append(kills, kill{pod: p.Name, grace: *tm.GracePeriod, at: clk.Since(start), t: tm})
			mu.Unlock()
			done := make(chan error, 1)
			if !stuck[p.Name] {
				done <- nil
			}
			return done
		},
		NotReady: func() { notReady++ },
		Recorder: rec,
		Clock:    clk,
	})
	if !m.Enabled() || m.ShuttingDown() {
		t.Fatalf("[B15] enabled %v, shutting down %v", m.Enabled(), m.ShuttingDown())
	}
	finished := make(chan struct{})
	go func() {
		m.Shutdown(context.Background())
		close(finished)
	}()
	// The first group (below 2000000000) waits 20s for "stuck".
	for !clk.HasWaiters() {
		time.Sleep(time.Millisecond)
	}
	if !m.ShuttingDown() || notReady != 1 {
		t.Fatalf("[B15] shutting down %v, NotReady calls %d", m.ShuttingDown(), notReady)
	}
	clk.Step(20 * time.Second)
	select {
	case <-finished:
	case <-time.After(5 * time.Second):
		t.Fatal("Shutdown did not return")
	}
	var got []string
	for _, k := range kills {
		got = append(got, fmt.Sprintf("%s %s at %s", k.pod, k.grace, k.at))
		if k.t.Reason != "Terminated" || k.t.Message != "Pod was terminated in response to imminent node shutdown." || k.t.Condition.Type != corev1.DisruptionTarget {
			t.Errorf("[B15] termination %+v", k.t)
		}
	}
	want := []string{"web 20s at 0s", "quick 3s at 0s", "stuck 20s at 0s", "dns 10s at 20s"}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Fatalf("[B15] kills:\n got %v\nwant %v", got, want)
	}
	if len(rec.events) != 1 || rec.events[0] != "Normal Shutdown: Shutdown manager detected preshutdown event" {
		t.Fatalf("[B15] events %v", rec.events)
	}
}

// TestShutdownWithoutManager checks a kubelet without a node shutdown
// manager (B15: Windows before v1.34): nothing happens.
func TestShutdownWithoutManager(t *testing.T) {
	for _, tc := range []struct {
		os      string
		kubelet string
		want    bool
	}{
		{"windows", "v1.33.2", false},
		{"windows", "v1.34.0", true},
		{"linux", "v1.30.2", true},
	} {
		t.Run(string(tc.os)+"-"+tc.kubelet, func(t *testing.T) {
			rec := &recorder{}
			calls := 0
			m := New(Config{
				Rules: rules.Default(), Node: info(t, tc.os, tc.kubelet),
				ActivePods: func() []*corev1.Pod { return nil },
				Kill: func(*corev1.Pod, pods.Termination) <-chan error {
					calls++
					return nil
				},
				NotReady: func() { calls++ },
				Recorder: rec,
			})
			if m.Enabled() != tc.want {
				t.Fatalf("[B15] enabled %v, want %v", m.Enabled(), tc.want)
			}
			m.Shutdown(context.Background())
			if tc.want {
				return
			}
			if calls != 0 || len(rec.events) != 0 || m.ShuttingDown() {
				t.Fatalf("[B15] a kubelet without a manager acted: %d calls, events %v", calls, rec.events)
			}
		})
	}
}

func dur(s string) *metav1.Duration {
	d, err := time.ParseDuration(s)
	if err != nil {
		panic(err)
	}
	return &metav1.Duration{Duration: d}
}

// TestShutdownPoolGracePeriods checks that a node's manager uses its pool's
// shutdownGracePeriod and shutdownGracePeriodCriticalPods (B15): with 0s
// the kubelet has no manager and a shutdown does nothing (no event, no
// NotReady, pods left as they are); with 20s/5s pods below priority
// 2000000000 are killed with at most 15s, critical pods with 5s once the
// first group's 15s are over.
func TestShutdownPoolGracePeriods(t *testing.T) {
	for _, tc := range []struct {
		name               string
		total, critical    *metav1.Duration
		wantEnabled        bool
		step               time.Duration // the first group's wait
		wantKills, wantEvs []string
	}{
		{
			name: "0s: no manager", total: dur("0s"), critical: dur("0s"),
		},
		{
			name: "0s alone: no manager", total: dur("0s"),
		},
		{
			name: "20s/5s", total: dur("20s"), critical: dur("5s"), wantEnabled: true, step: 15 * time.Second,
			wantKills: []string{"web 15s at 0s", "quick 3s at 0s", "stuck 15s at 0s", "dns 5s at 15s", "node 3s at 15s"},
			wantEvs:   []string{"Normal Shutdown: Shutdown manager detected preshutdown event"},
		},
		{
			name: "unset: facts' 30s/10s", wantEnabled: true, step: 20 * time.Second,
			wantKills: []string{"web 20s at 0s", "quick 3s at 0s", "stuck 20s at 0s", "dns 10s at 20s", "node 3s at 20s"},
			wantEvs:   []string{"Normal Shutdown: Shutdown manager detected preshutdown event"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := clocktesting.NewFakeClock(time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC))
			start := clk.Now()
			rec := &recorder{}
			var mu sync.Mutex
			var kills []string
			notReady := 0
			active := []*corev1.Pod{
				pod("dns", i32(2000000000), i64(30)),
				pod("node", i32(2000001000), i64(3)),
				pod("web", nil, nil),
				pod("quick", i32(100), i64(3)),
				pod("stuck", nil, i64(60)),
			}
			m := New(Config{
				Rules: rules.Default(), Node: info(t, "windows", "v1.35.4"),
				ShutdownGracePeriod: tc.total, ShutdownGracePeriodCriticalPods: tc.critical,
				ActivePods: func() []*corev1.Pod { return active },
				Kill: func(p *corev1.Pod, tm pods.Termination) <-chan error {
					mu.Lock()
					kills = append(kills, fmt.Sprintf("%s %s at %s", p.Name, *tm.GracePeriod, clk.Since(start)))
					mu.Unlock()
					done := make(chan error, 1)
					if p.Name != "stuck" {
						done <- nil
					}
					return done
				},
				NotReady: func() { notReady++ },
				Recorder: rec,
				Clock:    clk,
			})
			if m.Enabled() != tc.wantEnabled {
				t.Fatalf("[B15] enabled %v, want %v", m.Enabled(), tc.wantEnabled)
			}
			finished := make(chan struct{})
			go func() {
				m.Shutdown(context.Background())
				close(finished)
			}()
			if tc.wantEnabled {
				for !clk.HasWaiters() {
					time.Sleep(time.Millisecond)
				}
				clk.Step(tc.step)
			}
			select {
			case <-finished:
			case <-time.After(5 * time.Second):
				t.Fatal("Shutdown did not return")
			}
			mu.Lock()
			defer mu.Unlock()
			if strings.Join(kills, ", ") != strings.Join(tc.wantKills, ", ") {
				t.Fatalf("[B15] kills:\n got %v\nwant %v", kills, tc.wantKills)
			}
			if strings.Join(rec.events, ", ") != strings.Join(tc.wantEvs, ", ") {
				t.Fatalf("[B15] events %v, want %v", rec.events, tc.wantEvs)
			}
			if wantNotReady := map[bool]int{true: 1}[tc.wantEnabled]; notReady != wantNotReady || m.ShuttingDown() != tc.wantEnabled {
				t.Fatalf("[B15] NotReady calls %d, shutting down %v", notReady, m.ShuttingDown())
			}
		})
	}
}
