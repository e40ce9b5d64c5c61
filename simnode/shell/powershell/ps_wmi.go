package powershell

import (
	"strings"
	"time"

	"wink.dev/wink/simnode/shell/process"
)

func init() {
	registerCmdlets(
		&psCmdlet{name: "Get-WmiObject", aliases: []string{"gwmi"}, help: "Gets WMI class instances (Win32_OperatingSystem).", rows: "N3", positional: []string{"Class", "Property*"}, params: []string{"Namespace", "ComputerName", "Filter", "Query"}, run: cmdletGetWmiObject},
		&psCmdlet{name: "Get-CimInstance", aliases: []string{"gcim"}, help: "Gets CIM class instances (Win32_OperatingSystem).", rows: "N3", positional: []string{"ClassName", "Filter"}, params: []string{"Namespace", "ComputerName", "Query"}, run: cmdletGetWmiObject},
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
func cmdletGetWmiObject(c *psCall) {
	class := c.str("Class")
	if class == "" {
		class = c.str("ClassName")
	}
	if !strings.EqualFold(class, "Win32_OperatingSystem") {
		return
	}
	env := c.s.p.Env
	caption, build := windowsCaption(env.OSVersion)
	boot := env.BootTime
	if boot.IsZero() {
		boot = c.s.p.Now()
	}
	// The image was installed when it was built: a fixed date.
	install := time.Date(2024, 5, 9, 3, 21, 0, 0, time.UTC)
	var lastBoot, installDate any = wmiTime(boot), wmiTime(install)
	if strings.EqualFold(c.cmdlet.name, "Get-CimInstance") {
		lastBoot, installDate = boot.Local().Format("1/2/2006 3:04:05 PM"), install.Local().Format("1/2/2006 3:04:05 PM")
	}
	version := "10.0." + build
	c.out(&psObject{typeName: "System.Management.ManagementObject#root\\cimv2\\Win32_OperatingSystem", view: "list", str: `\\` + process.ComputerName(env.Hostname) + `\root\cimv2:Win32_OperatingSystem=@`,
		props: []psProp{
			{"SystemDirectory", `C:\Windows\system32`}, {"Organization", ""}, {"BuildNumber", build}, {"RegisteredUser", "Windows User"},
			{"SerialNumber", "00454-60000-00001-AA000"}, {"Version", version}, {"Caption", caption}, {"CSName", process.ComputerName(env.Hostname)},
			{"OSArchitecture", "64-bit"}, {"LastBootUpTime", lastBoot}, {"InstallDate", installDate}, {"OSType", int64(18)},
		}})
}
