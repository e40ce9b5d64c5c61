package process

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"testing"
	"time"
)

// sleeps records the process's sleeps on its clock.
type sleeps struct{ d []time.Duration }

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.d = append(s.d, d)
	return ctx.Err()
}

// endless reads x forever.
type endless struct{}

func (endless) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = 'x'
	}
	return len(b), nil
}

// Issue 18, row B5 (Linux side): past its memory a Linux process is
// OOM-killed: Grow fails, the hook hears it once, the Run's context ends
// and every later Step stops it.
func TestGrowOOMKillsOnLinux(t *testing.T) {
	calls := 0
	env := &Env{OS: Linux, Limits: Limits{Memory: 1000, OOMKilled: func() { calls++ }}}
	p := NewProc(context.Background(), env, nil, nil, nil, nil)
	defer p.End()
	if err := p.Grow(600); err != nil {
		t.Fatalf("Grow(600) of 1000: %v", err)
	}
	if err := p.Grow(600); !errors.Is(err, ErrOutOfMemory) {
		t.Fatalf("Grow past the limit: %v, want ErrOutOfMemory", err)
	}
	if err := p.Grow(600); !errors.Is(err, ErrOutOfMemory) {
		t.Fatalf("Grow again: %v, want ErrOutOfMemory", err)
	}
	if !p.OOMKilled() || calls != 1 || !p.Done() {
		t.Errorf("OOMKilled %v, hook calls %d, done %v: want true, 1, true", p.OOMKilled(), calls, p.Done())
	}
	if err := p.Step(); !errors.Is(err, ErrStopped) {
		t.Errorf("Step after the OOM kill: %v, want ErrStopped", err)
	}
	if p.Held() != 600 {
		t.Errorf("Held = %d, want 600 (the failed Grows are not counted)", p.Held())
	}
}

// Row B5 (Windows side): nothing is OOM-killed; the allocation fails and
// the process goes on (its interpreter reports the error), and memory it
// gives back can be taken again.
func TestGrowFailsOnWindows(t *testing.T) {
	env := &Env{OS: Windows, Limits: Limits{Memory: 1000, OOMKilled: func() { t.Error("a Windows process is OOM-killed") }}}
	p := NewProc(context.Background(), env, nil, nil, nil, nil)
	defer p.End()
	if err := p.Grow(1001); !errors.Is(err, ErrOutOfMemory) {
		t.Fatalf("Grow past the limit: %v, want ErrOutOfMemory", err)
	}
	if p.OOMKilled() || p.Done() {
		t.Errorf("OOMKilled %v, done %v: want false, false", p.OOMKilled(), p.Done())
	}
	if err := p.Grow(900); err != nil {
		t.Fatal(err)
	}
	p.Grow(-900)
	if err := p.Grow(1000); err != nil {
		t.Errorf("Grow after a release: %v", err)
	}
}

// Step sleeps on the process's clock every stepSlice steps, as long as
// those steps take at the process's pace: StepsPerSecond, or its share of
// the node's CPU when others compute there too.
func TestStepPacesOnTheClock(t *testing.T) {
	var s sleeps
	env := &Env{OS: Linux, Sleep: s.sleep, Limits: Limits{StepsPerSecond: 1000}}
	p := NewProc(context.Background(), env, nil, nil, nil, nil)
	defer p.End()
	for range 3 * stepSlice {
		if err := p.Step(); err != nil {
			t.Fatal(err)
		}
	}
	want := time.Duration(stepSlice) * time.Second / 1000
	if len(s.d) != 3 || s.d[0] != want {
		t.Fatalf("sleeps %v, want 3 of %v", s.d, want)
	}

	// Two busy processes on a node of 1,000 steps a second: each runs 500.
	node := &CPUShare{steps: 1000, active: map[*meter]time.Time{}}
	var s1, s2 sleeps
	p1 := NewProc(context.Background(), &Env{OS: Linux, Sleep: s1.sleep, Limits: Limits{StepsPerSecond: 1000, Node: node}}, nil, nil, nil, nil)
	p2 := NewProc(context.Background(), &Env{OS: Linux, Sleep: s2.sleep, Limits: Limits{StepsPerSecond: 1000, Node: node}}, nil, nil, nil, nil)
	defer p1.End()
	defer p2.End()
	for range 2 * stepSlice {
		p1.Step()
		p2.Step()
	}
	if got := s2.d[len(s2.d)-1]; got != 2*want {
		t.Errorf("a process sharing the node with another sleeps %v a slice, want %v", got, 2*want)
	}
}

// StepsFor: StepsPerCPU a core, at least a tenth of a core's.
func TestStepsFor(t *testing.T) {
	for _, tc := range []struct {
		milli int64
		want  int
	}{{1000, StepsPerCPU}, {250, StepsPerCPU / 4}, {4000, 4 * StepsPerCPU}, {1, StepsPerCPU / 10}} {
		if got := StepsFor(tc.milli); got != tc.want {
			t.Errorf("StepsFor(%d) = %d, want %d", tc.milli, got, tc.want)
		}
	}
}

// A Capture holds at most MaxWrite and what the memory allows, counts it,
// and gives it back on Release.
func TestCaptureIsBounded(t *testing.T) {
	p := NewProc(context.Background(), &Env{OS: Windows, Limits: Limits{Memory: 100}}, nil, nil, nil, nil)
	defer p.End()
	c := p.Capture()
	if n, err := c.Write([]byte(strings.Repeat("a", 60))); n != 60 || err != nil {
		t.Fatalf("Write 60: %d, %v", n, err)
	}
	if n, err := c.Write([]byte(strings.Repeat("b", 60))); n != 0 || !errors.Is(err, ErrOutOfMemory) {
		t.Errorf("Write past the memory: %d, %v; want 0, ErrOutOfMemory", n, err)
	}
	if p.Held() != 60 {
		t.Errorf("Held %d, want 60", p.Held())
	}
	c.Release()
	if p.Held() != 0 || c.Len() != 0 {
		t.Errorf("after Release: Held %d, Len %d", p.Held(), c.Len())
	}

	big := NewProc(context.Background(), &Env{OS: Linux, Limits: Limits{Memory: 2 * MaxWrite}}, nil, nil, nil, nil)
	defer big.End()
	c = big.Capture()
	c.Write(make([]byte, MaxWrite-10))
	if n, err := c.Write(make([]byte, 20)); n != 10 || err == nil {
		t.Errorf("Write across MaxWrite: %d, %v; want 10 and an error", n, err)
	}
}

// ReadAll of an endless input ends in the OOM kill (Linux) or the failed
// allocation (Windows), never in simnode's memory.
func TestReadAllEndless(t *testing.T) {
	for _, os := range []OS{Linux, Windows} {
		p := NewProc(context.Background(), &Env{OS: os, Limits: Limits{Memory: 1 << 20}}, nil, nil, nil, nil)
		data, err := p.ReadAll(endless{})
		if !errors.Is(err, ErrOutOfMemory) || len(data) > 1<<20 {
			t.Errorf("%s: ReadAll(endless) = %d bytes, %v; want at most 1 MiB and ErrOutOfMemory", os, len(data), err)
		}
		if p.OOMKilled() != (os == Linux) {
			t.Errorf("%s: OOMKilled %v", os, p.OOMKilled())
		}
		p.End()
	}
}

type trace []string

func (t *trace) NotSimulated(what string) { *t = append(*t, what) }

// Issue 18: a program of an open image, or an in-box one, that wink does
// not simulate runs as the open world says and leaves a trace.
func TestUnsimulatedTraces(t *testing.T) {
	var tr trace
	env := &Env{OS: Windows, Completes: true, Image: Image{Open: true, InBox: true}, Tracer: &tr}
	p := NewProc(context.Background(), env, nil, nil, nil, nil)
	defer p.End()
	if code, ok := p.Unsimulated(`C:\tools\Foo.EXE`); !ok || code != 0 {
		t.Errorf("Unsimulated(foo) = %d, %v", code, ok)
	}
	closed := NewProc(context.Background(), &Env{OS: Windows, Tracer: &tr}, nil, nil, nil, nil)
	defer closed.End()
	if _, ok := closed.Unsimulated("foo"); ok {
		t.Error("a program of a closed image is found")
	}
	if len(tr) != 1 || tr[0] != "foo" {
		t.Errorf("traces %q, want [foo]", tr)
	}
}

// All of simnode's processes hold at most MachineMemory together, whatever
// their containers' limits: past it, the process that asks is OOM-killed
// (Linux); what a Run held is given back when it ends.
func TestMachineMemory(t *testing.T) {
	big := Limits{Memory: MachineMemory}
	p1 := NewProc(context.Background(), &Env{OS: Linux, Limits: big}, nil, nil, nil, nil)
	p2 := NewProc(context.Background(), &Env{OS: Linux, Limits: big}, nil, nil, nil, nil)
	defer p2.End()
	if err := p1.Grow(MachineMemory * 3 / 4); err != nil {
		t.Fatal(err)
	}
	if err := p2.Grow(MachineMemory / 2); !errors.Is(err, ErrOutOfMemory) || !p2.OOMKilled() {
		t.Fatalf("Grow past the machine's memory: %v, OOMKilled %v", err, p2.OOMKilled())
	}
	p1.End()
	p3 := NewProc(context.Background(), &Env{OS: Linux, Limits: big}, nil, nil, nil, nil)
	defer p3.End()
	if err := p3.Grow(MachineMemory / 2); err != nil {
		t.Errorf("Grow once the first process ended: %v", err)
	}
}

// memFiles is an FS of files in memory.
type memFiles map[string][]byte

func (m memFiles) ReadFile(path string) ([]byte, error) { return m[path], nil }
func (m memFiles) WriteFile(path string, data []byte) error {
	m[path] = data
	return nil
}
func (m memFiles) ReadDir(string) ([]fs.DirEntry, error) { return nil, nil }

// A redirect that floods a file (`yes > /data/f`) stops at MaxFile: the
// simulated disk is full (issue 18), on both systems, in their words.
func TestFileFloodIsBounded(t *testing.T) {
	files := memFiles{}
	p := NewProc(context.Background(), &Env{OS: Linux, Files: files}, nil, nil, nil, nil)
	defer p.End()
	w, err := p.OpenRedirect("/data/f", false)
	if err != nil {
		t.Fatal(err)
	}
	line := []byte(strings.Repeat("y", 1<<20))
	for i := 0; ; i++ {
		if _, err := w.Write(line); err != nil {
			if !errors.Is(err, ErrNoSpace) || PosixFileError(err, true) != "No space left on device" || CmdFileError(err, true) != "There is not enough space on the disk." {
				t.Fatalf("write %d: %v", i, err)
			}
			break
		}
		if i > MaxFile>>20 {
			t.Fatal("the file grows past MaxFile")
		}
	}
	if len(files["/data/f"]) > MaxFile {
		t.Errorf("file of %d bytes", len(files["/data/f"]))
	}
	if err := p.WriteFile("/data/f", []byte("x"), true); !errors.Is(err, ErrNoSpace) {
		t.Errorf("append past MaxFile: %v", err)
	}
}
