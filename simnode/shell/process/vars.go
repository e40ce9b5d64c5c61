package process

import (
	"sort"
	"strings"
)

// OSVersion is the Windows version ver and cmd's banner print (Env.OSVersion,
// row N3).
func (p *Proc) OSVersion() string {
	if p.Env.OSVersion != "" {
		return p.Env.OSVersion
	}
	return "10.0.20348.2655"
}

// Vars is an environment block; Windows names are case-insensitive but keep
// the case they were set with.
type Vars struct {
	fold bool
	m    map[string]VarEntry
}

// VarEntry is a variable of an environment block.
type VarEntry struct{ Name, Value string }

func newVars(fold bool) *Vars { return &Vars{fold: fold, m: map[string]VarEntry{}} }

func (v *Vars) key(name string) string {
	if v.fold {
		return strings.ToUpper(name)
	}
	return name
}

// Get returns a variable's value.
func (v *Vars) Get(name string) (string, bool) {
	e, ok := v.m[v.key(name)]
	return e.Value, ok
}

// Set sets a variable, keeping the case of an existing Windows name.
func (v *Vars) Set(name, value string) {
	if e, ok := v.m[v.key(name)]; ok && v.fold {
		name = e.Name
	}
	v.m[v.key(name)] = VarEntry{name, value}
}

// Unset removes a variable.
func (v *Vars) Unset(name string) { delete(v.m, v.key(name)) }

func (v *Vars) clone() *Vars {
	c := newVars(v.fold)
	for k, e := range v.m {
		c.m[k] = e
	}
	return c
}

// Snapshot is a copy of the block (cmd's setlocal).
func (v *Vars) Snapshot() *Vars { return v.clone() }

// Restore makes the block what snap holds (cmd's endlocal); snap is not
// to be used after.
func (v *Vars) Restore(snap *Vars) { v.m = snap.m }

// Size is what the block holds: its names and values, in bytes.
func (v *Vars) Size() int64 {
	var n int64
	for _, e := range v.m {
		n += int64(len(e.Name) + len(e.Value))
	}
	return n
}

// Sorted returns the entries sorted by name (case-insensitively on Windows,
// as `set` lists them).
func (v *Vars) Sorted() []VarEntry {
	out := make([]VarEntry, 0, len(v.m))
	for _, e := range v.m {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool {
		if v.fold {
			return strings.ToUpper(out[i].Name) < strings.ToUpper(out[j].Name)
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// windowsVars is the environment block of a nanoserver/servercore
// container: the image's defaults, then the pod's variables (row B12).
func windowsVars(env *Env) *Vars {
	v := newVars(true)
	user := env.User
	if user == "" {
		user = "ContainerUser" // row B9: the default user of nanoserver/servercore
	}
	name, domain := userName(env)
	profile := `C:\Users\` + name
	if strings.EqualFold(name, ComputerName(env.Hostname)+"$") {
		profile = `C:\Windows\system32\config\systemprofile`
	}
	for _, kv := range [][2]string{
		{"ALLUSERSPROFILE", `C:\ProgramData`},
		{"APPDATA", profile + `\AppData\Roaming`},
		{"CommonProgramFiles", `C:\Program Files\Common Files`},
		{"COMPUTERNAME", ComputerName(env.Hostname)},
		{"ComSpec", `C:\Windows\system32\cmd.exe`},
		{"LOCALAPPDATA", profile + `\AppData\Local`},
		{"NUMBER_OF_PROCESSORS", "2"},
		{"OS", "Windows_NT"},
		{"Path", `C:\Windows\system32;C:\Windows;C:\Windows\System32\Wbem;C:\Windows\System32\WindowsPowerShell\v1.0\;` + profile + `\AppData\Local\Microsoft\WindowsApps`},
		{"PATHEXT", ".COM;.EXE;.BAT;.CMD;.VBS;.VBE;.JS;.JSE;.WSF;.WSH;.MSC"},
		{"PROCESSOR_ARCHITECTURE", "AMD64"},
		{"ProgramData", `C:\ProgramData`},
		{"ProgramFiles", `C:\Program Files`},
		{"PROMPT", "$P$G"},
		{"PUBLIC", `C:\Users\Public`},
		{"SystemDrive", "C:"},
		{"SystemRoot", `C:\Windows`},
		{"TEMP", profile + `\AppData\Local\Temp`},
		{"TMP", profile + `\AppData\Local\Temp`},
		{"USERDOMAIN", domain},
		{"USERNAME", name},
		{"USERPROFILE", profile},
		{"windir", `C:\Windows`},
	} {
		v.Set(kv[0], kv[1])
	}
	for k, val := range env.Vars {
		v.Set(k, val)
	}
	return v
}

func linuxVars(env *Env) *Vars {
	v := newVars(false)
	v.Set("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")
	v.Set("HOSTNAME", env.Hostname)
	v.Set("HOME", "/root")
	if u := env.User; u != "" && u != "root" && u != "0" {
		v.Set("HOME", "/")
	}
	for k, val := range env.Vars {
		v.Set(k, val)
	}
	return v
}

// ComputerName is %COMPUTERNAME%: the NetBIOS name, the hostname upper-cased
// and cut to 15 characters.
func ComputerName(host string) string {
	if host == "" {
		host = "localhost"
	}
	c := strings.ToUpper(host)
	if len(c) > 15 {
		c = c[:15]
	}
	return c
}

// userName is %USERNAME% and %USERDOMAIN% for the container's user (row
// B9): the virtual accounts ContainerUser and ContainerAdministrator live in
// the "User Manager" domain; NT AUTHORITY\SYSTEM is the computer account.
func userName(env *Env) (name, domain string) {
	u := env.User
	if u == "" {
		u = "ContainerUser"
	}
	if i := strings.LastIndex(u, `\`); i >= 0 {
		domain, name = u[:i], u[i+1:]
		if strings.EqualFold(u, `NT AUTHORITY\SYSTEM`) {
			return ComputerName(env.Hostname) + "$", "WORKGROUP"
		}
		return name, domain
	}
	if isVirtualAccount(u) {
		return u, "User Manager"
	}
	return u, ComputerName(env.Hostname)
}

func isVirtualAccount(u string) bool {
	return strings.EqualFold(u, "ContainerUser") || strings.EqualFold(u, "ContainerAdministrator")
}

// IsAdministrator reports whether the container's user is an
// administrator of the container: ContainerAdministrator or SYSTEM (a
// HostProcess container's), not the default ContainerUser
// (https://learn.microsoft.com/virtualization/windowscontainers/manage-containers/container-security).
func IsAdministrator(env *Env) bool {
	u := env.User
	return strings.EqualFold(u, "ContainerAdministrator") || strings.EqualFold(u, `NT AUTHORITY\SYSTEM`) || strings.EqualFold(u, "SYSTEM")
}

// WhoamiString is what whoami.exe prints for the container's user (row B9,
// upstream test/e2e/windows/security_context.go and host_process.go:794):
// `user manager\containeruser`, `nt authority\system`, `host\user`.
func WhoamiString(env *Env) string {
	u := env.User
	if u == "" {
		u = "ContainerUser"
	}
	if strings.Contains(u, `\`) {
		return strings.ToLower(u)
	}
	if isVirtualAccount(u) {
		return `user manager\` + strings.ToLower(u)
	}
	return strings.ToLower(ComputerName(env.Hostname) + `\` + u)
}

// ShareVars makes c use p's variables (redirections don't make a subshell).
func (c *Proc) ShareVars(p *Proc) *Proc {
	c.Vars = p.Vars
	return c
}
