package process

import (
	"context"
	"strings"
	"testing"
)

// Issue 18: inbox.yaml's Windows bases say which simulated programs a base
// lacks (Nano Server: no PowerShell) and which Windows PowerShell it has,
// whose version follows the build the container runs on (row N3).
func TestWindowsBases(t *testing.T) {
	nano := ImageOf(Windows, "mcr.microsoft.com/windows/nanoserver:ltsc2022", false)
	pwsh := ImageOf(Windows, "mcr.microsoft.com/powershell:lts-nanoserver-ltsc2022", false)
	core := ImageOf(Windows, "mcr.microsoft.com/windows/servercore:ltsc2019", false)
	for _, tc := range []struct {
		img    Image
		argv0  string
		absent bool
	}{
		{nano, "powershell", true}, {nano, `C:\Windows\System32\WindowsPowerShell\v1.0\PowerShell.exe`, true}, {nano, "pwsh", true}, {nano, "cmd", false},
		{pwsh, "powershell", true}, {pwsh, "pwsh.exe", false},
		{core, "powershell", false},
	} {
		if got := tc.img.Absent(Windows, tc.argv0); got != tc.absent {
			t.Errorf("%s: Absent(%q) = %v, want %v", tc.img.Base, tc.argv0, got, tc.absent)
		}
	}
	for _, tc := range []struct {
		img       Image
		osVersion string
		want      string
	}{
		{core, "10.0.17763.6532", "5.1.17763.6532"},
		{core, "10.0.20348.2655", "5.1.20348.2655"},
		{Image{Open: true, InBox: true}, "10.0.26100.1742", "5.1.26100.1742"},
		{nano, "10.0.20348.2655", ""},
		{pwsh, "10.0.20348.2655", ""},
	} {
		p := NewProc(context.Background(), &Env{OS: Windows, Image: tc.img, OSVersion: tc.osVersion}, nil, nil, nil, nil)
		got, ok := p.WindowsPowerShell()
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("%s on %s: WindowsPowerShell() = %q, %v; want %q", tc.img.Base, tc.osVersion, got, ok, tc.want)
		}
		p.End()
	}
}

func TestBaseValidation(t *testing.T) {
	_, err := LoadInBox([]byte(`bases:
- {name: a, os: windows, absent: [PowerShell.exe, cmd, cmd], powerShell: "7"}
- {name: b, os: linux, powerShell: "5.1"}
- {name: c, os: windows, absent: [powershell], powerShell: "5.1"}
`))
	for _, want := range []string{
		`bases[0] (a).absent[0]: Invalid value: "PowerShell.exe"`, `bases[0] (a).absent[2]: Duplicate value: "cmd"`,
		`bases[0] (a).powerShell: Unsupported value: "7"`, `bases[1] (b).powerShell: Forbidden`,
		`bases[2] (c).powerShell: Invalid value: "5.1": the base has powershell among its absent programs`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not say %q", err, want)
		}
	}
}
