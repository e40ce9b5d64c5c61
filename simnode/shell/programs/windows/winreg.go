package windows

import (
	"fmt"
	"strings"

	"wink.dev/wink/simnode/shell/process"
)

// reg.exe and setx.exe: the registry of the image as process/registry.go
// simulates it. What they would write is not kept (a NotSimulated trace);
// what the user may not write fails as on the real image: HKLM and the
// machine environment need an administrator (ContainerAdministrator).
// https://learn.microsoft.com/windows-server/administration/windows-commands/reg
// https://learn.microsoft.com/windows-server/administration/windows-commands/setx

// regNotFound is reg's error for a key or value that is not there.
const regNotFound = "ERROR: The system was unable to find the specified registry key or value."

// Reg is reg.exe: query reads the simulated keys; add, delete, import and
// copy report success (or access denied) without keeping what they write.
func Reg(p *process.Proc, argv []string) int {
	if len(argv) < 2 {
		p.Eprintln("ERROR: Invalid syntax.")
		p.Eprintln(`Type "REG /?" for usage.`)
		return 1
	}
	op := strings.ToLower(argv[1])
	switch op {
	case "query":
		return regQuery(p, argv[2:])
	case "add", "delete", "import", "copy", "restore", "load", "unload":
		if len(argv) > 2 {
			if name, ok := process.RegistryKeyName(argv[2]); ok && strings.HasPrefix(name, "HKEY_LOCAL_MACHINE") && !process.IsAdministrator(p.Env) {
				p.Eprintln("ERROR: Access is denied.")
				return 1
			}
		}
		p.NotSimulated("reg " + op)
		p.Println("The operation completed successfully.")
		return 0
	}
	p.NotSimulated("reg " + op)
	return 0
}

func regQuery(p *process.Proc, args []string) int {
	if len(args) == 0 {
		p.Eprintln("ERROR: Invalid syntax.")
		p.Eprintln(`Type "REG QUERY /?" for usage.`)
		return 1
	}
	key, found, known := p.RegistryKey(args[0])
	if !known {
		p.NotSimulated("reg query " + args[0])
		return 0
	}
	if !found {
		p.Eprintln(regNotFound)
		return 1
	}
	var only string
	haveV := false
	for i := 1; i < len(args); i++ {
		if strings.EqualFold(args[i], "/v") && i+1 < len(args) {
			only, haveV = args[i+1], true
			i++
		}
	}
	var lines []string
	for _, v := range key.Values {
		if haveV && !strings.EqualFold(v.Name, only) {
			continue
		}
		data := fmt.Sprint(v.Data)
		if n, ok := v.Data.(int64); ok {
			data = fmt.Sprintf("0x%x", n)
		}
		lines = append(lines, "    "+v.Name+"    "+v.Type+"    "+data)
	}
	if haveV && len(lines) == 0 {
		p.Eprintln(regNotFound)
		return 1
	}
	p.Println("")
	p.Println(key.Name)
	for _, l := range lines {
		p.Println(l)
	}
	p.Println("")
	if !haveV {
		if key.SubKeys == nil {
			p.NotSimulated("reg query: the subkeys of " + key.Name)
		}
		for _, sub := range key.SubKeys {
			p.Println(key.Name + `\` + sub)
		}
	}
	return 0
}

// Setx is setx.exe name value [/M]: the value goes to the user's (or with
// /M the machine's) environment in the registry, which processes started
// later read; this process's environment does not change.
func Setx(p *process.Proc, argv []string) int {
	var pos []string
	machine := false
	for _, a := range argv[1:] {
		switch {
		case strings.EqualFold(a, "/m"):
			machine = true
		case strings.HasPrefix(a, "/") && len(a) == 2:
		default:
			pos = append(pos, a)
		}
	}
	if len(pos) != 2 {
		p.Eprintln("ERROR: Invalid syntax.")
		p.Eprintln(`Type "SETX /?" for usage.`)
		return 1
	}
	if machine && !process.IsAdministrator(p.Env) {
		p.Eprintln("ERROR: Access to the registry path is denied.")
		return 1
	}
	p.NotSimulated("setx: the registry's environment")
	p.Println("")
	p.Println("SUCCESS: Specified value was saved.")
	return 0
}
