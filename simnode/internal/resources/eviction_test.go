package resources

import (
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/version"
	"k8s.io/client-go/kubernetes/fake"

	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/simnode/rules"
)

func names(pods []*corev1.Pod) string {
	var out []string
	for _, p := range pods {
		out = append(out, p.Name)
	}
	return strings.Join(out, ",")
}

func withPriority(p *corev1.Pod, prio int32) *corev1.Pod {
	p.Spec.Priority = &prio
	return p
}

// TestRankMemoryPressure checks the kubelet's rankMemoryPressure order.
func TestRankMemoryPressure(t *testing.T) {
	for _, tc := range []struct {
		name string
		pods []*corev1.Pod
		want string
	}{
		{
			name: "BestEffort before burstable within requests, bigger first",
			pods: []*corev1.Pod{
				pod("guaranteed", ctr{name: "c", image: "x", reqMem: "1Gi", limMem: "1Gi", memUsage: "900Mi"}),
				pod("besteffort-small", ctr{name: "c", image: "x", memUsage: "50Mi"}),
				pod("besteffort-big", ctr{name: "c", image: "x", memUsage: "500Mi"}),
			},
			want: "besteffort-big,besteffort-small,guaranteed",
		},
		{
			name: "above request before within, then usage above request",
			pods: []*corev1.Pod{
				pod("within", ctr{name: "c", image: "x", reqMem: "2Gi", memUsage: "1Gi"}),
				pod("above-by-100", ctr{name: "c", image: "x", reqMem: "1Gi", memUsage: "1124Mi"}),
				pod("above-by-300", ctr{name: "c", image: "x", reqMem: "100Mi", memUsage: "400Mi"}),
			},
			want: "above-by-300,above-by-100,within",
		},
		{
			name: "lower priority first among those above requests",
			pods: []*corev1.Pod{
				withPriority(pod("high", ctr{name: "c", image: "x", memUsage: "2Gi"}), 1000),
				withPriority(pod("low", ctr{name: "c", image: "x", memUsage: "10Mi"}), 0),
			},
			want: "low,high",
		},
		{
			name: "pods without stats first",
			pods: []*corev1.Pod{
				pod("running", ctr{name: "c", image: "x", memUsage: "2Gi"}),
				func() *corev1.Pod {
					p := pod("pending", ctr{name: "c", image: "x"})
					p.Status = corev1.PodStatus{Phase: corev1.PodPending}
					return p
				}(),
			},
			want: "pending,running",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture("windows", node("4", "16Gi"), tc.pods...)
			snap := f.res.Sample()
			pods := append([]*corev1.Pod(nil), tc.pods...)
			RankMemoryPressure(pods, snap)
			if got := names(pods); got != tc.want {
				t.Errorf("order %s, want %s", got, tc.want)
			}
		})
	}
}

// TestEvictionMessage checks the kubelet's message text (B6).
func TestEvictionMessage(t *testing.T) {
	for _, tc := range []struct {
		name      string
		pod       *corev1.Pod
		threshold string
		want      string
		wantAnn   string
	}{
		{
			name:      "BestEffort container",
			pod:       pod("p", ctr{name: "hog", image: "x", memUsage: "600Mi"}),
			threshold: "500Mi",
			want:      "The node was low on resource: memory. Threshold quantity: 500Mi, available: 300Mi. Container hog was using 600Mi, request is 0, has larger consumption of memory. ",
			wantAnn:   "hog=600Mi",
		},
		{
			name: "only containers above their request are named",
			pod: pod("p", ctr{name: "ok", image: "x", reqMem: "1Gi", memUsage: "100Mi"},
				ctr{name: "over", image: "x", reqMem: "64Mi", memUsage: "128Mi"}),
			threshold: "10%",
			want:      "The node was low on resource: memory. Threshold quantity: 1717986944, available: 300Mi. Container over was using 128Mi, request is 64Mi, has larger consumption of memory. ",
			wantAnn:   "over=128Mi",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture("windows", node("4", "16Gi"), tc.pod)
			snap := f.res.Sample()
			m := NewManager(ManagerConfig{EvictionHard: map[string]string{"memory.available": tc.threshold}})
			obs, ok, err := m.Observe(snap)
			if err != nil || !ok {
				t.Fatalf("observe: %v %v", ok, err)
			}
			obs.Available = resource.MustParse("300Mi")
			msg, ann := EvictionMessage(tc.pod, snap, obs)
			if msg != tc.want {
				t.Errorf("message\n%q\nwant\n%q", msg, tc.want)
			}
			if got := ann[OffendingContainersKey] + "=" + ann[OffendingContainersUsageKey]; got != tc.wantAnn || ann[StarvedResourceKey] != "memory" {
				t.Errorf("annotations %v, want %s", ann, tc.wantAnn)
			}
		})
	}
}

type recordedEvictor struct{ evicted []string }

func (e *recordedEvictor) Evict(pod *corev1.Pod, message string) error {
	e.evicted = append(e.evicted, pod.Name+": "+message)
	return nil
}

type recorder struct{ events []string }

func (r *recorder) AnnotatedEventf(_ runtime.Object, _ map[string]string, typ, reason, format string, args ...interface{}) {
	r.events = append(r.events, typ+" "+reason+" "+fmt.Sprintf(format, args...))
}

func conditionSet(t *testing.T, os facts.OS, kubelet string) *rules.ConditionSet {
	t.Helper()
	cs, err := rules.Default().ConditionSet(os, version.MustParseSemantic(kubelet))
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// TestManager checks pressure and eviction per kubelet version (B6, N6, N7).
func TestManager(t *testing.T) {
	hog := func() *corev1.Pod { return pod("hog", ctr{name: "c", image: "x", memUsage: "13900Mi"}) }
	for _, tc := range []struct {
		name         string
		os, kubelet  string
		evictionHard map[string]string // nil: the version's default
		pods         []*corev1.Pod
		wantPressure []bool
		wantEvicted  string
	}{
		{
			// 16Gi − 2Gi system − 13900Mi − 50Mi = 434Mi < 500Mi.
			name: "windows v1.35 evicts below 500Mi", os: "windows", kubelet: "v1.35.4",
			pods:         []*corev1.Pod{pod("small", ctr{name: "c", image: "x", reqMem: "100Mi"}), hog()},
			wantPressure: []bool{true}, wantEvicted: "hog",
		},
		{
			name: "windows v1.30 never, whatever the flags (N6)", os: "windows", kubelet: "v1.30.0",
			evictionHard: map[string]string{"memory.available": "15Gi"},
			pods:         []*corev1.Pod{hog()},
		},
		{
			name: "windows v1.35 enough memory", os: "windows", kubelet: "v1.35.4",
			pods: []*corev1.Pod{pod("small", ctr{name: "c", image: "x"})},
		},
		{
			// 16Gi − 512Mi system − 15800Mi = 72Mi < 100Mi.
			name: "linux evicts below 100Mi", os: "linux", kubelet: "v1.35.4",
			pods:         []*corev1.Pod{pod("big", ctr{name: "c", image: "x", memUsage: "15800Mi"})},
			wantPressure: []bool{true}, wantEvicted: "big",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(facts.OS(tc.os), node("4", "16Gi"), tc.pods...)
			cs := conditionSet(t, facts.OS(tc.os), tc.kubelet)
			hard := tc.evictionHard
			if hard == nil {
				hard = facts.OS(tc.os).EvictionHardDefault(version.MustParseGeneric(tc.kubelet))
			}
			ev, rec := &recordedEvictor{}, &recorder{}
			var pressure []bool
			m := NewManager(ManagerConfig{
				Resources: f.res, ConditionSet: cs, EvictionHard: hard,
				ActivePods:        func() []*corev1.Pod { return f.pods },
				Evictor:           ev,
				Recorder:          rec,
				SetMemoryPressure: func(p bool) { pressure = append(pressure, p) },
				Clock:             f.clock,
			})
			got, err := m.Synchronize()
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(pressure) != fmt.Sprint(tc.wantPressure) {
				t.Errorf("pressure changes %v, want %v", pressure, tc.wantPressure)
			}
			if tc.wantEvicted == "" {
				if got != nil || len(ev.evicted) > 0 || len(rec.events) > 0 {
					t.Errorf("evicted %v, events %v, want none", ev.evicted, rec.events)
				}
				return
			}
			if got == nil || got.Name != tc.wantEvicted || len(ev.evicted) != 1 {
				t.Fatalf("evicted %v, want only %s", ev.evicted, tc.wantEvicted)
			}
			if !strings.HasPrefix(ev.evicted[0], tc.wantEvicted+": The node was low on resource: memory. Threshold quantity: ") {
				t.Errorf("message %q", ev.evicted[0])
			}
			if len(rec.events) != 1 || !strings.HasPrefix(rec.events[0], "Warning Evicted The node was low on resource: memory.") {
				t.Errorf("events %v", rec.events)
			}
		})
	}
}

// TestPressureTransition checks that MemoryPressure stays True for the
// transition period after the pressure ends, then goes back to False.
func TestPressureTransition(t *testing.T) {
	hog := pod("hog", ctr{name: "c", image: "x", memUsage: "14Gi"})
	f := newFixture("windows", node("4", "16Gi"), hog)
	var pressure []bool
	m := NewManager(ManagerConfig{
		Resources: f.res, ConditionSet: conditionSet(t, "windows", "v1.35.4"),
		EvictionHard: map[string]string{"memory.available": "500Mi"},
		ActivePods:   func() []*corev1.Pod { return f.pods },
		Evictor: evictorFunc(func(p *corev1.Pod, _ string) error {
			f.pods = nil // the runtime stopped it
			return nil
		}),
		SetMemoryPressure: func(p bool) { pressure = append(pressure, p) },
		Clock:             f.clock,
	})
	for _, step := range []struct {
		after time.Duration
		want  string
	}{
		{0, "[true]"},
		{10 * time.Second, "[true]"},
		{4 * time.Minute, "[true]"},
		{5 * time.Minute, "[true false]"},
	} {
		f.clock.SetTime(t0.Add(step.after))
		if _, err := m.Synchronize(); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(pressure) != step.want {
			t.Errorf("after %v: pressure changes %v, want %s", step.after, pressure, step.want)
		}
	}
}

type evictorFunc func(*corev1.Pod, string) error

func (f evictorFunc) Evict(p *corev1.Pod, m string) error { return f(p, m) }

// TestStatusEvictor checks the stand-in's pod status.
func TestStatusEvictor(t *testing.T) {
	p := pod("p", ctr{name: "c", image: "x"})
	p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
	client := fake.NewClientset(p)
	e := &StatusEvictor{Client: client, KilledExitCode: 1}
	if err := e.Evict(p, "The node was low on resource: memory. "); err != nil {
		t.Fatal(err)
	}
	got, err := client.CoreV1().Pods("ns").Get(t.Context(), "p", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	st := got.Status
	if st.Phase != corev1.PodFailed || st.Reason != "Evicted" || st.Message != "The node was low on resource: memory. " {
		t.Errorf("status %s %s %q", st.Phase, st.Reason, st.Message)
	}
	conds := map[corev1.PodConditionType]string{}
	for _, c := range st.Conditions {
		conds[c.Type] = string(c.Status) + "/" + c.Reason
	}
	if conds[corev1.DisruptionTarget] != "True/TerminationByKubelet" || conds[corev1.PodReady] != "False/PodFailed" {
		t.Errorf("conditions %v", conds)
	}
	if term := st.ContainerStatuses[0].State.Terminated; term == nil || term.ExitCode != 1 || term.ContainerID != "containerd://p-c" {
		t.Errorf("container state %+v", st.ContainerStatuses[0].State)
	}
}
