package powershell

import (
	"strings"
	"time"
	"wink.dev/wink/simnode/shell/powershell/engine"

	"wink.dev/wink/simnode/shell/process"
)

func init() {
	engine.RegisterCmdlets(
		&engine.Cmdlet{Name: "Get-WmiObject", Aliases: []string{"gwmi"}, Help: "Gets WMI class instances (Win32_OperatingSystem).", Rows: "N3", Positional: []string{"Class", "Property*"}, Params: []string{"Namespace", "ComputerName", "Filter", "Query"}, Run: cmdletGetWmiObject},
		&engine.Cmdlet{Name: "Get-CimInstance", Aliases: []string{"gcim"}, Help: "Gets CIM class instances (Win32_OperatingSystem).", Rows: "N3", Positional: []string{"ClassName", "Filter"}, Params: []string{"Namespace", "ComputerName", "Query"}, Run: cmdletGetWmiObject},
	)
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
func cmdletGetWmiObject(c *engine.Call) {
	class := c.Str("Class")
	if class == "" {
		class = c.Str("ClassName")
	}
	if !strings.EqualFold(class, "Win32_OperatingSystem") {
		return
	}
	env := c.S.P.Env
	caption, build := windowsCaption(env.OSVersion)
	boot := env.BootTime
	if boot.IsZero() {
		boot = c.S.P.Now()
	}
	// The image was installed when it was built: a fixed date.
	install := time.Date(2024, 5, 9, 3, 21, 0, 0, time.UTC)
	var lastBoot, installDate any = wmiTime(boot), wmiTime(install)
	if strings.EqualFold(c.Cmdlet.Name, "Get-CimInstance") {
		lastBoot, installDate = boot.Local().Format("1/2/2006 3:04:05 PM"), install.Local().Format("1/2/2006 3:04:05 PM")
	}
	version := "10.0." + build
	c.Out(&engine.Object{TypeName: "System.Management.ManagementObject#root\\cimv2\\Win32_OperatingSystem", View: "list", Str: `\\` + process.ComputerName(env.Hostname) + `\root\cimv2:Win32_OperatingSystem=@`,
		Props: []engine.Prop{
			{Name: "SystemDirectory", Val: `C:\Windows\system32`}, {Name: "Organization", Val: ""}, {Name: "BuildNumber", Val: build}, {Name: "RegisteredUser", Val: "Windows User"},
			{Name: "SerialNumber", Val: "00454-60000-00001-AA000"}, {Name: "Version", Val: version}, {Name: "Caption", Val: caption}, {Name: "CSName", Val: process.ComputerName(env.Hostname)},
			{Name: "OSArchitecture", Val: "64-bit"}, {Name: "LastBootUpTime", Val: lastBoot}, {Name: "InstallDate", Val: installDate}, {Name: "OSType", Val: int64(18)},
		}})
}
