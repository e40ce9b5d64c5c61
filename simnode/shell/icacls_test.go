package shell

import "testing"

// TestIcacls: icacls as Microsoft documents it
// (https://learn.microsoft.com/windows-server/administration/windows-commands/icacls),
// run as the real scripts of the mined corpus run it; changing a DACL
// needs WRITE_DAC, which ContainerUser lacks on the image's system
// directories (row B9) and nobody has on a read-only volume (row B11).
func TestIcacls(t *testing.T) {
	admin := func(f *fixture) { f.env.User = "ContainerAdministrator" }
	runCases(t, []tcase{
		// kubernetes cluster/gce/windows/testonly/install-ssh.psm1 (and
		// AgentBaker's configfunc.ps1): the administrators_authorized_keys
		// file keeps SYSTEM and Administrators only.
		{name: "install-ssh: inheritance removed, two grants", setup: func(f *fixture) {
			admin(f)
			f.fs.mkdir(`C:\ProgramData\ssh`) // made by OpenSSH's install before
		},
			argv: ps("$f = ${env:ProgramData} + \"\\ssh\\administrators_authorized_keys\"\n" +
				"New-Item -ItemType file -Force $f | Out-Null\n" +
				"icacls $f /inheritance:r | Out-Null\n" +
				"icacls $f /grant SYSTEM:`(F`) | Out-Null\n" +
				"icacls $f /grant BUILTIN\\Administrators:`(F`) | Out-Null\n" +
				"icacls $f"),
			out: "C:\\ProgramData\\ssh\\administrators_authorized_keys NT AUTHORITY\\SYSTEM:(F)\r\n" +
				"                                                  BUILTIN\\Administrators:(F)\r\n\r\n" +
				"Successfully processed 1 files; Failed processing 0 files\r\n"},
		{name: "AgentBaker: /remove of a SID the DACL lacks, then the grants print their files", setup: func(f *fixture) {
			admin(f)
			f.fs.mkdir(`C:\ProgramData\ssh`)
		},
			argv: ps("$adminpath = 'C:\\ProgramData\\ssh'; $adminfile = 'administrators_authorized_keys'\n" +
				"New-Item -ItemType file -Force $adminpath\\$adminfile | Out-Null\n" +
				"icacls $adminpath\\$adminfile /remove \"NT AUTHORITY\\Authenticated Users\"\n" +
				"icacls $adminpath\\$adminfile /inheritance:r\n" +
				"icacls $adminpath\\$adminfile /grant SYSTEM:`(F`)"),
			out: "processed file: C:\\ProgramData\\ssh\\administrators_authorized_keys\r\nSuccessfully processed 1 files; Failed processing 0 files\r\n" +
				"processed file: C:\\ProgramData\\ssh\\administrators_authorized_keys\r\nSuccessfully processed 1 files; Failed processing 0 files\r\n" +
				"processed file: C:\\ProgramData\\ssh\\administrators_authorized_keys\r\nSuccessfully processed 1 files; Failed processing 0 files\r\n"},
		// antrea hack/windows/Install-OVS.ps1: /T processes the directory
		// and everything under it.
		{name: "antrea: /grant with (OI)(CI) and /T", setup: func(f *fixture) {
			admin(f)
			f.fs.add(`C:\openvswitch\usr\bin\ovs-vsctl.exe`, "MZ")
		},
			argv: ps(`$OVSInstallDir = 'C:\openvswitch'; icacls ${OVSInstallDir} /grant "NT AUTHORITY\SYSTEM:(OI)(CI)F" /T`),
			out: "processed file: C:\\openvswitch\r\nprocessed file: C:\\openvswitch\\usr\r\nprocessed file: C:\\openvswitch\\usr\\bin\r\n" +
				"processed file: C:\\openvswitch\\usr\\bin\\ovs-vsctl.exe\r\nSuccessfully processed 4 files; Failed processing 0 files\r\n"},
		// Virtualization-Documentation's blog sample buildapp.ps1: /q
		// leaves the summary only.
		{name: "buildapp: /grant Everyone:F /t /q", setup: func(f *fixture) {
			admin(f)
			f.fs.add(`C:\inetpub\wwwroot\blogengine\web.config`, "<configuration/>")
		},
			argv: []string{"cmd", "/c", `icacls C:\inetpub\wwwroot\blogengine /grant Everyone:F /t /q`},
			out:  "Successfully processed 2 files; Failed processing 0 files\r\n"},
		// (OI)(CI) reaches the files below as an inherited ACE, (I).
		// (the corpus' servercore init container, testdata/corpus/cmd.yaml)
		{name: "a file inherits its directory's (OI) ACE", setup: func(f *fixture) {
			f.fs.add(`C:\keys\k.txt`, "k")
			f.fs.add(`C:\keys.cmd`, `@icacls C:\keys /inheritance:r /q && icacls C:\keys /grant "Users:(OI)(CI)M" /q && icacls C:\keys\k.txt && icacls C:\keys`+"\r\n")
		},
			argv: []string{"cmd", "/c", `C:\keys.cmd`},
			out: "Successfully processed 1 files; Failed processing 0 files\r\nSuccessfully processed 1 files; Failed processing 0 files\r\n" +
				"C:\\keys\\k.txt BUILTIN\\Users:(I)(M)\r\n\r\nSuccessfully processed 1 files; Failed processing 0 files\r\n" +
				"C:\\keys BUILTIN\\Users:(OI)(CI)(M)\r\n\r\nSuccessfully processed 1 files; Failed processing 0 files\r\n"},
		// the page's second example: a numerical SID with *, advanced rights
		{name: "grant *S-1-1-0:(d,wdac), then /remove", setup: func(f *fixture) { f.fs.add(`C:\rw\test2`, "") },
			argv: []string{"cmd", "/c", `icacls C:\rw\test2 /inheritance:r /grant *S-1-1-0:(d,wdac) SYSTEM:F /q && icacls C:\rw\test2 && icacls C:\rw\test2 /remove Everyone /q && icacls C:\rw\test2`},
			out: "Successfully processed 1 files; Failed processing 0 files\r\n" +
				"C:\\rw\\test2 Everyone:(D,WDAC)\r\n            NT AUTHORITY\\SYSTEM:(F)\r\n\r\nSuccessfully processed 1 files; Failed processing 0 files\r\n" +
				"Successfully processed 1 files; Failed processing 0 files\r\n" +
				"C:\\rw\\test2 NT AUTHORITY\\SYSTEM:(F)\r\n\r\nSuccessfully processed 1 files; Failed processing 0 files\r\n"},
		{name: "ContainerUser may not change a system directory's DACL",
			argv:   []string{"cmd", "/c", `icacls C:\Windows\System32 /grant Users:F`},
			out:    "Successfully processed 0 files; Failed processing 1 files\r\n",
			errOut: "C:\\Windows\\System32: Access is denied.\r\n", code: 5},
		{name: "nor anybody on a read-only volume", setup: admin,
			argv:   []string{"cmd", "/c", `icacls C:\test-volume\readme.txt /grant Users:F`},
			out:    "Successfully processed 0 files; Failed processing 1 files\r\n",
			errOut: "C:\\test-volume\\readme.txt: Access is denied.\r\n", code: 5},
		{name: "a missing file",
			argv:   []string{"cmd", "/c", `icacls C:\nope.txt`},
			out:    "Successfully processed 0 files; Failed processing 1 files\r\n",
			errOut: "C:\\nope.txt: The system cannot find the file specified.\r\n", code: 2},
		{name: "an unknown account",
			argv:   []string{"cmd", "/c", `icacls C:\rw /grant nosuchuser:F`},
			out:    "Successfully processed 0 files; Failed processing 1 files\r\n",
			errOut: "nosuchuser: No mapping between account names and security IDs was done.\r\n", code: 1332},
	})
}
