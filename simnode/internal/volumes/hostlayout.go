package volumes

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"

	"sigs.k8s.io/yaml"
	"wink.dev/wink/simnode/facts"
)

// hostLayoutYAML is the host layout of every simulated node (see its
// header): what hostPath volumes of node agents and CSI plugins find there.
//
//go:embed hostlayout.yaml
var hostLayoutYAML []byte

// HostEntry is one entry of a node's host layout.
type HostEntry struct {
	Path    string `json:"path"`
	Kind    string `json:"kind"`
	Content string `json:"content,omitempty"`
}

// HostLayout is hostlayout.yaml: entries per OS.
type HostLayout struct {
	Windows []HostEntry `json:"windows"`
	Linux   []HostEntry `json:"linux"`
}

var hostKinds = map[string]fileKind{"dir": kindDir, "file": kindFile, "socket": kindSocket, "chardev": kindCharDev, "blockdev": kindBlockDev}

// LoadHostLayout parses and validates a host layout; errors name the entry
// and field.
func LoadHostLayout(data []byte) (*HostLayout, error) {
	var l HostLayout
	if err := yaml.UnmarshalStrict(data, &l); err != nil {
		return nil, fmt.Errorf("hostlayout.yaml: %w", err)
	}
	var errs []string
	check := func(os facts.OS, entries []HostEntry) {
		win := os.IsWindows()
		seen := map[string]int{}
		for i, e := range entries {
			where := fmt.Sprintf("%s[%d] (%s)", os, i, e.Path)
			if _, ok := hostKinds[e.Kind]; !ok && !(win && e.Kind == "pipe") {
				errs = append(errs, fmt.Sprintf("%s.kind: Unsupported value: %q: supported values: dir, file, socket, chardev, blockdev (and pipe on windows)", where, e.Kind))
				continue
			}
			if e.Content != "" && e.Kind != "file" {
				errs = append(errs, fmt.Sprintf("%s.content: Forbidden: only files have content", where))
			}
			key := strings.ToLower(e.Path)
			if e.Kind != "pipe" {
				vp, err := parsePath(win, e.Path)
				if err != nil || vp.pipe != "" || (win && vp.drive != 'C') || len(vp.parts) == 0 {
					errs = append(errs, fmt.Sprintf("%s.path: Invalid value: %q: an absolute host path (on C: for windows)", where, e.Path))
					continue
				}
				key = strings.ToLower(strings.Join(vp.parts, "/"))
			} else if strings.ContainsAny(e.Path, `\/`) {
				errs = append(errs, fmt.Sprintf("%s.path: Invalid value: %q: a pipe's name, without \\\\.\\pipe\\", where, e.Path))
			}
			if j, dup := seen[key]; dup {
				errs = append(errs, fmt.Sprintf("%s.path: Duplicate value: already %s[%d]", where, os, j))
			}
			seen[key] = i
		}
	}
	check(facts.Windows, l.Windows)
	check(facts.Linux, l.Linux)
	if len(errs) > 0 {
		return nil, fmt.Errorf("hostlayout.yaml: %s", strings.Join(errs, "; "))
	}
	return &l, nil
}

var defaultHostLayout = sync.OnceValue(func() *HostLayout {
	l, err := LoadHostLayout(hostLayoutYAML)
	if err != nil {
		panic(err) // TestHostLayout rules this out
	}
	return l
})

// seedLayout creates the host layout of n's OS on its disk.
func (n *Node) seedLayout() {
	entries := defaultHostLayout().Linux
	if n.win {
		entries = defaultHostLayout().Windows
	}
	for _, e := range entries {
		if e.Kind == "pipe" {
			n.pipes[strings.ToLower(e.Path)] = e.Path
			continue
		}
		vp, _ := parsePath(n.win, e.Path)
		if e.Kind == "dir" {
			_ = n.host.mkdirAll(vp.parts)
			continue
		}
		_ = n.host.put(vp.parts, hostKinds[e.Kind], []byte(e.Content), 0o644)
	}
}
