package shell

import "testing"

// TestImageScript: a Windows image's own startup script run by busybox-w32
// sh runs until stopped (row E, all kubelet versions).
func TestImageScript(t *testing.T) {
	nginx := []string{"/bin/sh", "-c", " cd /usr/share/nginx && ./nginx.exe"}
	for _, tc := range []struct {
		name string
		os   OS
		s    Start
		argv []string
		want bool
	}{
		{"windows nginx image's own entrypoint", Windows, Start{ImageCommand: true}, nginx, true},
		{"the container's own sh command", Windows, Start{}, nginx, false},
		{"linux: sh simulated as before", Linux, Start{ImageCommand: true}, nginx, false},
		{"cmd entrypoint", Windows, Start{ImageCommand: true}, []string{"cmd.exe", "/s", "/c"}, false},
		{"sh.exe path", Windows, Start{ImageCommand: true}, []string{`C:\bin\SH.EXE`, "-c", "x"}, true},
	} {
		if got := imageScript(tc.os, tc.s, tc.argv); got != tc.want {
			t.Errorf("[E] %s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
