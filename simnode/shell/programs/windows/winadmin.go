package windows

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"wink.dev/wink/simnode/shell/process"
)

// This file is the Windows administration programs upstream's Windows e2e
// specs run in HostProcess containers: net.exe localgroup (host_process.go
// "should run as localgroup accounts"), shutdown.exe (node_shutdown.go
// emits the node's shutdown with `shutdown.exe -r -t 60`), and
// testlimit; Get-WmiObject/Get-CimInstance of Win32_OperatingSystem
// (node_shutdown.go reads LastBootUpTime and InstallDate) are PowerShell's
// (powershell/wmi.go).

const netSuccess = "The command completed successfully."

func netError(p *process.Proc, code int, msg string) int {
	p.Eprintln(fmt.Sprintf("System error %d has occurred.", code))
	p.Eprintln("")
	p.Eprintln(msg)
	p.Eprintln("")
	return 2
}

// Net is net.exe. localgroup is simulated; the other subcommands
// report success without a visible effect.
func Net(p *process.Proc, argv []string) int {
	if len(argv) < 2 {
		p.Println("The syntax of this command is:")
		p.Println("")
		p.Println("NET")
		p.Println("    [ ACCOUNTS | COMPUTER | CONFIG | CONTINUE | FILE | GROUP | HELP |")
		p.Println("      HELPMSG | LOCALGROUP | PAUSE | SESSION | SHARE | START |")
		p.Println("      STATISTICS | STOP | TIME | USE | USER | VIEW ]")
		p.Println("")
		return 1
	}
	sub := strings.ToLower(argv[1])
	switch sub {
	case "localgroup":
	case "accounts", "computer", "config", "continue", "file", "group", "help", "helpmsg", "pause", "session", "share", "start", "statistics", "stop", "time", "use", "user", "view":
		p.Println(netSuccess)
		p.Println("")
		return 0
	default:
		return Net(p, argv[:1])
	}
	accounts := p.Env.Accounts
	if accounts == nil {
		accounts = &process.MemAccounts{}
	}
	var names []string
	add, del := false, false
	for _, a := range argv[2:] {
		switch strings.ToLower(a) {
		case "/add":
			add = true
		case "/delete", "/del":
			del = true
		default:
			if !strings.HasPrefix(a, "/") {
				names = append(names, a)
			}
		}
	}
	switch {
	case len(names) == 0:
		p.Println("")
		p.Println(`Aliases for \\` + process.ComputerName(p.Env.Hostname))
		p.Println("")
		p.Println(strings.Repeat("-", 79))
		for _, g := range accounts.Groups() {
			p.Println("*" + g)
		}
		p.Println(netSuccess)
		p.Println("")
		return 0
	case add && len(names) == 1:
		if !accounts.AddGroup(names[0]) {
			return netError(p, 1379, "The specified local group already exists.")
		}
	case del && len(names) == 1:
		if !accounts.DeleteGroup(names[0]) {
			return netError(p, 1376, "The specified local group does not exist.")
		}
	case len(names) == 1:
		if !process.HasGroup(accounts, names[0]) {
			return netError(p, 1376, "The specified local group does not exist.")
		}
		p.Println(fmt.Sprintf("%-15s%s", "Alias name", names[0]))
		p.Println(fmt.Sprintf("%-15s", "Comment"))
		p.Println("")
		p.Println("Members")
		p.Println("")
		p.Println(strings.Repeat("-", 79))
	default:
		// net localgroup <group> <member> /add: members are not modelled.
		if !process.HasGroup(accounts, names[0]) {
			return netError(p, 1376, "The specified local group does not exist.")
		}
	}
	p.Println(netSuccess)
	p.Println("")
	return 0
}

// Shutdown is shutdown.exe: /r (-r) restarts, /s shuts down, /t the
// delay in seconds (30 by default), /a aborts a pending shutdown. The
// machine is the node's (Env.Power, a HostProcess container); elsewhere
// the caller lacks the privilege.
func Shutdown(p *process.Proc, argv []string) int {
	reboot, off, abort := false, false, false
	delay := 30 * time.Second
	for i := 1; i < len(argv); i++ {
		a := strings.ToLower(argv[i])
		if !strings.HasPrefix(a, "/") && !strings.HasPrefix(a, "-") {
			continue
		}
		switch a[1:] {
		case "r", "g":
			reboot = true
		case "s", "p":
			off = true
		case "a":
			abort = true
		case "t":
			if i+1 < len(argv) {
				n, err := strconv.Atoi(argv[i+1])
				if err != nil || n < 0 || n > 315360000 {
					p.Eprintln(argv[i+1] + ": The parameter is incorrect.(87)")
					return 87
				}
				delay = time.Duration(n) * time.Second
				i++
			}
		case "c", "d", "m":
			i++
		case "f", "hybrid", "soft", "fw", "e", "o", "h", "l", "i":
		case "?":
			p.Println("Usage: shutdown [/i | /l | /s | /sg | /r | /g | /a | /p | /h | /e | /o] [/hybrid] [/soft] [/fw] [/f]")
			p.Println("    [/m \\\\computer][/t xxx][/d [p|u:]xx:yy [/c \"comment\"]]")
			return 0
		}
	}
	if p.Env.Power == nil {
		p.Eprintln("Access is denied.(5)")
		return 5
	}
	switch {
	case abort:
		if !p.Env.Power.Abort() {
			p.Eprintln("Unable to abort the system shutdown because no shutdown was in progress.(1116)")
			return 1116
		}
		return 0
	case reboot || off:
		if err := p.Env.Power.Schedule(reboot, delay); err != nil {
			p.Eprintln("A system shutdown has already been scheduled.(1190)")
			return 1190
		}
		return 0
	}
	return Shutdown(p, []string{argv[0], "/?"})
}

// Testlimit is Sysinternals TestLimit (testlimit.exe of the
// resource-consumer image, which e2e's Windows eviction spec runs:
// `testlimit.exe -accepteula -d 300Mb -e 1 20000s -c N`). -d <MB> leaks
// and touches MB of memory per allocation, -c the number of allocations
// (default: until memory runs out), -e <s> the pause between them. The
// memory goes on the container's meter (Env.Memory: its working set and
// commit, rows B5, B6); the program then holds it until stopped.
func Testlimit(p *process.Proc, argv []string) int {
	chunk, count, pause := int64(0), -1, time.Duration(0)
	for i := 1; i < len(argv); i++ {
		a := strings.ToLower(argv[i])
		next := func() string {
			if i+1 < len(argv) {
				i++
				return argv[i]
			}
			return ""
		}
		switch a {
		case "-d", "-m":
			v := strings.ToLower(next())
			n, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSuffix(v, "mb"), "m"), 10, 64)
			if err != nil || n <= 0 {
				p.Eprintln("Invalid memory size: " + v)
				return 1
			}
			chunk = n << 20
		case "-c":
			n, err := strconv.Atoi(next())
			if err != nil || n <= 0 {
				p.Eprintln("Invalid count")
				return 1
			}
			count = n
		case "-e":
			if n, err := strconv.Atoi(next()); err == nil && n > 0 {
				pause = time.Duration(n) * time.Second
			}
		}
	}
	p.Println("")
	p.Println("Testlimit v5.24 - test Windows limits")
	p.Println("Copyright (C) 2012-2015 Mark Russinovich")
	p.Println("Sysinternals - www.sysinternals.com")
	p.Println("")
	if chunk == 0 {
		return p.Block()
	}
	p.Println(fmt.Sprintf("Leaking private bytes with touch %d MB at a time...", chunk>>20))
	var held int64
	defer func() {
		if p.Env.Memory != nil {
			p.Env.Memory.Use(-held)
		}
	}()
	for n := 0; count < 0 || n < count; n++ {
		if p.Env.Memory != nil {
			p.Env.Memory.Use(chunk)
		}
		held += chunk
		p.Println(fmt.Sprintf("Leaked %d MB of private memory (%d MB total leaked). Lasterror: 0", chunk>>20, held>>20))
		if count < 0 && n >= 4096 {
			break
		}
		if pause > 0 && !p.Sleep(pause) {
			return p.Killed()
		}
	}
	return p.Block()
}

// Taskkill is taskkill.exe /im NAME [/f]
// (https://learn.microsoft.com/windows-server/administration/windows-commands/taskkill).
// A container that is not HostProcess has only the processes started in
// it: one whose image is no program wink runs there (kubelet.exe,
// flanneld.exe in an ordinary pod) is not found, exit 128. Those it runs
// (cmd.exe, powershell.exe, ...), an image's own program run as the
// container's command, and a HostProcess container's (its host's) are in
// no process table wink keeps: ending them, /pid and /fi are a
// NotSimulated trace, exit 0.
func Taskkill(p *process.Proc, argv []string) int {
	var names []string
	for i := 1; i < len(argv); i++ {
		switch a := strings.ToLower(argv[i]); {
		case a == "/im" && i+1 < len(argv):
			names = append(names, argv[i+1])
			i++
		case a == "/pid" || a == "/fi" || a == "/s" || a == "/u" || a == "/p":
			p.NotSimulated("taskkill " + a)
			return 0
		}
	}
	if p.Env.Image.Base == "host" || len(names) == 0 {
		p.NotSimulated("taskkill")
		return 0
	}
	code := 0
	for _, n := range names {
		if _, ok := p.Programs.Lookup(process.Windows, n); ok || strings.ContainsAny(n, "*?") {
			p.NotSimulated("taskkill /im " + n)
			continue
		}
		p.Eprintln(`ERROR: The process "` + n + `" not found.`)
		code = 128
	}
	return code
}
