package shell

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// This file is the Windows administration programs upstream's Windows e2e
// specs run in HostProcess containers: net.exe localgroup (host_process.go
// "should run as localgroup accounts"), shutdown.exe (node_shutdown.go
// emits the node's shutdown with `shutdown.exe -r -t 60`), and
// Get-WmiObject/Get-CimInstance of Win32_OperatingSystem (node_shutdown.go
// reads LastBootUpTime and InstallDate).

// LocalAccounts are a machine's local groups, as net.exe manages them. A
// HostProcess container sees its node's (rows B9, B10); another container
// its own.
type LocalAccounts interface {
	// AddGroup creates the group; false when it exists.
	AddGroup(name string) bool
	// DeleteGroup removes the group; false when it does not exist.
	DeleteGroup(name string) bool
	// Groups lists the groups.
	Groups() []string
}

// BuiltinLocalGroups are the local groups of a fresh Windows Server.
var BuiltinLocalGroups = []string{
	"Access Control Assistance Operators", "Administrators", "Backup Operators", "Certificate Service DCOM Access",
	"Cryptographic Operators", "Device Owners", "Distributed COM Users", "Event Log Readers", "Guests", "Hyper-V Administrators",
	"IIS_IUSRS", "Network Configuration Operators", "Performance Log Users", "Performance Monitor Users", "Power Users",
	"Print Operators", "RDS Endpoint Servers", "RDS Management Servers", "RDS Remote Access Servers", "Remote Desktop Users",
	"Remote Management Users", "Replicator", "Storage Replica Administrators", "System Managed Accounts Group", "Users",
}

// MemAccounts is a LocalAccounts in memory, starting with the builtin
// groups; names compare case-insensitively.
type MemAccounts struct {
	mu     sync.Mutex
	groups map[string]string // lower-case name -> name
}

func (m *MemAccounts) init() {
	if m.groups == nil {
		m.groups = map[string]string{}
		for _, g := range BuiltinLocalGroups {
			m.groups[strings.ToLower(g)] = g
		}
	}
}

// AddGroup implements LocalAccounts.
func (m *MemAccounts) AddGroup(name string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.init()
	if _, ok := m.groups[strings.ToLower(name)]; ok {
		return false
	}
	m.groups[strings.ToLower(name)] = name
	return true
}

// DeleteGroup implements LocalAccounts.
func (m *MemAccounts) DeleteGroup(name string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.init()
	if _, ok := m.groups[strings.ToLower(name)]; !ok {
		return false
	}
	delete(m.groups, strings.ToLower(name))
	return true
}

// Groups implements LocalAccounts.
func (m *MemAccounts) Groups() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.init()
	out := make([]string, 0, len(m.groups))
	for _, g := range m.groups {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return strings.ToLower(out[i]) < strings.ToLower(out[j]) })
	return out
}

// HasGroup reports whether accounts has group name.
func HasGroup(a LocalAccounts, name string) bool {
	for _, g := range a.Groups() {
		if strings.EqualFold(g, name) {
			return true
		}
	}
	return false
}

func init() {
	registerCmdlets(
		&psCmdlet{name: "Get-WmiObject", aliases: []string{"gwmi"}, help: "Gets WMI class instances (Win32_OperatingSystem).", rows: "N3", positional: []string{"Class", "Property*"}, params: []string{"Namespace", "ComputerName", "Filter", "Query"}, run: cmdletGetWmiObject},
		&psCmdlet{name: "Get-CimInstance", aliases: []string{"gcim"}, help: "Gets CIM class instances (Win32_OperatingSystem).", rows: "N3", positional: []string{"ClassName", "Filter"}, params: []string{"Namespace", "ComputerName", "Query"}, run: cmdletGetWmiObject},
	)
}

const netSuccess = "The command completed successfully."

func netError(p *proc, code int, msg string) int {
	p.eprintln(fmt.Sprintf("System error %d has occurred.", code))
	p.eprintln("")
	p.eprintln(msg)
	p.eprintln("")
	return 2
}

// progNet is net.exe. localgroup is simulated; the other subcommands
// report success without a visible effect.
func progNet(p *proc, argv []string) int {
	if len(argv) < 2 {
		p.println("The syntax of this command is:")
		p.println("")
		p.println("NET")
		p.println("    [ ACCOUNTS | COMPUTER | CONFIG | CONTINUE | FILE | GROUP | HELP |")
		p.println("      HELPMSG | LOCALGROUP | PAUSE | SESSION | SHARE | START |")
		p.println("      STATISTICS | STOP | TIME | USE | USER | VIEW ]")
		p.println("")
		return 1
	}
	sub := strings.ToLower(argv[1])
	switch sub {
	case "localgroup":
	case "accounts", "computer", "config", "continue", "file", "group", "help", "helpmsg", "pause", "session", "share", "start", "statistics", "stop", "time", "use", "user", "view":
		p.println(netSuccess)
		p.println("")
		return 0
	default:
		return progNet(p, argv[:1])
	}
	accounts := p.env.Accounts
	if accounts == nil {
		accounts = &MemAccounts{}
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
		p.println("")
		p.println(`Aliases for \\` + computerName(p.env.Hostname))
		p.println("")
		p.println(strings.Repeat("-", 79))
		for _, g := range accounts.Groups() {
			p.println("*" + g)
		}
		p.println(netSuccess)
		p.println("")
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
		if !HasGroup(accounts, names[0]) {
			return netError(p, 1376, "The specified local group does not exist.")
		}
		p.println(fmt.Sprintf("%-15s%s", "Alias name", names[0]))
		p.println(fmt.Sprintf("%-15s", "Comment"))
		p.println("")
		p.println("Members")
		p.println("")
		p.println(strings.Repeat("-", 79))
	default:
		// net localgroup <group> <member> /add: members are not modelled.
		if !HasGroup(accounts, names[0]) {
			return netError(p, 1376, "The specified local group does not exist.")
		}
	}
	p.println(netSuccess)
	p.println("")
	return 0
}

// progShutdown is shutdown.exe: /r (-r) restarts, /s shuts down, /t the
// delay in seconds (30 by default), /a aborts a pending shutdown. The
// machine is the node's (Env.Power, a HostProcess container); elsewhere
// the caller lacks the privilege.
func progShutdown(p *proc, argv []string) int {
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
					p.eprintln(argv[i+1] + ": The parameter is incorrect.(87)")
					return 87
				}
				delay = time.Duration(n) * time.Second
				i++
			}
		case "c", "d", "m":
			i++
		case "f", "hybrid", "soft", "fw", "e", "o", "h", "l", "i":
		case "?":
			p.println("Usage: shutdown [/i | /l | /s | /sg | /r | /g | /a | /p | /h | /e | /o] [/hybrid] [/soft] [/fw] [/f]")
			p.println("    [/m \\\\computer][/t xxx][/d [p|u:]xx:yy [/c \"comment\"]]")
			return 0
		}
	}
	if p.env.Power == nil {
		p.eprintln("Access is denied.(5)")
		return 5
	}
	switch {
	case abort:
		if !p.env.Power.Abort() {
			p.eprintln("Unable to abort the system shutdown because no shutdown was in progress.(1116)")
			return 1116
		}
		return 0
	case reboot || off:
		if err := p.env.Power.Schedule(reboot, delay); err != nil {
			p.eprintln("A system shutdown has already been scheduled.(1190)")
			return 1190
		}
		return 0
	}
	return progShutdown(p, []string{argv[0], "/?"})
}

// windowsCaption is Win32_OperatingSystem.Caption for a build.
func windowsCaption(version string) (caption, build string) {
	if version == "" {
		version = "10.0.20348.2655"
	}
	parts := strings.Split(version, ".")
	build = "20348"
	if len(parts) >= 3 {
		build = parts[2]
	}
	switch build {
	case "17763":
		return "Microsoft Windows Server 2019 Datacenter", build
	case "26100":
		return "Microsoft Windows Server 2025 Datacenter", build
	}
	return "Microsoft Windows Server 2022 Datacenter", build
}

// wmiTime is a CIM_DATETIME as Get-WmiObject returns it.
func wmiTime(t time.Time) string {
	return t.UTC().Format("20060102150405") + ".000000+000"
}

// cmdletGetWmiObject answers Win32_OperatingSystem. Other classes give no
// instances.
func cmdletGetWmiObject(c *psCall) {
	class := c.str("Class")
	if class == "" {
		class = c.str("ClassName")
	}
	if !strings.EqualFold(class, "Win32_OperatingSystem") {
		return
	}
	env := c.s.p.env
	caption, build := windowsCaption(env.OSVersion)
	boot := env.BootTime
	if boot.IsZero() {
		boot = c.s.p.now()
	}
	// The image was installed when it was built: a fixed date.
	install := time.Date(2024, 5, 9, 3, 21, 0, 0, time.UTC)
	var lastBoot, installDate any = wmiTime(boot), wmiTime(install)
	if strings.EqualFold(c.cmdlet.name, "Get-CimInstance") {
		lastBoot, installDate = boot.Local().Format("1/2/2006 3:04:05 PM"), install.Local().Format("1/2/2006 3:04:05 PM")
	}
	version := "10.0." + build
	c.out(&psObject{typeName: "System.Management.ManagementObject#root\\cimv2\\Win32_OperatingSystem", view: "list", str: `\\` + computerName(env.Hostname) + `\root\cimv2:Win32_OperatingSystem=@`,
		props: []psProp{
			{"SystemDirectory", `C:\Windows\system32`}, {"Organization", ""}, {"BuildNumber", build}, {"RegisteredUser", "Windows User"},
			{"SerialNumber", "00454-60000-00001-AA000"}, {"Version", version}, {"Caption", caption}, {"CSName", computerName(env.Hostname)},
			{"OSArchitecture", "64-bit"}, {"LastBootUpTime", lastBoot}, {"InstallDate", installDate}, {"OSType", int64(18)},
		}})
}

// progTestlimit is Sysinternals TestLimit (testlimit.exe of the
// resource-consumer image, which e2e's Windows eviction spec runs:
// `testlimit.exe -accepteula -d 300Mb -e 1 20000s -c N`). -d <MB> leaks
// and touches MB of memory per allocation, -c the number of allocations
// (default: until memory runs out), -e <s> the pause between them. The
// memory goes on the container's meter (Env.Memory: its working set and
// commit, rows B5, B6); the program then holds it until stopped.
func progTestlimit(p *proc, argv []string) int {
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
				p.eprintln("Invalid memory size: " + v)
				return 1
			}
			chunk = n << 20
		case "-c":
			n, err := strconv.Atoi(next())
			if err != nil || n <= 0 {
				p.eprintln("Invalid count")
				return 1
			}
			count = n
		case "-e":
			if n, err := strconv.Atoi(next()); err == nil && n > 0 {
				pause = time.Duration(n) * time.Second
			}
		}
	}
	p.println("")
	p.println("Testlimit v5.24 - test Windows limits")
	p.println("Copyright (C) 2012-2015 Mark Russinovich")
	p.println("Sysinternals - www.sysinternals.com")
	p.println("")
	if chunk == 0 {
		return p.block()
	}
	p.println(fmt.Sprintf("Leaking private bytes with touch %d MB at a time...", chunk>>20))
	var held int64
	defer func() {
		if p.env.Memory != nil {
			p.env.Memory.Use(-held)
		}
	}()
	for n := 0; count < 0 || n < count; n++ {
		if p.env.Memory != nil {
			p.env.Memory.Use(chunk)
		}
		held += chunk
		p.println(fmt.Sprintf("Leaked %d MB of private memory (%d MB total leaked). Lasterror: 0", chunk>>20, held>>20))
		if count < 0 && n >= 4096 {
			break
		}
		if pause > 0 && !p.sleep(pause) {
			return p.killed()
		}
	}
	return p.block()
}
