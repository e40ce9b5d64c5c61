package wire

import (
	"testing"

	"wink.dev/wink/simnode/internal/pods"
)

func TestImageScript(t *testing.T) {
	nginx := []string{"/bin/sh", "-c", " cd /usr/share/nginx && ./nginx.exe"}
	for _, tc := range []struct {
		name string
		env  pods.Env
		argv []string
		want bool
	}{
		{"windows nginx image's own entrypoint", pods.Env{OS: "windows", ImageCommand: true}, nginx, true},
		{"the container's own sh command", pods.Env{OS: "windows"}, nginx, false},
		{"linux: sh simulated as before", pods.Env{OS: "linux", ImageCommand: true}, nginx, false},
		{"cmd entrypoint", pods.Env{OS: "windows", ImageCommand: true}, []string{"cmd.exe", "/s", "/c"}, false},
		{"sh.exe path", pods.Env{OS: "windows", ImageCommand: true}, []string{`C:\bin\SH.EXE`, "-c", "x"}, true},
	} {
		if got := imageScript(&tc.env, tc.argv); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
