package shell

import (
	"context"
	"net/netip"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// tcase is one command line and what it must print and return.
type tcase struct {
	name  string
	os    OS
	argv  []string
	stdin string
	setup func(f *fixture)
	// real is how long the case may take in real time (default 5 s): more
	// for a case whose awk child, at nice 19, a loaded machine starves.
	real time.Duration
	// out and errOut are compared exactly when set (use "-" for "empty").
	out, errOut string
	// outHas and errHas must all appear; outNot must not.
	outHas, errHas, outNot []string
	code                   int
	check                  func(t *testing.T, f *fixture, r result)
}

func (tc tcase) run(t *testing.T) {
	t.Helper()
	os := tc.os
	if os == "" {
		os = Windows
	}
	f := newFixture(os)
	if tc.setup != nil {
		tc.setup(f)
	}
	real := tc.real
	if real == 0 {
		real = 5 * time.Second
	}
	r := f.runFor(t, tc.argv, tc.stdin, real)
	if r.code != tc.code {
		t.Errorf("%q: exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", tc.argv, r.code, tc.code, r.stdout, r.stderr)
	}
	exact := func(what, got, want string) {
		if want == "" {
			return
		}
		if want == "-" {
			want = ""
		}
		if got != want {
			t.Errorf("%q: %s\n got: %q\nwant: %q", tc.argv, what, got, want)
		}
	}
	exact("stdout", r.stdout, tc.out)
	exact("stderr", r.stderr, tc.errOut)
	for _, s := range tc.outHas {
		if !strings.Contains(r.stdout, s) {
			t.Errorf("%q: stdout lacks %q:\n%s\nstderr:\n%s", tc.argv, s, r.stdout, r.stderr)
		}
	}
	for _, s := range tc.outNot {
		if strings.Contains(r.stdout, s) {
			t.Errorf("%q: stdout has %q:\n%s", tc.argv, s, r.stdout)
		}
	}
	for _, s := range tc.errHas {
		if !strings.Contains(r.stderr, s) {
			t.Errorf("%q: stderr lacks %q:\n%s", tc.argv, s, r.stderr)
		}
	}
	if tc.check != nil {
		tc.check(t, f, r)
	}
}

func runCases(t *testing.T, cases []tcase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { tc.run(t) })
	}
}

const validationScript = `if (-not(Test-Path $env:CONTAINER_SANDBOX_MOUNT_POINT\etc\emptydir)) {
		throw "Cannot find emptydir volume"
	}
	if (-not(Test-Path $env:CONTAINER_SANDBOX_MOUNT_POINT\etc\configmap\text.txt)) {
		throw "Cannot find text.txt in configmap-volume"
	}
	$c = Get-Content -Path $env:CONTAINER_SANDBOX_MOUNT_POINT\etc\configmap\text.txt
	if ($c -ne "Lorem ipsum dolor sit amet") {
		throw "Contents of /etc/configmap/text.txt are not as expected"
	}
	if (-not(Test-Path $env:CONTAINER_SANDBOX_MOUNT_POINT\etc\hostpath)) {
		throw "Cannot find hostpath volume" 
	}
	if (-not(Test-Path $env:CONTAINER_SANDBOX_MOUNT_POINT\etc\downwardapi\podname)) {
		throw "Cannot find podname file in downward-api volume" 
	}
	$c = Get-Content -Path $env:CONTAINER_SANDBOX_MOUNT_POINT\etc\downwardapi\podname
	if ($c -ne "host-process-volume-mounts") {
		throw "Contents of /etc/downward-api/podname are not as expected"
	}
	if (-not(Test-Path $env:CONTAINER_SANDBOX_MOUNT_POINT\etc\secret\foo.txt)) {
		throw "Cannot find file foo.txt in secret volume"
	}
	$c = Get-Content $env:CONTAINER_SANDBOX_MOUNT_POINT\etc\secret\foo.txt
	if ($c -ne "bar") {
		Write-Output $c
		throw "Contents of /etc/secret/foo.txt are not as expected"
	}
	# Windows ComputerNames cannot exceed 15 characters, which means that the $env:COMPUTERNAME
	# can only be a substring of $env:NODE_NAME_TEST. We compare it with the hostname instead.
	# The following comparison is case insensitive.
	if ($env:NODE_NAME_TEST -ine "$(hostname)") {
		throw "NODE_NAME_TEST env var ($env:NODE_NAME_TEST) does not equal hostname"
	}
	Write-Output "SUCCESS"`

// hostProcessVolumes sets up the volumes of upstream host_process.go's
// makeTestPodWithVolumeMounts under the sandbox mount point (row B10).
func hostProcessVolumes(f *fixture, nodeName string) {
	const sandbox = `C:\C\3f2b9c1e`
	f.env.Hostname = "win-node-1"
	f.env.User = `NT AUTHORITY\SYSTEM`
	f.env.Dir = sandbox
	f.env.Vars["CONTAINER_SANDBOX_MOUNT_POINT"] = sandbox
	f.env.Vars["NODE_NAME_TEST"] = nodeName
	f.fs.mkdir(sandbox + `\etc\emptydir`)
	f.fs.mkdir(sandbox + `\etc\hostpath`)
	f.fs.add(sandbox+`\etc\configmap\text.txt`, "Lorem ipsum dolor sit amet")
	f.fs.add(sandbox+`\etc\configmap\validationscript.ps1`, validationScript)
	f.fs.add(sandbox+`\etc\downwardapi\podname`, "host-process-volume-mounts")
	f.fs.add(sandbox+`\etc\secret\foo.txt`, "bar")
}

// TestUpstreamWindowsE2E runs the exact commands of the upstream Windows
// e2e tests (k8s.io/kubernetes@v1.35.4/test/e2e/windows) and checks what
// those tests check.
func TestUpstreamWindowsE2E(t *testing.T) {
	runCases(t, []tcase{
		{
			// security_context.go:273 command, :55 expects "ContainerUser" (row B9)
			name: "security_context default user",
			argv: []string{"cmd", "/S", "/C", "echo %username%"},
			out:  "ContainerUser\r\n",
		},
		{
			// security_context.go:57-58: runAsUserName ContainerAdministrator
			name:  "security_context ContainerAdministrator",
			argv:  []string{"cmd", "/S", "/C", "echo %username%"},
			setup: func(f *fixture) { f.env.User = "ContainerAdministrator" },
			out:   "ContainerAdministrator\r\n",
		},
		{
			// B9: whoami prints the virtual account in the User Manager domain
			name:  "whoami ContainerAdministrator",
			argv:  []string{"whoami"},
			setup: func(f *fixture) { f.env.User = "ContainerAdministrator" },
			out:   "user manager\\containeradministrator\r\n",
		},
		{
			// volumes.go:102-106: writing to a read-only volume, stderr
			// exactly "Access is denied." (row B11)
			name:   "volumes read-only write",
			argv:   []string{"cmd", "/c", "echo windows-volume-test", ">", `C:\test-volume\test-file.txt`},
			out:    "-",
			errOut: "Access is denied.\r\n",
			code:   1,
			check: func(t *testing.T, f *fixture, r result) {
				if _, ok := f.fs.get(`C:\test-volume\test-file.txt`); ok {
					t.Error("the read-only volume was written")
				}
			},
		},
		{
			// volumes.go:138-141: the same write to a read-write volume works
			name: "volumes read-write write",
			argv: []string{"cmd", "/c", "echo windows-volume-test", ">", `C:\rw\test-file.txt`},
			out:  "-", errOut: "-",
			check: func(t *testing.T, f *fixture, r result) {
				got, _ := f.fs.get(`C:\rw\test-file.txt`)
				// cmd keeps the space before `>`; volumes.go:151 compares
				// the trimmed output of `type`.
				if got != "windows-volume-test \r\n" {
					t.Errorf("file content %q", got)
				}
			},
		},
		{
			// volumes.go:148-151: `cmd /c type <file>` of a read-only volume
			name:  "volumes read-only type",
			argv:  []string{"cmd", "/c", "type", `C:\test-volume\test-file.txt`},
			setup: func(f *fixture) { f.fs.add(`C:\test-volume\test-file.txt`, "windows-volume-test \r\n") },
			check: func(t *testing.T, f *fixture, r result) {
				if strings.TrimSpace(r.stdout) != "windows-volume-test" {
					t.Errorf("stdout %q", r.stdout)
				}
			},
		},
		{
			// hybrid_network.go:136 windowsCheck, H1: pod to pod
			name: "hybrid_network windowsCheck",
			argv: []string{"cmd", "/c", "curl.exe -4 10.244.1.6 --connect-timeout 10 --fail"},
			out:  "hello",
		},
		{
			// hybrid_network.go:136 against a Service name and NodePort
			// (service.go:87 `http://<nodeIP>:<nodePort>`)
			name: "service.go NodePort",
			argv: []string{"cmd", "/c", "curl.exe -4 http://172.18.0.3:30080 --connect-timeout 10 --fail"},
			setup: func(f *fixture) {
				f.net.http["172.18.0.3:30080"] = &HTTPResponse{Status: 200, Body: []byte("NOW: 2024")}
			},
			out: "NOW: 2024",
		},
		{
			// hybrid_network.go:136 when the target does not answer: curl
			// 28 after the --connect-timeout of 10 s (fake clock)
			name:   "hybrid_network windowsCheck timeout",
			argv:   []string{"cmd", "/c", "curl.exe -4 10.0.0.99 --connect-timeout 10 --fail"},
			errHas: []string{"curl: (28) Failed to connect to 10.0.0.99 port 80 after 10001 ms: Timeout was reached"},
			code:   28,
			check: func(t *testing.T, f *fixture, r result) {
				if f.clock.slept != 10*time.Second {
					t.Errorf("curl waited %v, want 10s", f.clock.slept)
				}
			},
		},
		{
			// dns.go:82-95: ipconfig /all lists the dnsConfig nameserver
			// 1.1.1.1 (row H3) and the single search suffix (row H2)
			name: "dns ipconfig /all",
			argv: []string{"ipconfig", "/all"},
			setup: func(f *fixture) {
				f.env.Interfaces.DNSServers = []netip.Addr{kubeDNS, netip.MustParseAddr("1.1.1.1")}
			},
			outHas: []string{
				"Windows IP Configuration",
				"   Host Name . . . . . . . . . . . . : win-pod-1\r\n",
				"   DNS Suffix Search List. . . . . . : default.svc.cluster.local\r\n",
				"Ethernet adapter vEthernet (",
				"   IPv4 Address. . . . . . . . . . . : 10.244.1.5(Preferred)\r\n",
				"   Subnet Mask . . . . . . . . . . . : 255.255.255.0\r\n",
				"   Default Gateway . . . . . . . . . : 10.244.1.1\r\n",
				"   DNS Servers . . . . . . . . . . . : 10.96.0.10\r\n                                       1.1.1.1\r\n",
			},
		},
		{
			// dns.go:107: a bogus name must fail to resolve: curl exit 6
			name:   "dns bogus name",
			argv:   []string{"curl.exe", "-k", "https://kubernetezzzzzzzz:443"},
			errHas: []string{"curl: (6) Could not resolve host: kubernetezzzzzzzz\r\n"},
			code:   6,
		},
		{
			// dns.go:122-135: the bare service name resolves (row H2)
			name: "dns kubernetes",
			argv: []string{"curl.exe", "-k", "https://kubernetes:443"},
			out:  `{"kind":"Status","code":403}`,
		},
		{
			// row H2: kubernetes.default is not resolvable from Windows
			name:   "H2 partial name",
			argv:   []string{"curl.exe", "-k", "https://kubernetes.default:443"},
			errHas: []string{"curl: (6) Could not resolve host: kubernetes.default"},
			code:   6,
		},
		{
			// gmsa_kubelet.go:117-130: nltest /PARENTDOMAIN starts with the
			// domain and says "The command completed successfully"
			name:  "gmsa nltest /PARENTDOMAIN",
			argv:  []string{"nltest", "/PARENTDOMAIN"},
			setup: func(f *fixture) { f.env.GMSADomain = "contoso.org" },
			check: func(t *testing.T, f *fixture, r result) {
				if !strings.HasPrefix(r.stdout, "contoso.org") || !strings.Contains(r.stdout, "The command completed successfully") {
					t.Errorf("stdout %q", r.stdout)
				}
			},
		},
		{
			// gmsa_full.go:145 and :224 isValidOutput
			name:   "gmsa nltest /QUERY",
			argv:   []string{"nltest", "/QUERY"},
			setup:  func(f *fixture) { f.env.GMSADomain = "k8sgmsa.lan" },
			outHas: []string{"The command completed successfully"},
			outNot: []string{"ERROR_NO_LOGON_SERVERS", "RPC_S_SERVER_UNAVAILABLE"},
		},
		{
			name: "nltest without GMSA",
			argv: []string{"nltest", "/PARENTDOMAIN"},
			out:  "Getting parent domain failed: Status = 1355 0x54b ERROR_NO_SUCH_DOMAIN\r\n",
			code: 1,
		},
		{
			// gmsa_kubelet.go:69-72: the container command
			name: "gmsa sleep 600",
			argv: []string{"powershell.exe", "-Command", "sleep -Seconds 600"},
			out:  "-", errOut: "-",
			check: func(t *testing.T, f *fixture, r result) {
				if f.clock.slept != 600*time.Second {
					t.Errorf("slept %v", f.clock.slept)
				}
			},
		},
		{
			// host_process.go:108 and :125 on the node it names
			name:  "host_process hostname matches",
			argv:  []string{"powershell.exe", "-Command", `& {if ('win-node-1' -ine "$(hostname)") { exit -1 }}`},
			setup: func(f *fixture) { f.env.Hostname = "WIN-NODE-1" },
			out:   "-", errOut: "-",
		},
		{
			// host_process.go:108 on another node: exit -1
			name:  "host_process hostname differs",
			argv:  []string{"powershell.exe", "-Command", `& {if ('win-node-2' -ine "$(hostname)") { exit -1 }}`},
			setup: func(f *fixture) { f.env.Hostname = "win-node-1" },
			code:  -1,
		},
		{
			// host_process.go:168 (init container) then :175 (container)
			name: "host_process Set-content then ls",
			argv: []string{"powershell", "-c", "Set-content", "-Path", "/testfile1234.txt", "-V", "test"},
			out:  "-", errOut: "-",
			check: func(t *testing.T, f *fixture, r result) {
				got, ok := f.fs.get(`C:\testfile1234.txt`)
				if !ok || got != "test\r\n" {
					t.Fatalf("file %q %v", got, ok)
				}
				r2 := f.run(t, []string{"powershell", "-c", "ls", "/testfile1234.txt"}, "")
				if r2.code != 0 || !strings.Contains(r2.stdout, "testfile1234.txt") || !strings.Contains(r2.stdout, "    Directory: C:\\") {
					t.Errorf("ls: %d %q %q", r2.code, r2.stdout, r2.stderr)
				}
			},
		},
		{
			// host_process.go:243, :246: `cmd.exe /c ver` by plain and
			// relative path
			name:   "host_process ver",
			argv:   []string{`System32\cmd.exe`, "/c", "ver"},
			setup:  func(f *fixture) { f.env.OSVersion = "10.0.20348.1607" },
			out:    "\r\nMicrosoft Windows [Version 10.0.20348.1607]\r\n",
			errOut: "-",
		},
		{
			// host_process.go:295: powershell running cmd.exe by path
			name:   "host_process powershell cmd path",
			argv:   []string{"powershell", "c:/Windows/System32/cmd.exe", "/c", "ver"},
			outHas: []string{"Microsoft Windows [Version 10.0.20348.2655]"},
		},
		{
			// host_process.go:306: hcsshim (containerd < 1.7) expands
			// $env:CONTAINER_SANDBOX_MOUNT_POINT in a HostProcess command
			// line before powershell sees it; the caller does that.
			name: "host_process uname",
			argv: []string{"powershell", `C:\C\abc\bin\uname.exe`, "-o"},
			out:  "MS/Windows\r\n",
		},
		{
			// unexpanded, PowerShell itself rejects the line
			name:   "unexpanded $env path is a parse error",
			argv:   []string{"powershell", `$env:CONTAINER_SANDBOX_MOUNT_POINT\bin\uname.exe`, "-o"},
			errHas: []string{"Unexpected token '\\bin\\uname.exe' in expression or statement."},
			code:   1,
		},
		{
			// host_process.go:360: cmd dir of a file
			name: "host_process dir file",
			argv: []string{"cmd.exe", "/c", "dir", `%CONTAINER_SANDBOX_MOUNT_POINT%\bin\uname.exe`},
			setup: func(f *fixture) {
				f.env.Vars["CONTAINER_SANDBOX_MOUNT_POINT"] = `C:\C\abc`
				f.fs.add(`C:\C\abc\bin\uname.exe`, "MZ")
			},
			outHas: []string{" Directory of C:\\C\\abc\\bin\r\n", "uname.exe\r\n", "               1 File(s)              2 bytes\r\n"},
		},
		{
			// host_process.go:369: Get-ChildItem of a file
			name: "host_process Get-ChildItem file",
			argv: []string{"powershell", "Get-ChildItem", "-Path", `$env:CONTAINER_SANDBOX_MOUNT_POINT\bin\uname.exe`},
			setup: func(f *fixture) {
				f.env.Vars["CONTAINER_SANDBOX_MOUNT_POINT"] = `C:\C\abc`
				f.fs.add(`C:\C\abc\bin\uname.exe`, "MZ")
			},
			outHas: []string{"    Directory: C:\\C\\abc\\bin", "Mode                LastWriteTime         Length Name", "-a----        4/23/2024  10:00 AM              2 uname.exe"},
		},
		{
			// host_process.go:562: `cmd.exe /c exit /b 0`
			name: "host_process exit /b 0",
			argv: []string{"cmd.exe", "/c", "exit", "/b", "0"},
			out:  "-", errOut: "-",
		},
		{
			// host_process.go:555: foobar.exe does not exist: the start fails
			name:   "host_process foobar.exe",
			argv:   []string{"foobar.exe"},
			errHas: []string{"The system cannot find the file specified."},
			code:   ExitCannotExec,
			check: func(t *testing.T, f *fixture, r result) {
				if Found(Windows, []string{"foobar.exe"}) || !Found(Windows, []string{`C:\Windows\System32\cmd.exe`}) {
					t.Error("Found")
				}
			},
		},
		{
			// host_process.go:765 and :802: whoami of a local user is not
			// "nt authority"
			name:   "host_process whoami local user",
			argv:   []string{"cmd", "/C", "whoami"},
			setup:  func(f *fixture) { f.env.Hostname = "win-node-1"; f.env.User = "hpc-user-1" },
			out:    "win-node-1\\hpc-user-1\r\n",
			outNot: []string{"nt authority"},
		},
		{
			// host_process.go:825 runs validation_script (host_process.go:45)
			// from a configmap volume; the pod must succeed
			name:  "host_process volume validation script",
			argv:  []string{"powershell.exe", "./etc/configmap/validationscript.ps1"},
			setup: func(f *fixture) { hostProcessVolumes(f, "win-node-1") },
			out:   "SUCCESS\r\n", errOut: "-",
		},
		{
			// the same script on the wrong node throws: exit 1 and the
			// error record points into the script
			name:   "host_process validation script wrong node",
			argv:   []string{"powershell.exe", "./etc/configmap/validationscript.ps1"},
			setup:  func(f *fixture) { hostProcessVolumes(f, "win-node-2") },
			errHas: []string{"NODE_NAME_TEST env var (win-node-2) does not equal hostname\r\nAt C:\\C\\3f2b9c1e\\etc\\configmap\\validationscript.ps1:33 char:3\r\n", "    + FullyQualifiedErrorId : NODE_NAME_TEST env var (win-node-2) does not equal hostname\r\n"},
			code:   1,
		},
		{
			// host_process.go:648: Write-Host then a long sleep
			name: "host_process Write-Host and sleep",
			argv: []string{"powershell.exe", "-Command", "Write-Host 'Hello'; sleep -Seconds 600"},
			out:  "Hello\r\n",
		},
	})
}

// TestUpstreamLinuxE2E: the Linux side of hybrid_network.go and the
// test/e2e/network idioms.
func TestUpstreamLinuxE2E(t *testing.T) {
	runCases(t, []tcase{
		{
			// hybrid_network.go:130-131 linuxCheck: `nc -vz <ip> <port> -w 10`
			name:   "linuxCheck",
			os:     Linux,
			argv:   []string{"/bin/sh", "-c", "nc -vz 10.244.1.5 80 -w 10"},
			out:    "-",
			errOut: "Connection to 10.244.1.5 80 port [tcp/http] succeeded!\n",
		},
		{
			name:   "linuxCheck refused",
			os:     Linux,
			argv:   []string{"/bin/sh", "-c", "nc -vz 10.244.1.5 81 -w 10"},
			errOut: "nc: connect to 10.244.1.5 port 81 (tcp) failed: Connection refused\n",
			code:   1,
		},
		{
			name:   "linuxCheck timeout waits -w",
			os:     Linux,
			argv:   []string{"/bin/sh", "-c", "nc -vz 10.0.0.99 80 -w 10"},
			errOut: "nc: connect to 10.0.0.99 port 80 (tcp) timed out: Operation now in progress\n",
			code:   1,
			check: func(t *testing.T, f *fixture, r result) {
				if f.clock.slept != 10*time.Second {
					t.Errorf("slept %v", f.clock.slept)
				}
			},
		},
		{
			// test/e2e/network: `wget -q -O - URL` / `wget -T 5 -qO- URL`
			name: "wget -qO-",
			os:   Linux,
			argv: []string{"sh", "-c", "wget -T 5 -qO- http://web:80/"},
			out:  "web-1",
		},
		{
			name:   "wget refused",
			os:     Linux,
			argv:   []string{"sh", "-c", "wget -q -O - http://10.244.1.5:81/"},
			errOut: "wget: can't connect to remote host (10.244.1.5): Connection refused\n",
			code:   1,
		},
	})
}

// TestWinWebserverFixture runs the docs' win-webserver command (row S5,
// fixtures/docs/win-webserver.yaml): it prints "Listening at http://*:80/"
// and then serves until the container is stopped.
func TestWinWebserverFixture(t *testing.T) {
	argv := winWebserverCommand(t)
	if got := Listens(argv); !slices.Equal(got, []int{80}) {
		t.Errorf("Listens = %v, want [80]", got)
	}
	f := newFixture(Windows)
	r := f.runFor(t, argv, "", 100*time.Millisecond)
	if r.stdout != "Listening at http://*:80/\r\n" || r.stderr != "" {
		t.Errorf("stdout %q stderr %q", r.stdout, r.stderr)
	}
	if r.code != ExitKilledWindows {
		t.Errorf("code %d", r.code)
	}
}

// winWebserverCommand reads the container command of the fixture, with
// the kubelet's $$ → $ expansion applied.
func winWebserverCommand(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile("../../fixtures/docs/win-webserver.yaml")
	if err != nil {
		t.Skipf("fixture: %v", err)
	}
	var argv []string
	in := false
	for _, line := range strings.Split(string(data), "\n") {
		trim := strings.TrimSpace(line)
		if trim == "command:" {
			in = true
			continue
		}
		if in && strings.HasPrefix(trim, "- ") {
			v := strings.TrimPrefix(trim, "- ")
			if strings.HasPrefix(v, `"`) {
				v = strings.TrimSuffix(strings.TrimPrefix(v, `"`), `"`)
			}
			argv = append(argv, strings.ReplaceAll(v, "$$", "$"))
			continue
		}
		if in {
			break
		}
	}
	if len(argv) != 3 {
		t.Fatalf("command %q", argv)
	}
	return argv
}

func TestListens(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		want []int
	}{
		{[]string{"agnhost", "serve-hostname"}, []int{9376}},
		{[]string{"/agnhost", "serve-hostname", "--port", "8080"}, []int{8080}},
		{[]string{"agnhost", "netexec", "--http-port=8081"}, []int{8081}},
		{[]string{"test-webserver"}, []int{80}},
		{[]string{"C:\\agnhost\\agnhost.exe", "test-webserver", "--port=8000"}, []int{8000}},
		{[]string{"sh", "-c", "nc -lk -p 5000 -e cat"}, []int{5000}},
		{[]string{"cmd", "/c", "agnhost netexec"}, []int{8080}},
		{[]string{"powershell", "-c", "$l = New-Object System.Net.HttpListener; $l.Prefixes.Add('http://+:8080/'); $l.Start()"}, []int{8080}},
		{[]string{"ping", "-t", "localhost"}, nil},
		{nil, nil},
	} {
		if got := Listens(tc.argv); !slices.Equal(got, tc.want) {
			t.Errorf("Listens(%q) = %v, want %v", tc.argv, got, tc.want)
		}
	}
	if l := Listeners([]string{"agnhost", "netexec"}); !slices.Contains(l, Listener{Proto: "udp", Port: 8081}) {
		t.Errorf("netexec UDP: %v", l)
	}
}

// TestLongRunning: entrypoints that never end return only when ctx is
// done, with the killed-process code.
func TestLongRunning(t *testing.T) {
	for _, tc := range []struct {
		name string
		os   OS
		argv []string
		out  string
		code int
	}{
		{"ps while true", Windows, []string{"powershell", "-Command", "while ($true) { Write-Output tick; Start-Sleep -Seconds 3600 }"}, "tick\r\n", ExitKilledWindows},
		{"ping -t", Windows, []string{"ping", "-t", "10.244.1.6"}, "Reply from 10.244.1.6: bytes=32 time<1ms TTL=128\r\n", ExitKilledWindows},
		{"timeout -1", Windows, []string{"cmd", "/c", "timeout /t -1"}, "", ExitKilledWindows},
		{"agnhost serve-hostname", Linux, []string{"agnhost", "serve-hostname"}, "", ExitKilledLinux},
		{"pause", Windows, []string{"pause.exe"}, "", ExitKilledWindows},
		{"sleep inf", Linux, []string{"sleep", "inf"}, "", ExitKilledLinux},
		{"sh while", Linux, []string{"sh", "-c", "while true; do echo tick; sleep 3600; done"}, "tick\n", ExitKilledLinux},
		{"sh trap", Linux, []string{"sh", "-c", "trap 'echo bye; exit 0' TERM; while true; do sleep 1; done"}, "bye\n", 0},
		{"sh trap wait", Linux, []string{"sh", "-c", "trap 'exit 3' TERM; sleep infinity & wait"}, "", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(tc.os)
			r := f.runFor(t, tc.argv, "", 150*time.Millisecond)
			if r.code != tc.code {
				t.Errorf("code %d, want %d (stderr %q)", r.code, tc.code, r.stderr)
			}
			if tc.out != "" && !strings.Contains(r.stdout, tc.out) {
				t.Errorf("stdout %q lacks %q", r.stdout, tc.out)
			}
		})
	}
}

// TestContextAlreadyDone: a stopped container's command returns at once.
func TestContextAlreadyDone(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	f := newFixture(Windows)
	if code := Run(ctx, f.env, []string{"powershell", "-c", "while ($true) {}"}, nil, nil, nil); code != ExitKilledWindows {
		t.Errorf("code %d", code)
	}
	if code := Run(ctx, f.env, []string{"cmd", "/c", "ping -t 10.244.1.6"}, nil, nil, nil); code != ExitKilledWindows {
		t.Errorf("code %d", code)
	}
}

// TestHttpListenerFallback: a listener script the parser cannot read still
// listens.
func TestHttpListenerFallback(t *testing.T) {
	f := newFixture(Windows)
	argv := []string{"powershell", "-c", "$l = New-Object System.Net.HttpListener; $l.Prefixes.Add('http://*:8080/'); $l.Start(); $x = [Foo]::Bar(("}
	r := f.runFor(t, argv, "", 50*time.Millisecond)
	if r.stdout != "Listening at http://*:8080/\r\n" || r.code != ExitKilledWindows {
		t.Errorf("%d %q %q", r.code, r.stdout, r.stderr)
	}
}
