package volumes

import (
	"bytes"
	"context"
	"regexp"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/simnode/shell"
)

// TestAtomicVolumeInContainers runs the tools scripts use on a mounted
// configMap volume, with the real shells over the container's FS; the
// expected listings are the kubelet's layout as each tool prints it:
// busybox ls -la (lrwxrwxrwx ... key -> ..data/key, the timestamped
// directory drwxr-xr-x; kubernetes/kubernetes#52419 shows one),
// readlink (https://busybox.net/downloads/BusyBox.html#readlink), cmd's
// dir (<SYMLINKD> ..data [..2026_...] and <SYMLINK> key [..data\key], as
// moby/moby#38220 shows a link), Get-ChildItem's Mode (d----l for a link
// to a directory, -a---l for a link to a file: "l (link)",
// https://learn.microsoft.com/powershell/module/microsoft.powershell.management/get-childitem).
func TestAtomicVolumeInContainers(t *testing.T) {
	cases := []struct {
		name  string
		os    facts.OS
		mount string
		argv  []string
		want  []string // regexps, each must match a line of stdout, in order
	}{
		{"ls -la", facts.Linux, "/etc/config", []string{"sh", "-c", "ls -la /etc/config"}, []string{
			`^drwxr-xr-x +\d+ root +root +\d+ Nov 28 08:40 \.\.2026_11_28_08_40_00\.\d+$`,
			`^lrwxrwxrwx +1 root +root +31 Nov 28 08:40 \.\.data -> \.\.2026_11_28_08_40_00\.\d+$`,
			`^lrwxrwxrwx +1 root +root +22 Nov 28 08:40 game\.properties -> \.\.data/game\.properties$`,
		}},
		{"ls", facts.Linux, "/etc/config", []string{"sh", "-c", "ls /etc/config"}, []string{`^game\.properties$`, `^ui\.properties$`}},
		{"ls -l ..data", facts.Linux, "/etc/config", []string{"sh", "-c", "ls -l /etc/config/..data/"}, []string{
			`^-r--r--r-- +1 root +root +22 Nov 28 08:40 game\.properties$`,
		}},
		{"readlink", facts.Linux, "/etc/config", []string{"sh", "-c", "readlink /etc/config/game.properties; readlink /etc/config/..data; readlink -f /etc/config/ui.properties; readlink /etc/config/..data/ui.properties || echo notalink $?"}, []string{
			`^\.\.data/game\.properties$`, `^\.\.2026_11_28_08_40_00\.\d+$`, `^/etc/config/\.\.2026_11_28_08_40_00\.\d+/ui\.properties$`, `^notalink 1$`,
		}},
		{"cat", facts.Linux, "/etc/config", []string{"sh", "-c", "cat /etc/config/game.properties; echo; test -L /etc/config/game.properties && echo link; test -f /etc/config/game.properties && echo file"}, []string{
			`^enemies=aliens$`, `^lives=3$`, `^link$`, `^file$`,
		}},
		{"dir", facts.Windows, `C:\config`, []string{"cmd", "/c", `dir C:\config`}, []string{
			`^11/28/2026  08:40 AM    <DIR>          \.\.2026_11_28_08_40_00\.\d+$`,
			`^11/28/2026  08:40 AM    <SYMLINKD>     \.\.data \[\.\.2026_11_28_08_40_00\.\d+\]$`,
			`^11/28/2026  08:40 AM    <SYMLINK>      game\.properties \[\.\.data\\game\.properties\]$`,
		}},
		{"Get-ChildItem", facts.Windows, `C:\config`, []string{"powershell", "-Command", `Get-ChildItem C:\config | ForEach-Object { $_.Mode + ' ' + $_.Name }`}, []string{
			`^d----- \.\.2026_11_28_08_40_00\.\d+$`, `^d----l \.\.data$`, `^-a---l game\.properties$`,
		}},
		{"Get-Content", facts.Windows, `C:\config`, []string{"powershell", "-Command", `Get-Content C:\config\game.properties`}, []string{`^enemies=aliens$`, `^lives=3$`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := newSource()
			src.setCM("ns", "game-config", map[string]string{"game.properties": "enemies=aliens\nlives=3", "ui.properties": "color.good=purple"})
			node := NewNode(tc.os)
			node.SetClock(func() time.Time { return time.Date(2026, 11, 28, 8, 40, 0, 0, time.UTC) })
			v := corev1.Volume{Name: "cfg", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
				LocalObjectReference: corev1.LocalObjectReference{Name: "game-config"}, DefaultMode: ptr(int32(0o444))}}}
			c := corev1.Container{Name: "c", Image: "busybox", VolumeMounts: []corev1.VolumeMount{{Name: "cfg", MountPath: tc.mount}}}
			if tc.os == facts.Windows {
				c.Image = "mcr.microsoft.com/windows/servercore:ltsc2022"
			}
			p := mustPod(t, winPod([]corev1.Volume{v}, c), node, src)
			var out, errOut bytes.Buffer
			env := &shell.Env{OS: tc.os, Files: p.FS("c"), Now: node.clock}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			code := shell.Run(ctx, env, tc.argv, nil, &out, &errOut)
			lines := regexp.MustCompile(`\r?\n`).Split(out.String(), -1)
			i := 0
			for _, w := range tc.want {
				re := regexp.MustCompile(w)
				for i < len(lines) && !re.MatchString(lines[i]) {
					i++
				}
				if i == len(lines) {
					t.Errorf("no line matches %s (exit %d)\nstdout:\n%s\nstderr:\n%s", w, code, out.String(), errOut.String())
					return
				}
				i++
			}
		})
	}
}
