package process

import (
	"context"
	"io/fs"
	"net/netip"
	"time"

	"wink.dev/wink/simnode/facts"
)

// OS selects the shell a container gets: cmd and PowerShell on Windows, a
// small POSIX sh on Linux (facts.OS).
type OS = facts.OS

// Operating systems.
const (
	Windows = facts.Windows
	Linux   = facts.Linux
)

// Env is everything a simulated command can observe of its container. The
// provider builds one per container; commands never reach the real machine.
type Env struct {
	OS OS
	// Completes: the command is one that runs to completion: run in a
	// running container (a probe, a hook, kubectl exec), or the process of
	// an init container or of a pod that does not restart (a Job's). A
	// program of an open image that wink does not simulate then ends at
	// once with 0, as such commands do, instead of running until stopped.
	Completes bool
	// Hostname is what `hostname` prints: the pod name, or the node name for
	// HostProcess containers (row B10).
	Hostname string
	// User is what `whoami` prints (Windows: e.g. "ContainerUser", printed by
	// whoami as `user manager\containeruser`; see row B9 and upstream
	// test/e2e/windows/security_context.go for the exact output).
	User string
	// Vars are the container's environment variables (already expanded by
	// the kubelet rules), visible to %VAR%, $env:VAR, $VAR and `set`.
	Vars map[string]string
	// Files is the container's file system: image files plus volume mounts.
	Files FS
	// Net answers everything network-related.
	Net Network
	// Interfaces describes the container's network configuration for
	// `ipconfig /all` and `ip addr`.
	Interfaces NetConfig
	// GMSA is the credential spec's domain for `nltest /PARENTDOMAIN` ("" when
	// the pod has no GMSA credential spec).
	GMSADomain string
	// Now is the simulated clock (for Start-Sleep, ping timings).
	Now func() time.Time
	// Sleep waits for d or until ctx is done (a fake clock in tests).
	Sleep func(ctx context.Context, d time.Duration) error
	// Dir is the working directory (the container's workingDir); "" means
	// C:\ on Windows and / on Linux. Relative paths resolve against it.
	Dir string
	// Image is what wink knows of the image's programs (openworld.go); the
	// zero value: exactly the shell's tables.
	Image Image
	// OSVersion is the Windows version `ver` and cmd's banner print
	// (nodeInfo.kernelVersion, row N3, e.g. "10.0.20348.1607"); "" means
	// 10.0.20348.2655.
	OSVersion string
	// CPU counts the container's threads that compute (a busy loop): each
	// demands a whole core, which the node's CPU limit then caps (row B7).
	// Nil: not counted.
	CPU CPUMeter
	// Memory counts the bytes the container's programs hold (testlimit):
	// its working set and commit grow by them (rows B5, B6). Nil: not
	// counted.
	Memory MemoryMeter
	// Power is the node machine's power, as shutdown.exe reaches it from
	// a HostProcess container (rows B15, N3). Nil in other containers.
	Power Power
	// Accounts are the local groups net.exe manages: the node's for a
	// HostProcess container (B10); nil gives a container its own.
	Accounts LocalAccounts
	// BootTime is when the machine booted (Win32_OperatingSystem
	// LastBootUpTime); zero: the process's start.
	BootTime time.Time
	// Limits bound the process's memory and pace (limits.go).
	Limits Limits
	// Tracer hears of what ran without being simulated (limits.go); nil:
	// nobody.
	Tracer Tracer
}

// MemoryMeter counts memory held.
type MemoryMeter interface {
	Use(delta int64)
}

// CPUMeter counts busy threads.
type CPUMeter interface {
	Busy(delta int)
}

// Power shuts the node's machine down or reboots it.
type Power interface {
	// Schedule shuts the machine down after delay (reboot: and boots it
	// again); a second Schedule while one is pending fails.
	Schedule(reboot bool, delay time.Duration) error
	// Abort cancels the pending shutdown; false when none is pending.
	Abort() bool
}

// FS is a container file system. Paths are as the container sees them
// (C:\dir\file on Windows, /dir/file on Linux).
type FS interface {
	// ReadFile returns the file's contents, fs.ErrNotExist, or
	// fs.ErrPermission.
	ReadFile(path string) ([]byte, error)
	// WriteFile creates or replaces a file; fs.ErrPermission on a read-only
	// mount (row B11: cmd prints exactly "Access is denied.").
	WriteFile(path string, data []byte) error
	// ReadDir lists a directory.
	ReadDir(path string) ([]fs.DirEntry, error)
}

// Remover is an FS that can delete: a file, or a directory with all under
// it (rm, rm -r). fs.ErrNotExist when nothing is there, fs.ErrPermission
// on a read-only mount (row B11).
type Remover interface {
	Remove(path string) error
}

// Mkdirer is an FS that creates directories: the directory with its
// missing parents (cmd's md/mkdir with command extensions, mkdir -p,
// New-Item -ItemType Directory). An existing directory is no error;
// fs.ErrPermission on a read-only mount (row B11).
type Mkdirer interface {
	MkdirAll(path string) error
}

// Symlinks is an FS with symbolic links: the kubelet's atomic-writer
// layout of configMap, secret, downwardAPI and projected volumes (`..data`
// and one link per key), ln -s, mklink. FS's methods follow links. Lstat
// describes the entry itself (fs.ModeSymlink for a link, whose Size is the
// target's length; fs.ModeIrregular for a Windows junction, as Go's
// os.Lstat reports a mount point), Stat what the path leads to; Readlink
// returns a link's or a junction's target as written (an error satisfying
// fs.ErrInvalid when the path is no link); Symlink makes one (fs.ErrExist
// when something is there, fs.ErrPermission on a read-only mount).
type Symlinks interface {
	Lstat(path string) (fs.FileInfo, error)
	Stat(path string) (fs.FileInfo, error)
	Readlink(path string) (string, error)
	Symlink(target, path string) error
}

// Junctions is a Windows FS with directory junctions (mklink /J, New-Item
// -ItemType Junction): a mount point reparse point whose target is an
// absolute path, followed like a symbolic link; Junction fails as Symlink
// does.
type Junctions interface {
	Junction(target, path string) error
}

// NetConfig is a container's network configuration.
type NetConfig struct {
	IP         netip.Addr
	Gateway    netip.Addr
	PrefixLen  int
	DNSServers []netip.Addr
	// DNSSuffixes: Windows pods get exactly one (row H2), Linux pods the
	// full search list.
	DNSSuffixes []string
	// Ndots applies to Linux resolution (resolv.conf options ndots:5).
	Ndots int
}

// Network is the simulated cluster network as seen from one container
// (implemented by simnode/network with the HNS rules H1–H9).
type Network interface {
	// Resolve looks a name up the way the container's resolver would (row
	// H2: single suffix on Windows, search list and ndots on Linux).
	// It returns ErrNameNotFound when the name does not resolve.
	Resolve(ctx context.Context, name string) ([]netip.Addr, error)
	// Dial reports whether a TCP or UDP connection to addr:port succeeds
	// (rows H1, H5, H6). A refused or unreachable target returns an error
	// that says which (ErrRefused, ErrUnreachable, ErrTimeout).
	Dial(ctx context.Context, proto string, addr netip.Addr, port int) error
	// Ping reports whether an ICMP echo to addr is answered (row H4: not
	// beyond the cluster network from Windows pods).
	Ping(ctx context.Context, addr netip.Addr) (rtt time.Duration, err error)
	// HTTP performs a simulated HTTP request to a listening container or
	// Service and returns the response (status, headers, body).
	HTTP(ctx context.Context, method, url string, insecure bool) (*HTTPResponse, error)
}

// HTTPResponse is a simulated HTTP response.
type HTTPResponse struct {
	Status  int
	Headers map[string]string
	Body    []byte
}

// HTTPClient is a Network that carries the requests of a Go program's
// http.Client (agnhost's in-cluster clients): request headers, and the
// certificate authorities the client trusts instead of an insecure flag.
type HTTPClient interface {
	// Do sends req through the container's network path (rows H1–H6) and
	// returns the response; an https server whose certificate req's roots
	// do not verify is ErrUntrustedCert.
	Do(ctx context.Context, req *HTTPRequest) (*HTTPResponse, error)
}

// HTTPRequest is a request of an HTTPClient.
type HTTPRequest struct {
	Method string
	URL    string
	Header map[string]string
	// RootCAs are the PEM certificates the client trusts (in-cluster: the
	// service account's ca.crt); empty: the system's roots.
	RootCAs []byte
}
