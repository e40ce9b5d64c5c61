package pods

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"wink.dev/wink/simnode/internal/logs"
)

// A container that prints a line a second (ping -t, a sleeping loop's
// heartbeat) does not wake per line: it runs up to lookahead ahead of the
// node's clock and waits once per lookahead. `kubectl logs` still shows
// exactly the lines it printed by now (B16, every kubelet version), with
// their own times: --since=5s the last five seconds' (inclusive, as the
// kubelet), --timestamps one stamp a second, --tail=3 the last three, -f
// each new line when its time comes; the file on the node's disk is at
// most lookahead behind.
func TestLookaheadLogs(t *testing.T) {
	dir := t.TempDir()
	f := newFixtureWith(t, "windows", func(c *Config) {
		c.Shell = &tickShell{}
		c.Images = tickerImages{}
		c.Logs = logs.NewFileStore(filepath.Join(dir, "root"), logs.Rotation{})
	})
	pod := simplePod("tick")
	pod.Spec.Containers[0].Image = "example.com/ticker:1"
	f.start(pod)
	started := f.get("tick").Status.ContainerStatuses[0].State.Running.StartedAt.Time
	f.run(2 * time.Second)

	waits := f.clk.Scheduled()
	f.run(60 * time.Second)
	if n := f.clk.Scheduled() - waits; n > int(60*time.Second/lookahead)+1 {
		t.Fatalf("a line a second for 60 s: %d waits on the clock, want at most %d", n, int(60*time.Second/lookahead)+1)
	}

	now := f.clk.Now()
	b, err := f.p.ContainerLogs("default", "tick", "c", false)
	if err != nil {
		t.Fatal(err)
	}
	// The lines a real container printed by now: the header at its start,
	// then "tick k" at start + k s.
	printed := int(now.Sub(started) / time.Second)
	lines := b.Lines()
	if len(lines) != 1+printed {
		t.Fatalf("%d lines at %s after the start, want %d", len(lines), now.Sub(started), 1+printed)
	}
	for k, l := range lines {
		if want := started.Add(time.Duration(k) * time.Second); !l.Time.Equal(want) {
			t.Fatalf("line %d %q at %v, want %v", k, l.Text, l.Time, want)
		}
	}
	read := func(opts logs.Options) []string {
		t.Helper()
		var out []string
		sc := bufio.NewScanner(b.Reader(context.Background(), opts, now))
		for sc.Scan() {
			out = append(out, sc.Text())
		}
		return out
	}

	since := read(logs.Options{SinceSeconds: 5})
	want := 0
	for k := 1; k <= printed; k++ {
		if !started.Add(time.Duration(k) * time.Second).Before(now.Add(-5 * time.Second)) {
			want++
		}
	}
	if len(since) != want || want < 5 || want > 6 {
		t.Fatalf("--since=5s: %q, want %d lines", since, want)
	}
	if last := since[len(since)-1]; last != fmt.Sprintf("tick %d", printed) {
		t.Fatalf("--since=5s ends with %q, want tick %d", last, printed)
	}

	stamped := read(logs.Options{Timestamps: true})
	for k := 1; k < len(stamped); k++ {
		prev, _ := time.Parse(logs.TimestampFormat, strings.Fields(stamped[k-1])[0])
		cur, _ := time.Parse(logs.TimestampFormat, strings.Fields(stamped[k])[0])
		if cur.Sub(prev) != time.Second {
			t.Fatalf("--timestamps: %q then %q, want a second apart", stamped[k-1], stamped[k])
		}
	}

	tail := read(logs.Options{Tail: 3, TailSet: true})
	if want := []string{fmt.Sprintf("tick %d", printed-2), fmt.Sprintf("tick %d", printed-1), fmt.Sprintf("tick %d", printed)}; strings.Join(tail, ",") != strings.Join(want, ",") {
		t.Fatalf("--tail=3: %q, want %q", tail, want)
	}

	path := f.p.Logs().Path(logKey(f.p.pods["default/tick"], f.p.pods["default/tick"].containers[0], 0))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n > 1+printed || n < 1+printed-int(lookahead/time.Second)-1 {
		t.Fatalf("the file on the node's disk has %d lines, want %d at most %s behind", n, 1+printed, lookahead)
	}

	// -f: each new line when its time comes, none ahead of it.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(b.Reader(ctx, logs.Options{Follow: true, TailSet: true, Tail: 0, Timestamps: true}, now))
		for sc.Scan() {
			got <- sc.Text()
		}
	}()
	for k := 1; k <= 3; k++ {
		var l string
		for step := 0; l == ""; step++ {
			if step > 100 {
				t.Fatalf("-f: no line %d after 10 s of the clock", k)
			}
			f.run(simTick)
			select {
			case l = <-got:
			case <-time.After(20 * time.Millisecond):
			}
		}
		at, _ := time.Parse(logs.TimestampFormat, strings.Fields(l)[0])
		if at.After(f.clk.Now()) || !strings.HasSuffix(l, fmt.Sprintf("tick %d", printed+k)) {
			t.Fatalf("-f at %v: %q, want tick %d no later than then", f.clk.Now(), l, printed+k)
		}
	}
}

// A process that ran ahead exits at its own time: `sleep 5` then `exit 3`
// runs for 5 s of the node's clock, and what it printed before is in the
// log at its times.
func TestLookaheadExitsOnTime(t *testing.T) {
	f := newFixture(t, "windows", "10.244.1.0/24")
	pod := simplePod("sleeper", "powershell", "-Command", "echo before; Start-Sleep 5; echo after; exit 3")
	pod.Spec.RestartPolicy = corev1.RestartPolicyNever
	f.start(pod)
	started := f.get("sleeper").Status.ContainerStatuses[0].State.Running.StartedAt.Time
	f.run(3 * time.Second)
	if st := f.get("sleeper").Status.ContainerStatuses[0].State; st.Running == nil {
		t.Fatalf("3 s into a 5 s sleep: %+v, want Running", st)
	}
	if lines := f.logLines("sleeper", "c", 0); strings.Join(lines, ",") != "before" {
		t.Fatalf("3 s into a 5 s sleep the log has %q, want only the line before it", lines)
	}
	f.run(3 * time.Second)
	term := f.get("sleeper").Status.ContainerStatuses[0].State.Terminated
	if term == nil || term.ExitCode != 3 {
		t.Fatalf("6 s after the start: %+v, want exited with 3", f.get("sleeper").Status.ContainerStatuses[0].State)
	}
	if d := term.FinishedAt.Sub(started); d < 5*time.Second || d > 5*time.Second+simTick {
		t.Fatalf("exited %s after its start, want 5 s", d)
	}
	if lines := f.logLines("sleeper", "c", 0); strings.Join(lines, ",") != "before,after" {
		t.Fatalf("log %q, want before, after", lines)
	}
}
