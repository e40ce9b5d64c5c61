package images

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"wink.dev/wink/fixtures"
)

var (
	ws2019 = Host{OS: Windows, Build: "10.0.17763"}
	ws2022 = Host{OS: Windows, Build: "10.0.20348"}
	ws2025 = Host{OS: Windows, Build: "10.0.26100"}
	linux  = Host{OS: Linux}
)

func hyperv(h Host) Host { h.Handler = "runhcs-wcow-hypervisor"; return h }

// TestDefaultCatalog proves the embedded fixtures/images.yaml loads, so
// Default never panics.
func TestDefaultCatalog(t *testing.T) {
	if _, err := Load(fixtures.Images); err != nil {
		t.Fatalf("fixtures/images.yaml: %v", err)
	}
	if Default() == nil {
		t.Fatal("Default() is nil")
	}
}

// TestEveryEntryPulls pulls every platform of every catalog entry, through
// an exact tag or a tag made from each glob, on a host of that platform, and
// checks the entry answers and gives that platform.
func TestEveryEntryPulls(t *testing.T) {
	var f file
	if err := yaml.UnmarshalStrict(fixtures.Images, &f); err != nil {
		t.Fatal(err)
	}
	c := Default()
	for i, e := range f.Images {
		for _, tag := range e.Tags {
			tag = strings.NewReplacer("*", "x", "?", "x").Replace(tag)
			ref := e.Repository + ":" + tag
			if e.Absent {
				_, err := c.Pull(ref, ws2022, nil, Options{})
				var pe *PullError
				if !errors.As(err, &pe) || !strings.Contains(pe.Message, "failed to resolve reference") {
					t.Errorf("images[%d] %s: absent image pulled: %v", i, ref, err)
				}
				continue
			}
			for j, p := range e.Platforms {
				host := Host{OS: p.OS, Build: p.Build}
				img, err := c.Pull(ref, host, nil, Options{Strict: true})
				if err != nil {
					t.Errorf("images[%d].platforms[%d] %s on %s %s: %v", i, j, ref, p.OS, p.Build, err)
					continue
				}
				if !img.Known || img.OS != p.OS || img.Build != p.Build || img.Size != p.Size {
					t.Errorf("images[%d].platforms[%d] %s: got %s %s size %d (known %v): another entry shadows this tag", i, j, ref, img.OS, img.Build, img.Size, img.Known)
				}
			}
		}
	}
}

// TestCoverage checks that the images the docs, the e2e tests and the
// cluster's addons use are in the catalog (Strict pulls succeed).
func TestCoverage(t *testing.T) {
	c := Default()
	cases := []struct {
		ref   string
		hosts []Host
	}{
		{"mcr.microsoft.com/windows/servercore:ltsc2019", []Host{ws2019}},
		{"mcr.microsoft.com/windows/servercore:1809", []Host{ws2019}},
		{"mcr.microsoft.com/windows/servercore:ltsc2022", []Host{ws2022, ws2025}},
		{"mcr.microsoft.com/windows/servercore:ltsc2025", []Host{ws2025}},
		{"mcr.microsoft.com/windows/nanoserver:1809", []Host{ws2019}},
		{"mcr.microsoft.com/windows/nanoserver:ltsc2019", []Host{ws2019}},
		{"mcr.microsoft.com/windows/nanoserver:ltsc2022", []Host{ws2022}},
		{"mcr.microsoft.com/windows/nanoserver:ltsc2025", []Host{ws2025}},
		{"mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2019", []Host{ws2019}},
		{"mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022", []Host{ws2022}},
		{"mcr.microsoft.com/windows/servercore/iis:ltsc2019", []Host{ws2019}},
		{"mcr.microsoft.com/windows/servercore/iis:ltsc2022", []Host{ws2022}},
		{"mcr.microsoft.com/windows/servercore/iis", []Host{ws2019, ws2022, ws2025}},
		{"mcr.microsoft.com/windows:ltsc2019", []Host{ws2019}},
		{"mcr.microsoft.com/oss/kubernetes/pause:3.9", []Host{ws2019, ws2022, ws2025, linux}},
		{"mcr.microsoft.com/oss/kubernetes/pause:1.4.1", []Host{ws2019}},
		{"registry.k8s.io/pause:3.10.1", []Host{ws2019, ws2022, ws2025, linux}},
		{"registry.k8s.io/e2e-test-images/agnhost:2.59", []Host{ws2019, ws2022, ws2025, linux}},
		{"registry.k8s.io/e2e-test-images/agnhost:2.55", []Host{ws2019, ws2022, ws2025, linux}},
		{"registry.k8s.io/e2e-test-images/busybox:1.37.0-1", []Host{ws2019, ws2022, ws2025, linux}},
		{"registry.k8s.io/e2e-test-images/nonroot:1.4", []Host{ws2019, ws2022, linux}},
		{"registry.k8s.io/e2e-test-images/resource-consumer:1.13", []Host{ws2019, ws2022, linux}},
		{"registry.k8s.io/e2e-test-images/nginx:1.14-4", []Host{linux}},
		{"mcr.microsoft.com/powershell:lts", []Host{ws2019, ws2022, ws2025, linux}},
		{"mcr.microsoft.com/powershell:lts-nanoserver-ltsc2022", []Host{ws2022}},
		{"nginx", []Host{linux}},
		{"nginx:1.27", []Host{linux}},
		{"busybox", []Host{linux}},
		{"alpine:3.20", []Host{linux}},
		{"ubuntu:24.04", []Host{linux}},
		{"registry.k8s.io/coredns/coredns:v1.12.1", []Host{linux}},
		{"registry.k8s.io/kube-proxy:v1.35.4", []Host{linux}},
	}
	for _, tc := range cases {
		for _, h := range tc.hosts {
			img, err := c.Pull(tc.ref, h, nil, Options{Strict: true})
			if err != nil {
				t.Errorf("%s on %s %s: %v", tc.ref, h.OS, h.Build, err)
				continue
			}
			if !img.Known {
				t.Errorf("%s: not from the catalog", tc.ref)
			}
		}
	}
}

// TestMessages is the table of every B4 and N8 outcome with its exact text.
func TestMessages(t *testing.T) {
	noMatch := func(ref string) string {
		return `rpc error: code = NotFound desc = failed to pull and unpack image "` + ref + `": no match for platform in manifest: not found`
	}
	c := Default()
	cases := []struct {
		name   string
		ref    string
		host   Host
		annots map[string]string
		opts   Options
		// want is the picked build (or "linux"), or the error string.
		build   string
		wantErr string
	}{
		{"B4 process: same build", "mcr.microsoft.com/windows/servercore:ltsc2019", ws2019, nil, Options{}, "10.0.17763", ""},
		{"B4 process: older image", "mcr.microsoft.com/windows/servercore:ltsc2019", ws2022, nil, Options{}, "", noMatch("mcr.microsoft.com/windows/servercore:ltsc2019")},
		{"B4 process: newer image", "mcr.microsoft.com/windows/nanoserver:ltsc2022", ws2019, nil, Options{}, "", noMatch("mcr.microsoft.com/windows/nanoserver:ltsc2022")},
		{"B4 process: 2025 host runs ltsc2022", "mcr.microsoft.com/windows/nanoserver:ltsc2022", ws2025, nil, Options{}, "10.0.20348", ""},
		{"B4 process: 2025 host does not run ltsc2019", "mcr.microsoft.com/windows/nanoserver:1809", ws2025, nil, Options{}, "", noMatch("mcr.microsoft.com/windows/nanoserver:1809")},
		{"B4 process: explicit handler", "mcr.microsoft.com/windows/nanoserver:1809", Host{OS: Windows, Build: "10.0.20348.1607", Handler: "runhcs-wcow-process"}, nil, Options{}, "", noMatch("mcr.microsoft.com/windows/nanoserver:1809")},
		{"B4 manifest list: own build", "mcr.microsoft.com/windows/servercore/iis", ws2022, nil, Options{}, "10.0.20348", ""},
		{"B4 hyperv: older image", "mcr.microsoft.com/windows/servercore:ltsc2019", hyperv(ws2022), nil, Options{}, "10.0.17763", ""},
		{"B4 hyperv: newer image", "mcr.microsoft.com/windows/servercore:ltsc2025", hyperv(ws2022), nil, Options{}, "", noMatch("mcr.microsoft.com/windows/servercore:ltsc2025")},
		{"B4 hyperv: manifest list prefers own build", "mcr.microsoft.com/windows/servercore/iis", hyperv(ws2025), nil, Options{}, "10.0.26100", ""},
		{"B4 hyperv: newest older build", "mcr.microsoft.com/oss/kubernetes/pause:1.4.1", hyperv(ws2022), nil, Options{}, "10.0.19041", ""},
		{"B4 linux image on windows", "nginx", ws2022, nil, Options{}, "", noMatch("docker.io/library/nginx:latest")},
		{"B4 linux image on windows under hyperv", "nginx:1.27", hyperv(ws2022), nil, Options{}, "", noMatch("docker.io/library/nginx:1.27")},
		{"B4 windows image on linux", "mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022", linux, nil, Options{}, "", noMatch("mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022")},
		{"B4 multi-OS on linux", "registry.k8s.io/e2e-test-images/agnhost:2.59", linux, nil, Options{}, "linux", ""},
		{"unknown: default windows", "example.com/app:1", ws2025, nil, Options{}, "10.0.26100", ""},
		{"unknown: default linux", "example.com/app:1", linux, nil, Options{}, "linux", ""},
		{"unknown: strict", "example.com/app:1", ws2022, nil, Options{Strict: true}, "",
			`rpc error: code = NotFound desc = failed to pull and unpack image "example.com/app:1": failed to resolve reference "example.com/app:1": example.com/app:1: not found`},
		{"unknown: declared older build", "example.com/app:1", ws2022, map[string]string{"wink.dev/image-os.c": "windows", "wink.dev/image-build.c": "10.0.17763"}, Options{Container: "c"}, "", noMatch("example.com/app:1")},
		{"unknown: declared older build under hyperv", "example.com/app:1", hyperv(ws2022), map[string]string{"wink.dev/image-build.c": "10.0.17763"}, Options{Container: "c"}, "10.0.17763", ""},
		{"unknown: declared linux on windows", "example.com/app:1", ws2022, map[string]string{"wink.dev/image-os.c": "linux"}, Options{Container: "c", Strict: true}, "", noMatch("example.com/app:1")},
		{"absent tag", "mcr.microsoft.com/windows/servercore:latest", ws2022, nil, Options{}, "",
			`rpc error: code = NotFound desc = failed to pull and unpack image "mcr.microsoft.com/windows/servercore:latest": failed to resolve reference "mcr.microsoft.com/windows/servercore:latest": mcr.microsoft.com/windows/servercore:latest: not found`},
		{"absent Docker Hub library repository", "webserver:404", ws2022, nil, Options{}, "",
			`rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/webserver:404": failed to resolve reference "docker.io/library/webserver:404": docker.io/library/webserver:404: not found`},
		{"invalid name", "Nginx", linux, nil, Options{}, "",
			`Failed to apply default image tag "Nginx": couldn't parse image name "Nginx": invalid reference format: repository name (library/Nginx) must be lowercase`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			img, err := c.Pull(tc.ref, tc.host, tc.annots, tc.opts)
			if tc.wantErr != "" {
				var pe *PullError
				if !errors.As(err, &pe) {
					t.Fatalf("got %+v, %v; want PullError %q", img, err, tc.wantErr)
				}
				if pe.Error() != tc.wantErr {
					t.Errorf("error\n got: %s\nwant: %s", pe.Error(), tc.wantErr)
				}
				wantReason := ReasonErrImagePull
				if strings.HasPrefix(tc.wantErr, "Failed to apply default image tag") {
					wantReason = ReasonInvalidImageName
				}
				if pe.Reason != wantReason {
					t.Errorf("reason %q, want %q", pe.Reason, wantReason)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := img.Build
			if img.OS == Linux {
				got = "linux"
			}
			if got != tc.build {
				t.Errorf("picked %q, want %q", got, tc.build)
			}
		})
	}

	sandbox := []struct {
		host Host
		want string
	}{
		{Host{OS: Windows, Build: "10.0.20348"}, ""},
		{Host{OS: Windows, Build: "10.0.20348", Handler: "runhcs-wcow-process"}, ""},
		{Host{OS: Windows, Build: "10.0.20348", Handler: "runhcs-wcow-hypervisor"}, ""},
		{Host{OS: Windows, Build: "10.0.17763", Handler: "docker"}, `rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for "docker" is configured`},
		{Host{OS: Windows, Build: "10.0.17763", Handler: "runc"}, `rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for "runc" is configured`},
		{Host{OS: Linux}, ""},
		{Host{OS: Linux, Handler: "runc"}, ""},
		{Host{OS: Linux, Handler: "runhcs-wcow-hypervisor"}, `rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for "runhcs-wcow-hypervisor" is configured`},
	}
	for _, tc := range sandbox {
		err := c.Sandbox(tc.host)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("N8 %s %q: %v", tc.host.OS, tc.host.Handler, err)
		case tc.want != "":
			var se *SandboxError
			if !errors.As(err, &se) || se.Error() != tc.want || se.Handler != tc.host.Handler {
				t.Errorf("N8 %s %q:\n got: %v\nwant: %s", tc.host.OS, tc.host.Handler, err, tc.want)
			}
		}
	}
}

// TestImageFields checks what the runtime reads from a pulled image.
func TestImageFields(t *testing.T) {
	c := Default()
	img, err := c.Pull("nginx", linux, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if img.Ref != "docker.io/library/nginx:latest" || img.ImageID() != "docker.io/library/nginx@"+img.Digest {
		t.Errorf("ref %q imageID %q", img.Ref, img.ImageID())
	}
	if fmt.Sprint(img.Ports) != "[80]" || img.Size != 72000000 {
		t.Errorf("ports %v size %d", img.Ports, img.Size)
	}
	// The repository digest is the manifest list's: the same on every node.
	a, _ := c.Pull("mcr.microsoft.com/windows/servercore/iis", ws2019, nil, Options{})
	b, _ := c.Pull("mcr.microsoft.com/windows/servercore/iis:latest", ws2022, nil, Options{})
	if a.Digest != b.Digest || a.ID == b.ID || !strings.HasPrefix(a.Digest, "sha256:") || len(a.Digest) != 71 {
		t.Errorf("digests: %s/%s ids %s/%s", a.Digest, b.Digest, a.ID, b.ID)
	}
	if fmt.Sprint(a.Entrypoint) != `[C:\ServiceMonitor.exe w3svc]` || a.User != "ContainerAdministrator" || fmt.Sprint(a.Ports) != "[80]" {
		t.Errorf("iis: %+v", a)
	}
	// By digest: the reference's own digest.
	const d = "sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31"
	img, err = c.Pull("nginx:1.27@"+d, linux, nil, Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if img.Ref != "docker.io/library/nginx@"+d || img.Digest != d {
		t.Errorf("by digest: %+v", img)
	}
	// Per-platform overrides: the e2e busybox is a shell on Linux, cmd.exe /s /c on Windows.
	lb, _ := c.Pull("registry.k8s.io/e2e-test-images/busybox:1.37.0-1", linux, nil, Options{})
	wb, _ := c.Pull("registry.k8s.io/e2e-test-images/busybox:1.37.0-1", ws2022, nil, Options{})
	if fmt.Sprintf("%v|%v|%v", lb.Cmd, lb.Entrypoint, lb.User) != "[sh]|[]|" || fmt.Sprintf("%v|%v|%v", wb.Cmd, wb.Entrypoint, wb.User) != "[]|[cmd.exe /s /c]|ContainerAdministrator" {
		t.Errorf("busybox linux %q %q %q windows %q %q %q", lb.Cmd, lb.Entrypoint, lb.User, wb.Cmd, wb.Entrypoint, wb.User)
	}
	// Nano Server runs as ContainerUser, Server Core as ContainerAdministrator (B9).
	n, _ := c.Pull("mcr.microsoft.com/windows/nanoserver:ltsc2022", ws2022, nil, Options{})
	s, _ := c.Pull("mcr.microsoft.com/windows/servercore:ltsc2022", ws2022, nil, Options{})
	if n.User != "ContainerUser" || s.User != "ContainerAdministrator" {
		t.Errorf("users: nanoserver %q servercore %q", n.User, s.User)
	}
	// A bad host is the caller's bug, not a PullError.
	var pe *PullError
	if _, err := c.Pull("nginx", Host{OS: "darwin"}, nil, Options{}); err == nil || errors.As(err, &pe) {
		t.Errorf("bad host OS: %v", err)
	}
	if _, err := c.Pull("nginx", Host{OS: Windows, Build: "2022"}, nil, Options{}); err == nil || errors.As(err, &pe) {
		t.Errorf("bad host build: %v", err)
	}
}

// TestLoadErrors checks that Load names the entry and field of a mistake.
func TestLoadErrors(t *testing.T) {
	base := `
unknown:
  windows: {user: ContainerAdministrator, size: 1}
  linux: {size: 1}
handlers:
- {os: windows, handler: "", isolation: process, cites: [N8]}
- {os: linux, handler: "", isolation: linux, cites: [N8]}
processIsolation:
- {host: "10.0.20348", images: ["10.0.20348"], cites: [B4]}
images:
`
	cases := []struct {
		name, images, want string
	}{
		{"valid", `- {repository: nginx, tags: ["*"], platforms: [{os: linux, size: 1}]}`, ""},
		{"bad repository", `- {repository: "Nginx", tags: ["*"], platforms: [{os: linux, size: 1}]}`, "images[0] (Nginx).repository: Invalid value"},
		{"repository with tag", `- {repository: "nginx:1", tags: ["*"], platforms: [{os: linux, size: 1}]}`, "images[0] (nginx:1).repository: Invalid value"},
		{"no tags", `- {repository: nginx, platforms: [{os: linux, size: 1}]}`, "images[0] (nginx).tags: Required value"},
		{"bad tag", `- {repository: nginx, tags: ["-x"], platforms: [{os: linux, size: 1}]}`, `images[0] (nginx).tags[0]: Invalid value: "-x"`},
		{"duplicate tag", "- {repository: nginx, tags: [a], platforms: [{os: linux, size: 1}]}\n- {repository: docker.io/library/nginx, tags: [a], platforms: [{os: linux, size: 1}]}", `images[1] (docker.io/library/nginx).tags[0]: Duplicate value: "a": already in images[0]`},
		{"no platforms", `- {repository: nginx, tags: [a], platforms: []}`, "images[0] (nginx).platforms: Required value"},
		{"bad os", `- {repository: nginx, tags: [a], platforms: [{os: darwin, size: 1}]}`, `images[0] (nginx).platforms[0].os: Unsupported value: "darwin"`},
		{"windows without build", `- {repository: x/y, tags: [a], platforms: [{os: windows, size: 1}]}`, `images[0] (x/y).platforms[0].build: Invalid value: ""`},
		{"linux with build", `- {repository: x/y, tags: [a], platforms: [{os: linux, build: "10.0.20348", size: 1}]}`, "images[0] (x/y).platforms[0].build: Forbidden"},
		{"duplicate platform", `- {repository: x/y, tags: [a], platforms: [{os: linux, size: 1}, {os: linux, size: 2}]}`, "images[0] (x/y).platforms[1]: Duplicate value"},
		{"zero size", `- {repository: x/y, tags: [a], platforms: [{os: linux}]}`, "images[0] (x/y).platforms[0].size: Invalid value: 0"},
		{"bad port", `- {repository: x/y, tags: [a], ports: [0], platforms: [{os: linux, size: 1}]}`, "images[0] (x/y).ports[0]: Invalid value: 0"},
		{"absent with platforms", `- {repository: x/y, tags: [a], absent: true, platforms: [{os: linux, size: 1}]}`, "images[0] (x/y).platforms: Forbidden"},
		{"unknown field", `- {repository: x/y, tags: [a], platform: [], platforms: [{os: linux, size: 1}]}`, `unknown field "platform"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load([]byte(base + tc.images))
			switch {
			case tc.want == "" && err != nil:
				t.Fatal(err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("got %v\nwant an error containing %q", err, tc.want)
			}
		})
	}

	base = strings.TrimSuffix(base, "\n")
	tables := []struct{ name, doc, want string }{
		{"no unknown", "images: []", "unknown.windows: Required value"},
		{"bad handler isolation", strings.Replace(base, "isolation: process", "isolation: linux", 1) + " []", `handlers[0] ("" on windows).isolation: Unsupported value: "linux"`},
		{"handler without cites", strings.Replace(base, "isolation: process, cites: [N8]", "isolation: process", 1) + " []", `handlers[0] ("" on windows).cites: Required value`},
		{"no default handler", strings.Replace(base, `handler: "", isolation: linux`, `handler: runc, isolation: linux`, 1) + " []", `the default handler "" for linux`},
		{"process image newer than host", strings.Replace(base, `images: ["10.0.20348"]`, `images: ["10.0.26100"]`, 1) + " []", "processIsolation[0] (host 10.0.20348).images[0]: Invalid value"},
	}
	for _, tc := range tables {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load([]byte(tc.doc))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v\nwant an error containing %q", err, tc.want)
			}
		})
	}
}
