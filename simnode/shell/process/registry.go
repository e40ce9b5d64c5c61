package process

import (
	"strconv"
	"strings"
)

// The registry keys of a Windows Server container image that scripts read
// (Get-ItemProperty, reg query): the operating system's version under
// HKLM\SOFTWARE\Microsoft\Windows NT\CurrentVersion, from the image's build
// (Env.OSVersion). Values from a Windows Server Core image of each release
// (https://learn.microsoft.com/windows/release-health/windows-server-release-info).

// RegValue is one value of a registry key.
type RegValue struct {
	Name string
	// Type is REG_SZ or REG_DWORD.
	Type string
	// Data is a string (REG_SZ) or an int64 (REG_DWORD).
	Data any
}

// RegKey is a registry key wink knows.
type RegKey struct {
	// Name is the key's full name, HKEY_LOCAL_MACHINE\SOFTWARE\...
	Name    string
	Values  []RegValue
	SubKeys []string
}

// Value returns the key's value name (case-insensitive).
func (k RegKey) Value(name string) (RegValue, bool) {
	for _, v := range k.Values {
		if strings.EqualFold(v.Name, name) {
			return v, true
		}
	}
	return RegValue{}, false
}

// registryHives are the hives' short names (reg.exe, PowerShell's drives).
var registryHives = map[string]string{"HKLM": "HKEY_LOCAL_MACHINE", "HKCU": "HKEY_CURRENT_USER", "HKCR": "HKEY_CLASSES_ROOT", "HKU": "HKEY_USERS", "HKCC": "HKEY_CURRENT_CONFIG"}

// RegistryKeyName is a key's full name: HKLM\x and HKLM:\x are
// HKEY_LOCAL_MACHINE\x; ok is false when it names no hive.
func RegistryKeyName(key string) (string, bool) {
	key = strings.TrimRight(strings.ReplaceAll(key, "/", `\`), `\`)
	hive, rest, _ := strings.Cut(key, `\`)
	hive = strings.TrimSuffix(strings.ToUpper(hive), ":")
	if long, ok := registryHives[hive]; ok {
		hive = long
	}
	for _, long := range registryHives {
		if hive == long {
			if rest == "" {
				return long, true
			}
			return long + `\` + rest, true
		}
	}
	return "", false
}

// RegistryKey returns the key of the image's registry named key (in any
// form RegistryKeyName takes); known is false when wink does not know
// whether the image has it (a key outside the ones it simulates).
func (p *Proc) RegistryKey(key string) (k RegKey, found, known bool) {
	name, ok := RegistryKeyName(key)
	if !ok {
		return RegKey{}, false, true
	}
	keys := p.registry()
	for _, k := range keys {
		if strings.EqualFold(k.Name, name) {
			return k, true, true
		}
	}
	// below a key wink knows all of, a missing key is absent
	for _, k := range keys {
		if len(name) > len(k.Name) && strings.EqualFold(name[:len(k.Name)+1], k.Name+`\`) && k.SubKeys != nil {
			return RegKey{}, false, true
		}
	}
	return RegKey{}, false, false
}

// registry is the part of the image's registry wink simulates.
func (p *Proc) registry() []RegKey {
	version := p.OSVersion() // 10.0.20348.2655
	f := strings.Split(version, ".")
	for len(f) < 4 {
		f = append(f, "0")
	}
	build, ubr := f[2], f[3]
	release := map[string]struct{ product, display, releaseID string }{
		"17763": {"Windows Server 2019 Datacenter", "", "1809"},
		"20348": {"Windows Server 2022 Datacenter", "21H2", "2009"},
		"26100": {"Windows Server 2025 Datacenter", "24H2", "2009"},
	}[build]
	if release.product == "" {
		release.product = "Windows Server Datacenter"
	}
	edition, installation := "ServerDatacenter", "Server Core"
	if strings.Contains(p.Env.Image.Base, "nanoserver") {
		edition, installation = "ServerDatacenterNano", "Nano Server"
	}
	num := func(s string) int64 { n, _ := strconv.ParseInt(s, 10, 64); return n }
	cv := RegKey{Name: `HKEY_LOCAL_MACHINE\SOFTWARE\Microsoft\Windows NT\CurrentVersion`, Values: []RegValue{
		{"CurrentBuild", "REG_SZ", build},
		{"CurrentBuildNumber", "REG_SZ", build},
		{"CurrentMajorVersionNumber", "REG_DWORD", num(f[0])},
		{"CurrentMinorVersionNumber", "REG_DWORD", num(f[1])},
		{"CurrentType", "REG_SZ", "Multiprocessor Free"},
		{"CurrentVersion", "REG_SZ", "6.3"},
		{"EditionID", "REG_SZ", edition},
		{"InstallationType", "REG_SZ", installation},
		{"ProductName", "REG_SZ", release.product},
		{"ReleaseId", "REG_SZ", release.releaseID},
		{"SystemRoot", "REG_SZ", `C:\Windows`},
		{"UBR", "REG_DWORD", num(ubr)},
	}}
	if release.display != "" {
		cv.Values = append(cv.Values, RegValue{"DisplayVersion", "REG_SZ", release.display})
	}
	return []RegKey{
		{Name: `HKEY_LOCAL_MACHINE`},
		{Name: `HKEY_LOCAL_MACHINE\SOFTWARE`},
		{Name: `HKEY_LOCAL_MACHINE\SOFTWARE\Microsoft`},
		{Name: `HKEY_LOCAL_MACHINE\SOFTWARE\Microsoft\Windows NT`},
		cv,
		{Name: `HKEY_LOCAL_MACHINE\SYSTEM`},
		{Name: `HKEY_LOCAL_MACHINE\SYSTEM\CurrentControlSet`},
		{Name: `HKEY_CURRENT_USER`},
	}
}
