package lifecycle

import (
	"bufio"
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/e2e-framework/pkg/envconf"

	"wink.dev/wink/suites/suite"
)

// replies are the lines of a ping -t log that are echo replies, and their
// timestamps when the log has them.
func replies(t *testing.T, log string, stamped bool) ([]string, []time.Time) {
	t.Helper()
	var lines []string
	var times []time.Time
	for _, l := range strings.Split(log, "\n") {
		if !strings.Contains(l, "Reply from") {
			continue
		}
		lines = append(lines, l)
		if stamped {
			at, err := time.Parse(time.RFC3339Nano, strings.Fields(l)[0])
			if err != nil {
				t.Fatalf("[B16] --timestamps line %q: %v", l, err)
			}
			times = append(times, at)
		}
	}
	return lines, times
}

// TestLogOptions: the log options of `kubectl logs` on a container that
// prints a line a second (ping -t, B16, every kubelet version): --since
// gives the last seconds' lines, --timestamps one stamp a second,
// --tail the last lines, -f each new line when it is printed. (-f --tail=0 is not used: the
// kubelet API of virtual-kubelet reads tailLines=0 as unset.)
func TestLogOptions(t *testing.T) {
	f := suite.Feature("kubectl logs options on a container printing a line a second", "lifecycle", "any", "B16").
		Assess("since, timestamps, tail and follow show the lines printed by then", func(ctx context.Context, t *testing.T, cfg *envconf.Config) context.Context {
			cs := suite.Clientset(t, cfg)
			ns := suite.Namespace(ctx, t, cs, "logopts")
			suite.RunPod(ctx, t, cs, ns, suite.WindowsPod("pinger", suite.Build2022, "cmd", "/c", "ping -t localhost"))
			get := func(opts *corev1.PodLogOptions) string {
				t.Helper()
				opts.Container = "main"
				data, err := cs.CoreV1().Pods(ns).GetLogs("pinger", opts).DoRaw(ctx)
				if err != nil {
					t.Fatalf("[B16] logs %+v: %v", opts, err)
				}
				return string(data)
			}
			deadline := time.Now().Add(time.Minute)
			for {
				if r, _ := replies(t, get(&corev1.PodLogOptions{}), false); len(r) >= 8 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("[B16] pinger printed fewer than 8 replies in a minute: %q", get(&corev1.PodLogOptions{}))
				}
				time.Sleep(500 * time.Millisecond)
			}

			since := get(&corev1.PodLogOptions{SinceSeconds: ptr.To[int64](5)})
			if r, _ := replies(t, since, false); len(r) < 4 || len(r) > 7 {
				t.Errorf("[B16] --since=5s of a line a second: %d replies, want about 5: %q", len(r), since)
			}

			stamped := get(&corev1.PodLogOptions{Timestamps: true})
			_, times := replies(t, stamped, true)
			for i := 1; i < len(times); i++ {
				if gap := times[i].Sub(times[i-1]); gap < 900*time.Millisecond || gap > 1100*time.Millisecond {
					t.Errorf("[B16] --timestamps: replies %v then %v, want a second apart", times[i-1], times[i])
				}
			}
			if now := time.Now(); len(times) > 0 && times[len(times)-1].After(now.Add(time.Second)) {
				t.Errorf("[B16] --timestamps: a line stamped %v read at %v: printed ahead of its time", times[len(times)-1], now)
			}

			tail := get(&corev1.PodLogOptions{TailLines: ptr.To[int64](3)})
			if r, _ := replies(t, tail, false); len(r) != 3 || strings.Count(tail, "\n") != 3 {
				t.Errorf("[B16] --tail=3: %q, want the last three replies", tail)
			}

			fctx, cancel := context.WithTimeout(ctx, 4500*time.Millisecond)
			defer cancel()
			stream, err := cs.CoreV1().Pods(ns).GetLogs("pinger", &corev1.PodLogOptions{Container: "main", Follow: true, SinceSeconds: ptr.To[int64](1), Timestamps: true}).Stream(fctx)
			if err != nil {
				t.Fatalf("[B16] logs -f: %v", err)
			}
			defer stream.Close()
			start := time.Now()
			var followed []string
			sc := bufio.NewScanner(stream)
			for sc.Scan() {
				l := sc.Text()
				followed = append(followed, l)
				at, err := time.Parse(time.RFC3339Nano, strings.Fields(l)[0])
				if err != nil {
					t.Fatalf("[B16] logs -f line %q: %v", l, err)
				}
				if now := time.Now(); at.After(now.Add(time.Second)) || at.Before(start.Add(-2*time.Second)) {
					t.Errorf("[B16] logs -f: line stamped %v received at %v (follow started %v)", at, now, start)
				}
			}
			if len(followed) < 4 || len(followed) > 7 {
				t.Errorf("[B16] logs -f --since=1s for 4.5 s of a line a second: %d lines, want about 5: %q", len(followed), followed)
			}
			suite.Evidence(t, "logs", "pinger: --since=5s, --tail=3, -f for 4.5 s", since+"\n---\n"+tail+"\n---\n"+strings.Join(followed, "\n"))
			return ctx
		}).Feature()
	testenv.Test(t, f)
}
