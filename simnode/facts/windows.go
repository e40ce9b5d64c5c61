package facts

// The Windows Server builds simulated Windows nodes run (N2:
// node.kubernetes.io/windows-build), each named by its year.
const (
	WindowsServer2019 = "10.0.17763"
	WindowsServer2022 = "10.0.20348"
	WindowsServer2025 = "10.0.26100"
	// DefaultWindowsBuild is the build of a Windows pool that names none.
	DefaultWindowsBuild = WindowsServer2022
)

// windowsServerYears are the builds by the year they are named by.
var windowsServerYears = []struct{ build, year string }{
	{WindowsServer2019, "2019"}, {WindowsServer2022, "2022"}, {WindowsServer2025, "2025"},
}

// WindowsBuilds are the Windows Server builds wink simulates, oldest first.
func WindowsBuilds() []string {
	out := make([]string, len(windowsServerYears))
	for i, y := range windowsServerYears {
		out[i] = y.build
	}
	return out
}

// WindowsServerYear is the year build is named by ("2022" for
// 10.0.20348), false for a build wink does not simulate.
func WindowsServerYear(build string) (string, bool) {
	for _, y := range windowsServerYears {
		if y.build == build {
			return y.year, true
		}
	}
	return "", false
}

// WindowsServerBuild is the build of Windows Server year ("10.0.20348"
// for 2022), false for a year wink does not simulate.
func WindowsServerBuild(year string) (string, bool) {
	for _, y := range windowsServerYears {
		if y.year == year {
			return y.build, true
		}
	}
	return "", false
}
