package shell

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// volumeFS marks C:\empty-volume (and /empty-volume) as a simulated volume.
type volumeFS struct{ *memFS }

func (v volumeFS) InVolume(path string) bool {
	p := strings.ToLower(strings.ReplaceAll(path, `\`, "/"))
	return strings.HasPrefix(p, "c:/empty-volume") || strings.HasPrefix(p, "/empty-volume")
}

// TestOpenWorld: a program wink does not simulate is "not found" only where
// wink knows it is absent (a base image's known file set, a Verb-Noun that
// is not in-box, a script in a simulated volume); in-box programs succeed
// silently; anything else of an open image runs until stopped (row E; B10
// for the host's in-box programs of HostProcess containers; issue 9).
func TestOpenWorld(t *testing.T) {
	nano := Image{Base: "nanoserver"}
	servercore := Image{InBox: true, Base: "servercore"}
	openWin := ImageOf(Windows, "example.com/vendor/agent:1.0", false)
	host := ImageOf(Windows, "example.com/vendor/hpc:1.0", true)
	openLinux := ImageOf(Linux, "registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.10.0", false)
	busybox := ImageOf(Linux, "busybox:1.36", false)
	tests := []struct {
		name    string
		os      OS
		img     Image
		argv    []string
		stdout  string
		stderr  string // a prefix
		code    int
		blocked bool // ran until stopped (the fake clock's day ran out)
	}{
		// Behaviour rows that stay: known base images.
		{name: "nanoserver cmd unknown exe", os: Windows, img: nano, argv: []string{"cmd", "/c", "foo.exe"},
			stderr: "'foo.exe' is not recognized as an internal or external command,\r\noperable program or batch file.\r\n", code: ExitCmdNotFound},
		{name: "nanoserver no in-box netsh", os: Windows, img: nano, argv: []string{"cmd", "/c", "netsh advfirewall show allprofiles"},
			stderr: "'netsh' is not recognized", code: ExitCmdNotFound},
		// Nano Server has no PowerShell (inbox.yaml bases[].absent, issue 18).
		{name: "nanoserver no powershell", os: Windows, img: nano, argv: []string{"cmd", "/c", "powershell -Command New-NetFirewallRule -DisplayName x"},
			stderr: "'powershell' is not recognized as an internal or external command,\r\noperable program or batch file.\r\n", code: ExitCmdNotFound},
		{name: "nanoserver exec powershell", os: Windows, img: nano, argv: []string{"powershell.exe", "-Command", "echo hi"},
			stderr: "hcs::System::CreateProcess powershell.exe: The system cannot find the file specified.", code: ExitCannotExec},
		{name: "busybox sh unknown", os: Linux, img: busybox, argv: []string{"sh", "-c", "node server.js"}, stderr: "sh: node: not found\n", code: ExitShNotFound},
		{name: "busybox exec unknown", os: Linux, img: busybox, argv: []string{"/csi-node-driver-registrar"}, stderr: `exec: "/csi-node-driver-registrar": executable file not found in $PATH`, code: ExitCannotExec},
		// In-box programs succeed silently.
		{name: "servercore New-NetFirewallRule", os: Windows, img: servercore,
			argv:   []string{"powershell", "-Command", "New-NetFirewallRule -DisplayName 'windows-exporter' -Direction Inbound -LocalPort 9182 -Protocol TCP -Action Allow; Write-Output \"ok $?\""},
			stdout: "ok True\r\n"},
		{name: "servercore netsh", os: Windows, img: servercore, argv: []string{"cmd", "/c", "netsh advfirewall firewall add rule name=x dir=in action=allow protocol=TCP localport=80 && echo done"}, stdout: "done\r\n"},
		{name: "servercore reg.exe from PowerShell", os: Windows, img: servercore, argv: []string{"powershell", "-Command", "reg.exe add HKCU\\SOFTWARE\\x /f; Write-Output $LASTEXITCODE"}, stdout: "The operation completed successfully.\r\n0\r\n"},
		{name: "host takeown as the container command", os: Windows, img: host, argv: []string{"takeown", "/f", `C:\var\lib\kubelet`, "/r"}},
		{name: "host Verb-Noun not in-box", os: Windows, img: host, argv: []string{"powershell", "-Command", "Install-FooBar -Force"},
			stderr: "Install-FooBar : The term 'Install-FooBar' is not recognized", code: 1},
		// Open images: what wink cannot rule out runs until stopped.
		{name: "open image exe", os: Windows, img: openWin, argv: []string{"C:\\app\\agent.exe", "--port=9182"}, code: ExitKilledWindows, blocked: true},
		{name: "open image cmd unknown exe", os: Windows, img: openWin, argv: []string{"cmd", "/c", "agent.exe"}, code: ExitKilledWindows, blocked: true},
		{name: "host powershell -File shipped script", os: Windows, img: host,
			argv: []string{"powershell", "-File", `C:\hpc\kube-proxy\start.ps1`, "-ClusterCIDR", "10.244.0.0/16"}, code: ExitKilledWindows, blocked: true},
		{name: "open image script in a simulated volume", os: Windows, img: openWin, argv: []string{"powershell", "-File", `C:\empty-volume\start.ps1`},
			stderr: "The argument 'C:\\empty-volume\\start.ps1' to the -File parameter does not exist.", code: -196608},
		{name: "open linux image program", os: Linux, img: openLinux, argv: []string{"/csi-node-driver-registrar", "--csi-address=/csi/csi.sock"}, code: ExitKilledLinux, blocked: true},
		{name: "open linux image sh", os: Linux, img: openLinux, argv: []string{"sh", "-c", "exec node /app/server.js"}, code: ExitKilledLinux, blocked: true},
		{name: "open linux tools end", os: Linux, img: openLinux, argv: []string{"sh", "-c", "mkdir -p /host/bin && cp /bin/tool /host/bin/ && echo copied"}, stdout: "copied\n"},
		{name: "open linux kubectl", os: Linux, img: openLinux, argv: []string{"kubectl", "patch", "deployment", "x", "-p", "{}"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(tt.os)
			f.env.Image = tt.img
			f.env.Files = volumeFS{f.fs}
			res := f.run(t, tt.argv, "")
			if tt.stderr == "" && res.stderr != "" || !strings.HasPrefix(res.stderr, tt.stderr) {
				t.Errorf("stderr %q, want prefix %q", res.stderr, tt.stderr)
			}
			if res.stdout != tt.stdout || res.code != tt.code {
				t.Errorf("stdout %q code %d, want %q %d", res.stdout, res.code, tt.stdout, tt.code)
			}
			if blocked := !f.clock.Now().Before(fakeEpoch.Add(24 * time.Hour)); blocked != tt.blocked {
				t.Errorf("ran until stopped: %v, want %v", blocked, tt.blocked)
			}
		})
	}
}

func TestImageOf(t *testing.T) {
	tests := []struct {
		os          OS
		ref         string
		hostProcess bool
		want        Image
	}{
		{Windows, "mcr.microsoft.com/windows/nanoserver:ltsc2022", false, Image{Base: "nanoserver"}},
		{Windows, "mcr.microsoft.com/windows/servercore@sha256:" + strings.Repeat("a", 64), false, Image{InBox: true, Base: "servercore"}},
		{Windows, "registry.k8s.io/e2e-test-images/agnhost:2.59", false, Image{Base: "e2e-test-images"}},
		{Windows, "mcr.microsoft.com/windows/nanoserver:ltsc2022", true, Image{InBox: true, Base: "host"}},
		{Windows, "registry.k8s.io/e2e-test-images/busybox:1.37.0-1", true, Image{InBox: true, Base: "host"}},
		{Windows, "example.com/sig-windows/kube-proxy:v1.35.4-hostprocess", true, Image{Open: true, InBox: true, Base: "host"}},
		{Windows, "registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.10.0", false, Image{Open: true, InBox: true}},
		{Linux, "busybox", false, Image{Base: "busybox"}},
		{Linux, "docker.io/library/busybox:1.36", false, Image{Base: "busybox"}},
		{Linux, "bitnami/kubectl:1.30", false, Image{Open: true}},
		{Linux, "not a reference", false, Image{Open: true}},
	}
	for _, tt := range tests {
		if got := ImageOf(tt.os, tt.ref, tt.hostProcess); got != tt.want {
			t.Errorf("ImageOf(%s, %q, %v) = %+v, want %+v", tt.os, tt.ref, tt.hostProcess, got, tt.want)
		}
	}
}

func TestPresent(t *testing.T) {
	tests := []struct {
		os   OS
		img  Image
		argv []string
		want bool
	}{
		{Windows, Image{Base: "nanoserver"}, []string{"foo.exe"}, false},
		{Windows, Image{Base: "nanoserver"}, []string{"cmd", "/c", "foo.exe"}, true},
		{Windows, Image{Base: "nanoserver"}, []string{"netsh"}, false},
		{Windows, Image{InBox: true, Base: "servercore"}, []string{`C:\Windows\System32\netsh.exe`}, true},
		{Windows, Image{InBox: true, Base: "servercore"}, []string{"agent.exe"}, false},
		{Windows, Image{Open: true, InBox: true}, []string{"agent.exe"}, true},
		{Linux, Image{Base: "busybox"}, []string{"--csi-address=/csi/csi.sock"}, false},
		{Linux, Image{Open: true}, []string{"--csi-address=/csi/csi.sock"}, true},
		{Linux, Image{Open: true}, nil, false},
	}
	for _, tt := range tests {
		if got := Present(tt.os, tt.img, tt.argv); got != tt.want {
			t.Errorf("Present(%s, %+v, %q) = %v, want %v", tt.os, tt.img, tt.argv, got, tt.want)
		}
	}
}

// TestInBoxTable: inbox.yaml loads, cites its sources, and does not list
// what the shell simulates; bad tables are refused naming the field.
func TestInBoxTable(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("process", "inbox.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := LoadInBox(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Modules) == 0 || len(f.Executables.Names) == 0 || len(f.Bases) == 0 {
		t.Fatalf("inbox.yaml: %d modules, %d executables, %d bases", len(f.Modules), len(f.Executables.Names), len(f.Bases))
	}
	if sim := simulated(f); len(sim) != 0 {
		t.Errorf("inbox.yaml lists what the shell simulates; remove them there: %v", sim)
	}
	if m, ok := InBoxCmdlet("new-netfirewallrule"); !ok || m != "NetSecurity" {
		t.Errorf("InBoxCmdlet(new-netfirewallrule) = %q, %v", m, ok)
	}
	bad := []struct{ yaml, want string }{
		{"modules: [{module: X, source: https://example.com/, cmdlets: [New-Thing]}]", "modules[0] (X).source: Invalid value"},
		{"modules: [{module: X, source: https://learn.microsoft.com/x, cmdlets: [notacmdlet]}]", "want Verb-Noun"},
		{"executables: {names: [netsh, NETSH.exe]}", `executables.names[1]: Invalid value: "NETSH.exe"`},
		{"bases: [{name: b, os: linux, inBox: true, repositories: [busybox]}]", "bases[0] (b).inBox: Forbidden"},
		{"bases: [{name: b, os: linux, repositories: [busybox, docker.io/library/busybox]}]", "bases[0] (b).repositories[1]: Duplicate value"},
		{"tools: {macos: [x]}", `tools.macos: Unsupported value`},
		{"unknownField: 1", "unknown field"},
	}
	f2, err := LoadInBox([]byte("modules: [{module: X, source: https://learn.microsoft.com/x, cmdlets: [Write-Host]}]\nexecutables: {names: [ping]}\ntools: {linux: [sh]}"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(simulated(f2), "; "); got != "modules X: Write-Host; executables: ping; tools.linux: sh" {
		t.Errorf("Simulated() = %q", got)
	}
	for _, b := range bad {
		_, err := LoadInBox([]byte(b.yaml))
		if err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("LoadInBox(%q) = %v, want an error containing %q", b.yaml, err, b.want)
		}
	}
}
