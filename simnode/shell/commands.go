package shell

import (
	"wink.dev/wink/simnode/shell/cmd"
	"wink.dev/wink/simnode/shell/posix"
	"wink.dev/wink/simnode/shell/powershell"
	"wink.dev/wink/simnode/shell/process"
	"wink.dev/wink/simnode/shell/programs"
	"wink.dev/wink/simnode/shell/programs/awk"
	"wink.dev/wink/simnode/shell/programs/network"
	"wink.dev/wink/simnode/shell/programs/windows"
)

// tables are the programs of the tables below.
type tables struct{}

// Lookup finds argv0 in the table of os.
func (tables) Lookup(os OS, argv0 string) (*process.Command, bool) {
	if os == Windows {
		return lookupWindows(argv0)
	}
	return lookupLinux(argv0)
}

// windowsPrograms are the executables on a Windows container's PATH
// (System32 plus the busybox-style tools the e2e test images ship in C:\bin).
var windowsPrograms = []*process.Command{
	{Name: "cmd", Help: "Starts a new instance of the Windows command interpreter.", Rows: "E", Run: func(p *process.Proc, argv []string) int { return cmd.Run(p, argv) }},
	{Name: "powershell", Help: "Windows PowerShell 5.1.", Rows: "E", Run: func(p *process.Proc, argv []string) int { return powershell.Run(p, argv, false) }},
	{Name: "pwsh", Help: "PowerShell 7.", Rows: "E", Run: func(p *process.Proc, argv []string) int { return powershell.Run(p, argv, true) }},
	{Name: "whoami", Help: "Displays user, group and privileges information.", Rows: "B9", Run: programs.Whoami},
	{Name: "hostname", Help: "Prints the name of the current host.", Rows: "B10", Run: programs.Hostname},
	{Name: "ipconfig", Help: "Displays all current TCP/IP network configuration values.", Rows: "H2, H3", Run: network.Ipconfig},
	{Name: "ping", Help: "Sends ICMP echo requests.", Rows: "H4", Run: network.PingWindows},
	{Name: "curl", Help: "curl.exe: transfers a URL.", Rows: "H1, H2, H5, H6", Run: network.Curl},
	{Name: "nslookup", Help: "Queries the DNS.", Rows: "H2", Run: network.NslookupWindows},
	{Name: "nltest", Help: "Domain trust and secure channel queries.", Rows: "E (gmsa_kubelet.go, gmsa_full.go)", Run: network.Nltest},
	{Name: "timeout", Help: "Waits for the given number of seconds.", Rows: "E", Run: programs.Timeout},
	// System32 programs cmd scripts run (programs/windows/wintools.go)
	{Name: "findstr", Help: "Searches for patterns of text in files.", Rows: "E", Run: windows.Findstr},
	{Name: "find", Help: "Searches for a string of text in a file or files.", Rows: "E", Run: windows.Find},
	{Name: "xcopy", Help: "Copies files and directories, including subdirectories.", Rows: "E", Run: windows.Xcopy},
	{Name: "robocopy", Help: "Robust File Copy for Windows.", Rows: "E", Run: windows.Robocopy},
	{Name: "more", Help: "Displays output one screen at a time (a filter in a container).", Rows: "E", Run: windows.More},
	{Name: "sort", Help: "Sorts lines of text.", Rows: "E", Run: windows.SortExe},
	{Name: "where", Help: "Displays the location of files that match the given search pattern.", Rows: "E", Run: windows.Where},
	{Name: "reg", Help: "Reads the registry (programs/windows/winreg.go).", Rows: "E", Run: windows.Reg},
	{Name: "setx", Help: "Saves environment variables in the registry.", Rows: "E", Run: windows.Setx},
	{Name: "icacls", Help: "Displays or modifies the DACLs of files (programs/windows/icacls.go).", Rows: "B9", Run: windows.Icacls},
	{Name: "agnhost", Aliases: []string{"agnhost-2"}, Help: "The Kubernetes e2e test image's multi-call binary (and its copy /agnhost-2, Dockerfile_windows).", Rows: "H1", Run: network.Agnhost},
	{Name: "pause", Help: "The pause container: waits forever.", Run: network.Pause},
	{Name: "test-webserver", Help: "agnhost test-webserver (the image's entrypoint argument).", Run: network.AgnhostSub},
	{Name: "serve-hostname", Help: "agnhost serve-hostname (the image's entrypoint argument).", Run: network.AgnhostSub},
	{Name: "netexec", Help: "agnhost netexec (the image's entrypoint argument).", Run: network.AgnhostSub},
	// busybox-style tools of the e2e images (C:\bin): busybox-w32 applets
	// (test/images/busybox/Dockerfile_windows BUSYBOX_EXES, in the agnhost
	// image too); upstream runs `sh -c env`, `/bin/sh -c "...; sleep N"` in
	// Windows pods (common/node/configmap.go, pods.go readiness gates).
	{Name: "sh", Aliases: []string{"ash", "bash"}, Help: "busybox-w32 ash, the POSIX shell of the e2e images.", Rows: "E", Run: func(p *process.Proc, argv []string) int { return posix.Run(p, argv) }},
	{Name: "env", Aliases: []string{"printenv"}, Help: "Prints the environment.", Rows: "E", Run: programs.Printenv},
	{Name: "printf", Help: "Formats and prints.", Rows: "E", Run: programs.Printf},
	{Name: "expr", Help: "Evaluates an expression.", Rows: "E", Run: programs.Expr},
	{Name: "tail", Help: "Prints the last lines of files; -f follows them.", Rows: "E", Run: programs.Tail},
	{Name: "touch", Help: "Creates files.", Rows: "E", Run: programs.Touch},
	{Name: "rm", Help: "Removes files (-r directories).", Rows: "E", Run: programs.Rm},
	{Name: "wc", Help: "Counts lines, words and bytes.", Rows: "E", Run: programs.Wc},
	{Name: "awk", Help: "awk (GoAWK), sandboxed to the container.", Rows: "E", Run: awk.Awk},
	{Name: "true", Help: "Exits 0.", Rows: "E", Run: func(*process.Proc, []string) int { return 0 }},
	{Name: "false", Help: "Exits 1.", Rows: "E", Run: func(*process.Proc, []string) int { return 1 }},
	{Name: "sleep", Help: "Delays for a specified amount of time.", Run: programs.Sleep},
	{Name: "cat", Help: "Concatenates files.", Run: programs.Cat},
	{Name: "hexdump", Aliases: []string{"hd"}, Help: "Displays files in hexadecimal (-C: canonical hex+ASCII).", Rows: "E", Run: programs.Hexdump},
	{Name: "mv", Help: "Moves or renames files.", Rows: "E", Run: programs.Mv},
	{Name: "echo", Help: "Prints its arguments.", Run: programs.Echo},
	{Name: "ls", Help: "Lists directory contents.", Run: programs.Ls},
	{Name: "nc", Help: "netcat.", Rows: "H1", Run: network.Nc},
	{Name: "wget", Help: "Retrieves files over HTTP.", Rows: "H1", Run: network.Wget},
	{Name: "uname", Help: "Prints system information.", Run: programs.Uname},
	{Name: "seq", Help: "Prints a sequence of numbers.", Rows: "E", Run: programs.Seq},
	{Name: "grep", Aliases: []string{"egrep", "fgrep"}, Help: "Prints lines that match a pattern.", Rows: "E", Run: programs.Grep},
	// BIND's dig.exe in C:\dig of the busybox-based e2e images (agnhost,
	// jessie-dnsutils: test/images/busybox/Dockerfile_windows).
	{Name: "dig", Help: "DNS lookup utility (BIND 9.14.10).", Rows: "H1, H2", Run: network.Dig},
	// Windows administration (winadmin.go)
	{Name: "net", Aliases: []string{"net1"}, Help: "Manages local groups (net localgroup).", Rows: "B9, B10", Run: windows.Net},
	{Name: "shutdown", Help: "Shuts down or restarts the machine.", Rows: "B15, N3", Run: windows.Shutdown},
	{Name: "taskkill", Help: "Ends processes: those no container runs are not found (winadmin.go).", Rows: "E", Run: windows.Taskkill},
	{Name: "testlimit", Aliases: []string{"testlimit64"}, Help: "Sysinternals TestLimit: leaks and touches memory (resource-consumer image).", Rows: "B5, B6", Run: windows.Testlimit},
}

// linuxPrograms are the executables of a Linux container (busybox style,
// like the agnhost and busybox images).
var linuxPrograms = []*process.Command{
	{Name: "sh", Aliases: []string{"bash", "ash", "dash"}, Help: "The POSIX shell.", Run: func(p *process.Proc, argv []string) int { return posix.Run(p, argv) }},
	{Name: "echo", Help: "Prints its arguments.", Run: programs.Echo},
	{Name: "printf", Help: "Formats and prints.", Run: programs.Printf},
	{Name: "cat", Help: "Concatenates files.", Run: programs.Cat},
	{Name: "hexdump", Aliases: []string{"hd"}, Help: "Displays files in hexadecimal (-C: canonical hex+ASCII).", Rows: "E", Run: programs.Hexdump},
	{Name: "mv", Help: "Moves or renames files.", Rows: "E", Run: programs.Mv},
	{Name: "ls", Help: "Lists directory contents.", Run: programs.Ls},
	{Name: "env", Aliases: []string{"printenv"}, Help: "Prints the environment.", Run: programs.Printenv},
	{Name: "hostname", Help: "Prints the host name.", Run: programs.Hostname},
	{Name: "whoami", Help: "Prints the user name.", Run: programs.WhoamiLinux},
	{Name: "id", Help: "Prints user and group IDs (-u, -g, -n).", Run: programs.IDFlags},
	{Name: "sleep", Help: "Delays; `sleep inf` forever.", Run: programs.Sleep},
	{Name: "true", Help: "Exits 0.", Run: func(*process.Proc, []string) int { return 0 }},
	{Name: "false", Help: "Exits 1.", Run: func(*process.Proc, []string) int { return 1 }},
	{Name: "pwd", Help: "Prints the working directory.", Run: func(p *process.Proc, _ []string) int { p.Println(p.Dir); return 0 }},
	{Name: "uname", Help: "Prints system information.", Run: programs.Uname},
	{Name: "dpkg", Help: "Debian's package manager: --print-architecture only.", Rows: "E", Run: programs.Dpkg},
	{Name: "date", Help: "Prints the date.", Run: programs.Date},
	{Name: "expr", Help: "Evaluates an expression.", Rows: "E", Run: programs.Expr},
	{Name: "tail", Help: "Prints the last lines of files; -f follows them.", Rows: "E", Run: programs.Tail},
	{Name: "touch", Help: "Creates files.", Run: programs.Touch},
	{Name: "rm", Help: "Removes files (-r directories).", Run: programs.Rm},
	{Name: "wc", Help: "Counts lines, words and bytes.", Run: programs.Wc},
	{Name: "awk", Aliases: []string{"mawk", "gawk"}, Help: "awk (GoAWK), sandboxed to the container.", Run: awk.Awk},
	{Name: "ping", Help: "Sends ICMP echo requests.", Rows: "H4", Run: network.PingLinux},
	{Name: "nslookup", Help: "Queries the DNS.", Rows: "H2", Run: network.NslookupLinux},
	{Name: "dig", Help: "DNS lookup utility (BIND).", Rows: "H1, H2", Run: network.Dig},
	{Name: "getent", Help: "Gets entries from the hosts database (hosts file, then DNS).", Rows: "H2", Run: programs.Getent},
	{Name: "seq", Help: "Prints a sequence of numbers.", Run: programs.Seq},
	{Name: "yes", Help: "Prints a line (y) until stopped, at the pace of its CPU (issue 18).", Run: programs.Yes},
	{Name: "grep", Aliases: []string{"egrep", "fgrep"}, Help: "Prints lines that match a pattern.", Run: programs.Grep},
	{Name: "wget", Help: "Retrieves files over HTTP.", Rows: "H1", Run: network.Wget},
	{Name: "curl", Help: "Transfers a URL.", Rows: "H1", Run: network.Curl},
	{Name: "nc", Aliases: []string{"netcat"}, Help: "netcat.", Rows: "H1", Run: network.Nc},
	{Name: "agnhost", Aliases: []string{"agnhost-2"}, Help: "The Kubernetes e2e test image's multi-call binary (and its copy /agnhost-2).", Run: network.Agnhost},
	{Name: "pause", Help: "The pause container: waits forever.", Run: network.Pause},
	{Name: "test-webserver", Help: "agnhost test-webserver.", Run: network.AgnhostSub},
	{Name: "serve-hostname", Help: "agnhost serve-hostname.", Run: network.AgnhostSub},
	{Name: "netexec", Help: "agnhost netexec.", Run: network.AgnhostSub},
	// text and file tools of busybox and coreutils (coreutils.go, sed.go; issue 18)
	{Name: "sed", Help: "Stream editor: s///, p, d, q, a, i, c, y; -n, -e, -E, -i.", Run: programs.Sed},
	{Name: "cut", Help: "Prints selected fields, characters or bytes of lines.", Run: programs.Cut},
	{Name: "head", Help: "Prints the first lines of files.", Run: programs.Head},
	{Name: "basename", Help: "Strips directory and suffix from a name.", Run: programs.Basename},
	{Name: "dirname", Help: "Strips the last component of a name.", Run: programs.Dirname},
	{Name: "tr", Help: "Translates, squeezes or deletes characters.", Run: programs.Tr},
	{Name: "sort", Help: "Sorts lines.", Run: programs.Sort},
	{Name: "uniq", Help: "Drops repeated lines.", Run: programs.Uniq},
	{Name: "tee", Help: "Copies stdin to stdout and files.", Run: programs.Tee},
	{Name: "mkdir", Help: "Creates directories.", Run: programs.Mkdir},
	{Name: "cp", Help: "Copies files and directories.", Run: programs.Cp},
	{Name: "ln", Help: "Makes links (-s a symbolic link where the file system keeps them).", Run: programs.Ln},
	{Name: "chmod", Aliases: []string{"chown", "chgrp"}, Help: "Changes modes and owners (not kept).", Run: programs.Chmod},
	{Name: "xargs", Help: "Runs a command with the words of stdin.", Run: programs.Xargs},
	{Name: "which", Help: "Prints the path of programs.", Run: programs.Which},
	// tools that look at files (programs/fileinfo.go, find.go, checksum.go, od.go)
	{Name: "find", Help: "Searches a directory tree: tests, -exec, -delete.", Run: programs.FindPosix},
	{Name: "stat", Help: "Prints a file's status (-c FORMAT).", Run: programs.Stat},
	{Name: "readlink", Help: "Prints a symbolic link's target (-f: the canonical path).", Run: programs.Readlink},
	{Name: "realpath", Help: "Prints canonical paths.", Run: programs.Realpath},
	{Name: "du", Help: "Sums the space files take.", Run: programs.Du},
	{Name: "df", Help: "Reports the file system's space (the node's usual figures).", Run: programs.Df},
	{Name: "mktemp", Help: "Makes a temporary file or directory.", Run: programs.Mktemp},
	{Name: "rmdir", Help: "Removes empty directories.", Run: programs.Rmdir},
	{Name: "md5sum", Aliases: []string{"sha1sum", "sha256sum", "sha512sum"}, Help: "Prints or checks (-c) checksums.", Run: programs.Checksum},
	{Name: "base64", Help: "Encodes or decodes (-d) base64.", Run: programs.Base64},
	{Name: "od", Help: "Dumps files in octal, hex, decimal or characters.", Run: programs.Od},
	{Name: "cmp", Help: "Compares two files byte by byte.", Run: programs.Cmp},
	{Name: "comm", Help: "Compares two sorted files line by line.", Run: programs.Comm},
	{Name: "paste", Help: "Merges the lines of files.", Run: programs.Paste},
	{Name: "run-parts", Help: "Runs the scripts of a directory in order.", Run: programs.RunParts},
	{Name: "gosu", Aliases: []string{"su-exec"}, Help: "Runs a command as another user.", Run: programs.Gosu},
	{Name: "setpriv", Help: "Runs a command with other user and group IDs.", Run: programs.Setpriv},
	{Name: "busybox", Help: "The multi-call binary: busybox APPLET runs the applet.", Run: func(p *process.Proc, argv []string) int {
		if len(argv) < 2 {
			p.Eprintln("Usage: busybox [function [arguments]...]")
			return 1
		}
		return p.Exec(argv[1:])
	}},
	{Name: "sync", Help: "Flushes the file system (nothing to flush).", Run: func(*process.Proc, []string) int { return 0 }},
}

var windowsIndex, linuxIndex map[string]*process.Command

func init() {
	windowsIndex = index(windowsPrograms)
	linuxIndex = index(linuxPrograms)
}

func index(cmds []*process.Command) map[string]*process.Command {
	m := map[string]*process.Command{}
	for _, c := range cmds {
		m[c.Name] = c
		for _, a := range c.Aliases {
			m[a] = c
		}
	}
	return m
}

func lookupWindows(argv0 string) (*process.Command, bool) {
	c, ok := windowsIndex[process.ProgramName(argv0, true)]
	return c, ok
}

func lookupLinux(argv0 string) (*process.Command, bool) {
	c, ok := linuxIndex[process.ProgramName(argv0, false)]
	return c, ok
}
