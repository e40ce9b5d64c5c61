package shell

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"wink.dev/wink/simnode/shell/process"
)

type fakePower struct {
	reboot  bool
	delay   time.Duration
	pending bool
}

func (f *fakePower) Schedule(reboot bool, delay time.Duration) error {
	if f.pending {
		return errors.New("pending")
	}
	f.reboot, f.delay, f.pending = reboot, delay, true
	return nil
}

func (f *fakePower) Abort() bool {
	was := f.pending
	f.pending = false
	return was
}

// TestWindowsAdmin covers net localgroup (host_process.go "should run as
// localgroup accounts"), shutdown.exe and Win32_OperatingSystem
// (node_shutdown.go's PrepareForShutdown pod), rows B10, B15, N3.
func TestWindowsAdmin(t *testing.T) {
	nodeAccounts := &MemAccounts{}
	power := &fakePower{}
	hostProcess := func(f *fixture) {
		f.env.Accounts, f.env.Power = nodeAccounts, power
		f.env.OSVersion = "10.0.17763.6054"
		f.env.BootTime = time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	}
	runCases(t, []tcase{
		{name: "localgroup add", argv: []string{"cmd", "/C", "net", "localgroup", "hpc-group-1", "/add"}, setup: hostProcess, out: "The command completed successfully.\r\n\r\n",
			check: func(t *testing.T, _ *fixture, _ result) {
				if !process.HasGroup(nodeAccounts, "HPC-GROUP-1") {
					t.Errorf("the node's accounts lack the group: %v", nodeAccounts.Groups())
				}
			}},
		{name: "localgroup add twice", argv: []string{"net", "localgroup", "hpc-group-1", "/add"}, setup: hostProcess, code: 2,
			errOut: "System error 1379 has occurred.\r\n\r\nThe specified local group already exists.\r\n\r\n"},
		{name: "localgroup list", argv: []string{"net", "localgroup"}, setup: hostProcess, outHas: []string{"Aliases for \\\\WIN-POD-1\r\n", "*Administrators\r\n", "*hpc-group-1\r\n", "The command completed successfully."}},
		{name: "localgroup delete missing", argv: []string{"net", "localgroup", "nope", "/delete"}, code: 2, errHas: []string{"System error 1376 has occurred."}},
		{name: "container's own groups", argv: []string{"net", "localgroup", "mine", "/add"}, out: "The command completed successfully.\r\n\r\n"},
		{name: "shutdown needs the host", argv: []string{"shutdown.exe", "-r", "-t", "60"}, code: 5, errOut: "Access is denied.(5)\r\n"},
		{name: "abort nothing pending", argv: []string{"shutdown", "/a"}, setup: hostProcess, code: 1116, errHas: []string{"no shutdown was in progress"}},
		{name: "PrepareForShutdown pod (node_shutdown.go)", setup: hostProcess, argv: []string{"powershell.exe", "-Command",
			"$os = Get-WmiObject -Class win32_operatingsystem;",
			"[Environment]::SetEnvironmentVariable(\"TMP_BOOT_DATE\", $os.LastBootUpTime, \"Machine\");",
			"[Environment]::SetEnvironmentVariable(\"TMP_INSTALL_DATE\", $os.InstallDate, \"Machine\");",
			"shutdown.exe -r -t 60"}, out: "-", errOut: "-",
			check: func(t *testing.T, _ *fixture, _ result) {
				if !power.pending || !power.reboot || power.delay != 60*time.Second {
					t.Errorf("power %+v, want a reboot in 60s", *power)
				}
			}},
		{name: "second shutdown", argv: []string{"shutdown", "/s", "/t", "0"}, setup: hostProcess, code: 1190, errHas: []string{"already been scheduled"}},
		{name: "win32_operatingsystem", setup: hostProcess, argv: ps(`$os = Get-WmiObject win32_operatingsystem; $os.Caption; $os.BuildNumber; $os.LastBootUpTime; [Environment]::SetEnvironmentVariable('X', 'y'); $env:X`),
			out: "Microsoft Windows Server 2019 Datacenter\r\n17763\r\n20261124090000.000000+000\r\ny\r\n"},
	})
}

type fakeMemory struct{ held int64 }

func (m *fakeMemory) Use(d int64) { m.held += d }

// TestTestlimit runs the eviction spec's commands (eviction.go: pod1
// leaks 5 x 100 MB, pod2 N x 300 MB): the memory goes on the container's
// meter and stays there until the program is stopped (B5, B6).
func TestTestlimit(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		want int64
	}{
		{[]string{"/bin/testlimit.exe", "-accepteula", "-d", "100Mb", "-e", "5", "20000s", "-c", "5"}, 500 << 20},
		{[]string{"/bin/testlimit.exe", "-accepteula", "-d", "300Mb", "-e", "1", "20000s", "-c", "57"}, 57 * 300 << 20},
	} {
		f := newFixture(Windows)
		m := &fakeMemory{}
		f.env.Memory = m
		peak := int64(0)
		f.env.Sleep = func(ctx context.Context, d time.Duration) error {
			peak = max(peak, m.held)
			return f.clock.Sleep(ctx, d)
		}
		r := f.runFor(t, tc.argv, "", time.Second)
		if r.code != ExitKilledWindows || !strings.Contains(r.stdout, "Leaking private bytes with touch") {
			t.Errorf("%v: exit %d\n%s%s", tc.argv, r.code, r.stdout, r.stderr)
		}
		if peak != tc.want || m.held != 0 {
			t.Errorf("%v: held %d MB at peak and %d after, want %d and 0", tc.argv, peak>>20, m.held, tc.want>>20)
		}
	}
}

// TestTaskkill: taskkill /im of a program no process of the container
// runs is "not found", exit 128
// (https://learn.microsoft.com/windows-server/administration/windows-commands/taskkill;
// microsoft/SDN's Kubernetes/windows/stop.ps1); a HostProcess container's
// are its host's, which wink does not know.
func TestTaskkill(t *testing.T) {
	runCases(t, []tcase{
		{name: "not running in the container", argv: []string{"cmd", "/c", "taskkill /im kubelet.exe /f"},
			errOut: "ERROR: The process \"kubelet.exe\" not found.\r\n", code: 128},
		{name: "a HostProcess container's host", argv: []string{"cmd", "/c", "taskkill /im kubelet.exe /f"},
			setup: func(f *fixture) { f.env.Image = ImageOf(Windows, "example.com/hpc:1", true) }, out: "-", errOut: "-"},
	})
}
