package facts

import (
	"slices"
	"testing"
)

// TestWindowsServerYears: each simulated build and its year, both ways
// (N2).
func TestWindowsServerYears(t *testing.T) {
	if got := WindowsBuilds(); !slices.Equal(got, []string{"10.0.17763", "10.0.20348", "10.0.26100"}) {
		t.Fatalf("[N2] builds %v", got)
	}
	for _, tc := range []struct{ build, year string }{{"10.0.17763", "2019"}, {"10.0.20348", "2022"}, {"10.0.26100", "2025"}} {
		if y, ok := WindowsServerYear(tc.build); !ok || y != tc.year {
			t.Errorf("[N2] year of %s: %q %v, want %s", tc.build, y, ok, tc.year)
		}
		if b, ok := WindowsServerBuild(tc.year); !ok || b != tc.build {
			t.Errorf("[N2] build of %s: %q %v, want %s", tc.year, b, ok, tc.build)
		}
	}
	if _, ok := WindowsServerYear("10.0.1"); ok {
		t.Error("[N2] 10.0.1 has a year")
	}
	if _, ok := WindowsServerBuild("2016"); ok {
		t.Error("[N2] 2016 has a build")
	}
	if DefaultWindowsBuild != WindowsServer2022 {
		t.Error("[N2] the default build is not Windows Server 2022")
	}
}
