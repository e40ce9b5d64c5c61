package shell

import (
	"strings"
)

// command is one program of a simulated image: a row of a command table.
type command struct {
	// name is how the program is called (lower case, no .exe).
	name    string
	aliases []string
	// help is the one-line description `help` and `/?` print.
	help string
	// rows are the spec rows the behaviour implements.
	rows string
	// run gets argv with argv[0] as called.
	run func(p *proc, argv []string) int
}

// windowsPrograms are the executables on a Windows container's PATH
// (System32 plus the busybox-style tools the e2e test images ship in C:\bin).
var windowsPrograms = []*command{
	{name: "cmd", help: "Starts a new instance of the Windows command interpreter.", rows: "E", run: func(p *proc, argv []string) int { return p.runCmdExe(argv) }},
	{name: "powershell", help: "Windows PowerShell 5.1.", rows: "E", run: func(p *proc, argv []string) int { return p.runPowerShell(argv, false) }},
	{name: "pwsh", help: "PowerShell 7.", rows: "E", run: func(p *proc, argv []string) int { return p.runPowerShell(argv, true) }},
	{name: "whoami", help: "Displays user, group and privileges information.", rows: "B9", run: progWhoami},
	{name: "hostname", help: "Prints the name of the current host.", rows: "B10", run: progHostname},
	{name: "ipconfig", help: "Displays all current TCP/IP network configuration values.", rows: "H2, H3", run: progIpconfig},
	{name: "ping", help: "Sends ICMP echo requests.", rows: "H4", run: progPingWindows},
	{name: "curl", help: "curl.exe: transfers a URL.", rows: "H1, H2, H5, H6", run: progCurl},
	{name: "nslookup", help: "Queries the DNS.", rows: "H2", run: progNslookupWindows},
	{name: "nltest", help: "Domain trust and secure channel queries.", rows: "E (gmsa_kubelet.go, gmsa_full.go)", run: progNltest},
	{name: "timeout", help: "Waits for the given number of seconds.", rows: "E", run: progTimeout},
	{name: "agnhost", aliases: []string{"agnhost-2"}, help: "The Kubernetes e2e test image's multi-call binary (and its copy /agnhost-2, Dockerfile_windows).", rows: "H1", run: progAgnhost},
	{name: "pause", help: "The pause container: waits forever.", run: progPause},
	{name: "test-webserver", help: "agnhost test-webserver (the image's entrypoint argument).", run: progAgnhostSub},
	{name: "serve-hostname", help: "agnhost serve-hostname (the image's entrypoint argument).", run: progAgnhostSub},
	{name: "netexec", help: "agnhost netexec (the image's entrypoint argument).", run: progAgnhostSub},
	// busybox-style tools of the e2e images (C:\bin): busybox-w32 applets
	// (test/images/busybox/Dockerfile_windows BUSYBOX_EXES, in the agnhost
	// image too); upstream runs `sh -c env`, `/bin/sh -c "...; sleep N"` in
	// Windows pods (common/node/configmap.go, pods.go readiness gates).
	{name: "sh", aliases: []string{"ash", "bash"}, help: "busybox-w32 ash, the POSIX shell of the e2e images.", rows: "E", run: func(p *proc, argv []string) int { return p.runSh(argv) }},
	{name: "env", aliases: []string{"printenv"}, help: "Prints the environment.", rows: "E", run: progEnv},
	{name: "printf", help: "Formats and prints.", rows: "E", run: progPrintf},
	{name: "expr", help: "Evaluates an expression.", rows: "E", run: progExpr},
	{name: "tail", help: "Prints the last lines of files; -f follows them.", rows: "E", run: progTail},
	{name: "touch", help: "Creates files.", rows: "E", run: progTouch},
	{name: "true", help: "Exits 0.", rows: "E", run: func(*proc, []string) int { return 0 }},
	{name: "false", help: "Exits 1.", rows: "E", run: func(*proc, []string) int { return 1 }},
	{name: "sleep", help: "Delays for a specified amount of time.", run: progSleep},
	{name: "cat", help: "Concatenates files.", run: progCat},
	{name: "echo", help: "Prints its arguments.", run: progEcho},
	{name: "ls", help: "Lists directory contents.", run: progLs},
	{name: "nc", help: "netcat.", rows: "H1", run: progNc},
	{name: "wget", help: "Retrieves files over HTTP.", rows: "H1", run: progWget},
	{name: "uname", help: "Prints system information.", run: progUname},
}

// linuxPrograms are the executables of a Linux container (busybox style,
// like the agnhost and busybox images).
var linuxPrograms = []*command{
	{name: "sh", aliases: []string{"bash", "ash", "dash"}, help: "The POSIX shell.", run: func(p *proc, argv []string) int { return p.runSh(argv) }},
	{name: "echo", help: "Prints its arguments.", run: progEcho},
	{name: "printf", help: "Formats and prints.", run: progPrintf},
	{name: "cat", help: "Concatenates files.", run: progCat},
	{name: "ls", help: "Lists directory contents.", run: progLs},
	{name: "env", aliases: []string{"printenv"}, help: "Prints the environment.", run: progEnv},
	{name: "hostname", help: "Prints the host name.", run: progHostname},
	{name: "whoami", help: "Prints the user name.", run: progWhoamiLinux},
	{name: "id", help: "Prints user and group IDs.", run: progID},
	{name: "sleep", help: "Delays; `sleep inf` forever.", run: progSleep},
	{name: "true", help: "Exits 0.", run: func(*proc, []string) int { return 0 }},
	{name: "false", help: "Exits 1.", run: func(*proc, []string) int { return 1 }},
	{name: "pwd", help: "Prints the working directory.", run: func(p *proc, _ []string) int { p.println(p.dir); return 0 }},
	{name: "uname", help: "Prints system information.", run: progUname},
	{name: "date", help: "Prints the date.", run: progDate},
	{name: "expr", help: "Evaluates an expression.", rows: "E", run: progExpr},
	{name: "tail", help: "Prints the last lines of files; -f follows them.", rows: "E", run: progTail},
	{name: "touch", help: "Creates files.", run: progTouch},
	{name: "ping", help: "Sends ICMP echo requests.", rows: "H4", run: progPingLinux},
	{name: "nslookup", help: "Queries the DNS.", rows: "H2", run: progNslookupLinux},
	{name: "wget", help: "Retrieves files over HTTP.", rows: "H1", run: progWget},
	{name: "curl", help: "Transfers a URL.", rows: "H1", run: progCurl},
	{name: "nc", aliases: []string{"netcat"}, help: "netcat.", rows: "H1", run: progNc},
	{name: "agnhost", aliases: []string{"agnhost-2"}, help: "The Kubernetes e2e test image's multi-call binary (and its copy /agnhost-2).", run: progAgnhost},
	{name: "pause", help: "The pause container: waits forever.", run: progPause},
	{name: "test-webserver", help: "agnhost test-webserver.", run: progAgnhostSub},
	{name: "serve-hostname", help: "agnhost serve-hostname.", run: progAgnhostSub},
	{name: "netexec", help: "agnhost netexec.", run: progAgnhostSub},
}

var windowsIndex, linuxIndex map[string]*command

func init() {
	windowsIndex = index(windowsPrograms)
	linuxIndex = index(linuxPrograms)
}

func index(cmds []*command) map[string]*command {
	m := map[string]*command{}
	for _, c := range cmds {
		m[c.name] = c
		for _, a := range c.aliases {
			m[a] = c
		}
	}
	return m
}

// programName reduces a path to a program name: `C:\Windows\System32\cmd.exe`
// and `System32/CMD.EXE` are "cmd"; `/usr/bin/sh` is "sh".
func programName(s string, win bool) string {
	if i := strings.LastIndexAny(s, `/\`); i >= 0 && (win || !strings.Contains(s[i:], `\`)) {
		s = s[i+1:]
	}
	if win {
		s = strings.ToLower(s)
		for _, ext := range []string{".exe", ".com"} {
			s = strings.TrimSuffix(s, ext)
		}
	}
	return s
}

func lookupWindows(argv0 string) (*command, bool) {
	c, ok := windowsIndex[programName(argv0, true)]
	return c, ok
}

func lookupLinux(argv0 string) (*command, bool) {
	c, ok := linuxIndex[programName(argv0, false)]
	return c, ok
}

// isScriptPath is a PowerShell script run by path.
func isScriptPath(s string) bool { return strings.HasSuffix(strings.ToLower(s), ".ps1") }
