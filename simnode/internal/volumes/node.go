package volumes

import (
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"wink.dev/wink/simnode/facts"
)

// HostProcessLayout is where a HostProcess container's own volume (its image
// files) and its volume mounts appear, i.e. the value of
// $env:CONTAINER_SANDBOX_MOUNT_POINT (row B10). It depends on the hcsshim
// shipped with the node's containerd.
type HostProcessLayout int

const (
	// LayoutBindFilter is hcsshim >= 0.10 (containerd >= 1.7) on hosts with
	// the bind filter driver (the default): the sandbox mount point is
	// `C:\hpc\` inside the container's silo, and every volume mount appears
	// both at its mountPath (C:\etc\x for "/etc/x") and under the sandbox
	// mount point (C:\hpc\etc\x). hcsshim internal/jobcontainers:
	// defaultSiloRootfsLocation = `C:\hpc\`; mounts.go setupMounts.
	LayoutBindFilter HostProcessLayout = iota
	// LayoutNoBindFilter is hcsshim >= 0.10 without the bind filter:
	// `C:\hpc\<containerID>\`, mounts only under it (fallbackRootfsFormat).
	LayoutNoBindFilter
	// LayoutLegacy is hcsshim 0.9 (containerd 1.6): `C:\C\<containerID>\`,
	// mounts only under it (sandboxMountFormat).
	LayoutLegacy
)

// Node is one simulated node's host file system: hostPath volumes and named
// pipes (\\.\pipe\...) live here and are shared by every pod of the node;
// HostProcess containers (B10) see it directly. Safe for concurrent use.
type Node struct {
	win  bool
	os   facts.OS
	host *store

	mu            sync.Mutex
	now           func() time.Time
	pipes         map[string]string // folded name -> name
	claims        map[string]*store // namespace/claim -> disk
	allocatable   corev1.ResourceList
	clusterDomain string
	hostname      string
	layout        HostProcessLayout
	stateDir      string // persist.go
}

// NewNode returns the host file system of a node of os (anything but
// Windows is treated as Linux). It holds the kubelet's and
// containerd's host layout (hostlayout.yaml: C:\var\lib\kubelet\plugins_registry,
// /var/log/pods, /run/containerd/containerd.sock, ...) and, on Windows,
// C:\Windows\System32 and the named pipe \\.\pipe\containerd-containerd.
func NewNode(os facts.OS) *Node {
	n := &Node{
		win:           os.IsWindows(),
		os:            os,
		now:           time.Now,
		pipes:         map[string]string{},
		claims:        map[string]*store{},
		clusterDomain: "cluster.local",
	}
	if !n.win {
		n.os = facts.Linux
	}
	n.host = newStore(n.win, n.clock)
	n.seed()
	return n
}

func (n *Node) clock() time.Time {
	n.mu.Lock()
	now := n.now
	n.mu.Unlock()
	return now()
}

// SetClock sets the clock used for modification times and token refresh.
func (n *Node) SetClock(now func() time.Time) {
	n.mu.Lock()
	n.now = now
	n.mu.Unlock()
}

// SetAllocatable sets the node allocatable that downward API
// resourceFieldRef limits default to when a container has no limit
// (MergeContainerResourceLimits, pkg/api/v1/resource/helpers.go:189).
func (n *Node) SetAllocatable(rl corev1.ResourceList) {
	n.mu.Lock()
	n.allocatable = rl.DeepCopy()
	n.mu.Unlock()
}

// SetClusterDomain sets the cluster domain used for the managed hosts file of
// pods with a subdomain (default cluster.local).
func (n *Node) SetClusterDomain(d string) {
	n.mu.Lock()
	n.clusterDomain = d
	n.mu.Unlock()
}

// SetHostname sets the node name: the hostname of host-network pods.
func (n *Node) SetHostname(name string) {
	n.mu.Lock()
	n.hostname = name
	n.mu.Unlock()
	if !n.win {
		_ = n.host.put([]string{"etc", "hostname"}, kindFile, []byte(name+"\n"), 0o644)
	}
}

// SetHostProcessLayout selects where HostProcess volumes appear (row B10).
func (n *Node) SetHostProcessLayout(l HostProcessLayout) {
	n.mu.Lock()
	n.layout = l
	n.mu.Unlock()
}

// OS is the node's: Windows or Linux.
func (n *Node) OS() facts.OS { return n.os }

// AddNamedPipe makes \\.\pipe\<name> exist on the node (for example
// "docker_engine" on a node that also runs Docker).
func (n *Node) AddNamedPipe(name string) {
	name = strings.TrimPrefix(strings.ReplaceAll(name, "/", `\`), `\\.\pipe\`)
	n.mu.Lock()
	n.pipes[strings.ToLower(name)] = name
	n.mu.Unlock()
}

// HasNamedPipe reports whether \\.\pipe\<name> exists on the node.
func (n *Node) HasNamedPipe(name string) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	_, ok := n.pipes[strings.ToLower(name)]
	return ok
}

// MkdirAll creates a directory on the host (test fixtures, node setup).
func (n *Node) MkdirAll(path string) error {
	vp, err := n.hostPath(path)
	if err != nil {
		return err
	}
	return n.host.mkdirAll(vp.parts)
}

// WriteFile creates or replaces a file on the host, creating its parents.
func (n *Node) WriteFile(path string, data []byte) error {
	vp, err := n.hostPath(path)
	if err != nil {
		return err
	}
	return n.host.put(vp.parts, kindFile, data, 0o644)
}

// ReadFile reads a file on the host.
func (n *Node) ReadFile(path string) ([]byte, error) {
	vp, err := n.hostPath(path)
	if err != nil {
		return nil, err
	}
	data, kind, err := n.host.readFile(vp.parts)
	if err == nil && kind == kindDir {
		return nil, errIsDir(n.win)
	}
	return data, err
}

// hostPath parses a host path; the host has only drive C: (or /).
func (n *Node) hostPath(path string) (vpath, error) {
	vp, err := parsePath(n.win, path)
	if err != nil {
		return vp, err
	}
	if vp.pipe != "" || (n.win && vp.drive != 'C') {
		return vp, fs.ErrNotExist
	}
	return vp, nil
}

// claim returns the simulated disk of a PersistentVolumeClaim on this node.
func (n *Node) claim(namespace, name string) *store {
	fresh := newStore(n.win, n.clock) // outside n.mu: newStore reads the clock
	n.mu.Lock()
	defer n.mu.Unlock()
	k := namespace + "/" + name
	if s := n.claims[k]; s != nil {
		return s
	}
	n.claims[k] = fresh
	if n.stateDir != "" {
		fresh.persist(filepath.Join(n.stateDir, "claims", namespace+"_"+name+".json"))
	}
	return fresh
}

func (n *Node) settings() (corev1.ResourceList, string, string, HostProcessLayout) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.allocatable, n.clusterDomain, n.hostname, n.layout
}

// windowsHostsTemplate is the hosts file every Windows installation ships.
const windowsHostsTemplate = "# Copyright (c) 1993-2009 Microsoft Corp.\r\n" +
	"#\r\n" +
	"# This is a sample HOSTS file used by Microsoft TCP/IP for Windows.\r\n" +
	"#\r\n" +
	"# This file contains the mappings of IP addresses to host names. Each\r\n" +
	"# entry should be kept on an individual line. The IP address should\r\n" +
	"# be placed in the first column followed by the corresponding host name.\r\n" +
	"# The IP address and the host name should be separated by at least one\r\n" +
	"# space.\r\n" +
	"#\r\n" +
	"# Additionally, comments (such as these) may be inserted on individual\r\n" +
	"# lines or following the machine name denoted by a '#' symbol.\r\n" +
	"#\r\n" +
	"# For example:\r\n" +
	"#\r\n" +
	"#      102.54.94.97     rhino.acme.com          # source server\r\n" +
	"#       38.25.63.10     x.acme.com              # x client host\r\n" +
	"\r\n" +
	"# localhost name resolution is handled within DNS itself.\r\n" +
	"#\t127.0.0.1       localhost\r\n" +
	"#\t::1             localhost\r\n"

var windowsSystem32 = []string{
	"cmd.exe", "curl.exe", "hostname.exe", "ipconfig.exe", "netsh.exe", "nltest.exe",
	"nslookup.exe", "ping.exe", "reg.exe", "tar.exe", "whoami.exe", "xcopy.exe",
	"findstr.exe", "tasklist.exe", "taskkill.exe", "where.exe", "certutil.exe",
}

func seedWindowsBase(s *store, powershell bool) {
	put := func(path string, data string) {
		_ = s.put(clean(strings.Split(path, `\`)), kindFile, []byte(data), 0o644)
	}
	for _, exe := range windowsSystem32 {
		put(`Windows\System32\`+exe, "MZ")
	}
	put(`Windows\System32\drivers\etc\hosts`, windowsHostsTemplate)
	put(`Windows\System32\drivers\etc\networks`, "# Copyright (c) 1993-1999 Microsoft Corp.\r\n")
	put(`Windows\System32\drivers\etc\protocol`, "# Copyright (c) 1993-2006 Microsoft Corp.\r\n")
	put(`Windows\System32\drivers\etc\services`, "# Copyright (c) 1993-2004 Microsoft Corp.\r\n")
	if powershell {
		put(`Windows\System32\WindowsPowerShell\v1.0\powershell.exe`, "MZ")
	}
	for _, d := range []string{`Windows\Temp`, `Program Files`, `Program Files (x86)`, `ProgramData`, `Users\Public`} {
		_ = s.mkdirAll(clean(strings.Split(d, `\`)))
	}
}

func (n *Node) seed() {
	if n.win {
		seedWindowsBase(n.host, true)
	} else {
		_ = n.host.put([]string{"etc", "os-release"}, kindFile, []byte(linuxOSRelease), 0o644)
	}
	n.seedLayout() // hostlayout.yaml
}

const linuxOSRelease = `PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"
NAME="Debian GNU/Linux"
VERSION_ID="12"
VERSION="12 (bookworm)"
VERSION_CODENAME=bookworm
ID=debian
HOME_URL="https://www.debian.org/"
SUPPORT_URL="https://www.debian.org/support"
BUG_REPORT_URL="https://bugs.debian.org/"
`
