package dockershim

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

var restricted = Engine{ID: "E", DropCaps: []string{"SYS_RESOURCE"}, Devices: []string{"/dev/kmsg", "/dev/fuse"}}

func TestRewrite(t *testing.T) {
	priv := PrivilegedFlags(restricted)
	join := func(parts ...[]string) []string { return slices.Concat(parts...) }
	tests := []struct {
		name string
		in   []string
		want []string
	}{
		// kind v0.33.0 pkg/cluster/internal/providers/docker/provision.go:
		// a node's `docker run`, the image last with no command.
		{"kind run",
			[]string{"run", "--name", "n", "--hostname", "n", "--label", "io.x-k8s.kind.role=control-plane", "--privileged", "--security-opt", "seccomp=unconfined", "--tmpfs", "/tmp", "--detach", "--tty", "--net", "kind", "--restart=on-failure:1", "--init=false", "--cgroupns=private", "img:v1"},
			join([]string{"run", "--name", "n", "--hostname", "n", "--label", "io.x-k8s.kind.role=control-plane"}, priv, []string{"--security-opt", "seccomp=unconfined", "--tmpfs", "/tmp", "--detach", "--tty", "--net", "kind", "--restart=on-failure:1", "--init=false", "--cgroupns=private", "img:v1"})},
		// node.go: every command in a node.
		{"kind exec", []string{"exec", "--privileged", "-i", "-e", "A=B", "n", "sh", "-c", "echo --privileged"},
			[]string{"exec", "-i", "-e", "A=B", "n", "sh", "-c", "echo --privileged"}},
		{"container run form", []string{"container", "run", "--privileged=true", "img"}, join([]string{"container", "run"}, priv, []string{"img"})},
		{"global options", []string{"--context", "ci", "-H", "unix:///x.sock", "exec", "--privileged", "n", "true"},
			[]string{"--context", "ci", "-H", "unix:///x.sock", "exec", "n", "true"}},
		{"privileged false kept", []string{"run", "--privileged=false", "img"}, []string{"run", "--privileged=false", "img"}},
		{"command after the image untouched", []string{"run", "-it", "img", "--privileged"}, []string{"run", "-it", "img", "--privileged"}},
		{"a value that looks like the flag", []string{"run", "--label", "--privileged", "img"}, []string{"run", "--label", "--privileged", "img"}},
		{"short value option", []string{"run", "-dv", "/a:/b", "--privileged", "img"}, join([]string{"run", "-dv", "/a:/b"}, priv, []string{"img"})},
		{"other subcommands untouched", []string{"inspect", "--privileged"}, []string{"inspect", "--privileged"}},
		{"empty", nil, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Rewrite(tt.in, restricted); !slices.Equal(got, tt.want) {
				t.Errorf("Rewrite(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestPrivilegedFlags(t *testing.T) {
	got := strings.Join(PrivilegedFlags(restricted), " ")
	want := "--cap-add ALL --cap-drop SYS_RESOURCE --security-opt seccomp=unconfined --security-opt apparmor=unconfined --security-opt systempaths=unconfined --device-cgroup-rule a *:* rwm --device /dev/kmsg --device /dev/fuse"
	if got != want {
		t.Errorf("PrivilegedFlags = %q, want %q", got, want)
	}
}

// fakeDocker writes a docker CLI that answers as an engine whose bounding
// set lacks the capabilities in missing: --privileged and --cap-add of a
// missing capability fail as runc does ("unable to apply caps"),
// /dev/fuse is absent, and every container fails at exec of its command.
func fakeDocker(t *testing.T, missing ...string) Docker {
	t.Helper()
	dir := t.TempDir()
	script := `#!/bin/sh
log="$(dirname "$0")/calls"; echo "$*" >> "$log"
case "$1" in
info) echo "ENGINE:ONE 1"; exit 0;;
image) echo "Error: No such image: $3" >&2; exit 1;;
import) exit 0;;
esac
all=0; prev=
for a in "$@"; do
  case "$prev $a" in
  *" --privileged"|"--cap-add ALL") all=1;;
` + func() string {
		var b strings.Builder
		for _, c := range missing {
			b.WriteString(`  "--cap-add ` + c + `") echo "runc create failed: unable to start container process: unable to apply caps: operation not permitted" >&2; exit 125;;` + "\n")
			b.WriteString(`  "--cap-drop ` + c + `") all=0;;` + "\n")
		}
		return b.String()
	}() + `  "--device /dev/fuse") echo 'error gathering device information while adding custom device "/dev/fuse": no such file or directory' >&2; exit 125;;
  esac
  prev=$a
done
if [ $all = 1 ] && [ -n "` + strings.Join(missing, " ") + `" ]; then
  echo "unable to apply caps: operation not permitted" >&2; exit 125
fi
echo 'exec: "/wink-probe": stat /wink-probe: no such file or directory: unknown' >&2; exit 127
`
	p := filepath.Join(dir, "docker")
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return Docker{Path: p}
}

// TestProbe: an engine that refuses --privileged is found out with the
// capabilities it lacks and the devices it has; one that accepts it needs
// no shim.
func TestProbe(t *testing.T) {
	ctx := context.Background()
	e, err := Probe(ctx, fakeDocker(t, "SYS_RESOURCE"))
	if err != nil {
		t.Fatal(err)
	}
	want := Engine{ID: "ENGINE:ONE", DropCaps: []string{"SYS_RESOURCE"}, Devices: []string{"/dev/kmsg"}, CgroupV1: true}
	if !slices.Equal(e.DropCaps, want.DropCaps) || !slices.Equal(e.Devices, want.Devices) || e.ID != want.ID || e.Privileged || !e.CgroupV1 || !e.NeedsShim() {
		t.Errorf("restricted engine: Probe = %+v, want %+v", e, want)
	}
	e, err = Probe(ctx, fakeDocker(t))
	if err != nil {
		t.Fatal(err)
	}
	if !e.Privileged || e.NeedsShim() {
		t.Errorf("permissive engine: Probe = %+v, want privileged and no shim", e)
	}
}

// TestCached: the engine is probed once; the second call reads the file.
func TestCached(t *testing.T) {
	d := fakeDocker(t, "SYS_RESOURCE")
	dir := t.TempDir()
	for range 2 {
		if _, err := Cached(context.Background(), d, dir); err != nil {
			t.Fatal(err)
		}
	}
	calls, err := os.ReadFile(filepath.Join(filepath.Dir(d.Path), "calls"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(calls), "--privileged"); n != 1 {
		t.Errorf("--privileged probed %d times, want once:\n%s", n, calls)
	}
}

// TestShimScript: the installed shim runs `wink kind docker-shim` with the
// real CLI and the engine's flags, and RealDocker passes over it.
func TestShimScript(t *testing.T) {
	dir := t.TempDir()
	// A stand-in for wink that prints its arguments.
	wink := filepath.Join(dir, "wink")
	if err := os.WriteFile(wink, []byte("#!/bin/sh\nprintf '%s\\n' \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	real := fakeDocker(t)
	shim, err := Install(filepath.Join(dir, "shim"), wink, real, restricted)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(filepath.Join(shim, "docker"), "exec", "--privileged", "it's").Output()
	if err != nil {
		t.Fatal(err)
	}
	want := "kind\ndocker-shim\n--docker\n" + real.Path + "\n--cap-drop\nSYS_RESOURCE\n--device\n/dev/kmsg\n--device\n/dev/fuse\n--\nexec\n--privileged\nit's\n"
	if string(out) != want {
		t.Errorf("shim ran wink with\n%s\nwant\n%s", out, want)
	}
	t.Setenv("PATH", shim+string(filepath.ListSeparator)+filepath.Dir(real.Path))
	got, err := RealDocker()
	if err != nil || got.Path != real.Path {
		t.Errorf("RealDocker = %v, %v; want %s", got, err, real.Path)
	}
}

// TestProbeEngine probes the machine's own Docker engine, when one
// answers: whatever it says, the flags it gives must start a container.
func TestProbeEngine(t *testing.T) {
	d, err := RealDocker()
	if err != nil {
		t.Skip("no docker CLI on PATH")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if out, err := exec.CommandContext(ctx, d.Path, "info").CombinedOutput(); err != nil {
		t.Skipf("no Docker engine answers: %s", strings.TrimSpace(string(out)))
	}
	e, err := Probe(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("engine %s: %+v", e.ID, e)
	flags := []string{"--privileged"}
	if e.NeedsShim() {
		flags = PrivilegedFlags(e)
	}
	if o, err := d.try(ctx, flags...); err != nil || o != started {
		t.Errorf("docker run %s: %v, %v; want the container started", strings.Join(flags, " "), o, err)
	}
}
