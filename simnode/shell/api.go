package shell

import (
	"context"
	"time"

	"wink.dev/wink/simnode/shell/process"
	"wink.dev/wink/simnode/shell/programs/network"
)

// The types a container's shell is built from; they live in the leaf
// package process, shared with the interpreters.
type (
	// OS selects the shell a container gets (facts.OS).
	OS = process.OS
	// Env is everything a simulated command can observe of its container.
	Env = process.Env
	// FS is a container file system.
	FS = process.FS
	// VolumeFS is an FS that tells which paths lie in a volume wink
	// simulates.
	VolumeFS = process.VolumeFS
	// Network is the simulated cluster network as seen from one container.
	Network = process.Network
	// NetConfig is a container's network configuration.
	NetConfig = process.NetConfig
	// HTTPResponse is a simulated HTTP response.
	HTTPResponse = process.HTTPResponse
	// HTTPClient is a Network that carries a Go program's HTTP requests.
	HTTPClient = process.HTTPClient
	// HTTPRequest is a request of an HTTPClient.
	HTTPRequest = process.HTTPRequest
	// DNSClient is a Network that carries DNS messages (dig).
	DNSClient = process.DNSClient
	// DNSReply is a DNS server's answer to one question.
	DNSReply = process.DNSReply
	// DNSRecord is one resource record in presentation form.
	DNSRecord = process.DNSRecord
	// Power shuts the node's machine down or reboots it.
	Power = process.Power
	// CPUMeter counts busy threads.
	CPUMeter = process.CPUMeter
	// MemoryMeter counts memory held.
	MemoryMeter = process.MemoryMeter
	// LocalAccounts are the local groups of a machine (net localgroup).
	LocalAccounts = process.LocalAccounts
	// MemAccounts are LocalAccounts held in memory.
	MemAccounts = process.MemAccounts
	// Image is what wink knows of an image's programs.
	Image = process.Image
	// InBoxFile is inbox.yaml.
	InBoxFile = process.InBoxFile
	// Listener is a port a command listens on.
	Listener = network.Listener
	// BodySender is a Network whose HTTP requests carry a body.
	BodySender = process.BodySender
)

// Operating systems.
const (
	Windows = process.Windows
	Linux   = process.Linux
)

// Exit codes shared by the interpreters.
const (
	ExitKilledWindows = process.ExitKilledWindows
	ExitKilledLinux   = process.ExitKilledLinux
	ExitCmdNotFound   = process.ExitCmdNotFound
	ExitShNotFound    = process.ExitShNotFound
	ExitCannotExec    = process.ExitCannotExec
)

// DNS response codes.
const (
	RcodeNoError  = process.RcodeNoError
	RcodeNXDomain = process.RcodeNXDomain
	RcodeServFail = process.RcodeServFail
	RcodeRefused  = process.RcodeRefused
)

// Network errors a Network returns; commands turn them into the messages
// the real tools print.
var (
	ErrNameNotFound  = process.ErrNameNotFound
	ErrRefused       = process.ErrRefused
	ErrUnreachable   = process.ErrUnreachable
	ErrTimeout       = process.ErrTimeout
	ErrUntrustedCert = process.ErrUntrustedCert
)

// Listens reports the TCP ports the command argv would listen on.
func Listens(argv []string) []int { return network.Listens(argv) }

// Listeners is Listens with protocols (netexec's UDP port too).
func Listeners(argv []string) []Listener { return network.Listeners(argv) }

// ShutdownDelay reports how long argv keeps running after SIGTERM before it
// exits with 0 by itself (agnhost netexec --delay-shutdown).
func ShutdownDelay(argv []string) (time.Duration, bool) { return network.ShutdownDelay(argv) }

// ImageOf is what wink knows of the programs of image ref on os.
func ImageOf(os OS, ref string, hostProcess bool) Image {
	return process.ImageOf(os, ref, hostProcess)
}

// Tool reports whether argv0 is a command-line tool that ends (inbox.yaml
// tools).
func Tool(os OS, argv0 string) bool { return process.Tool(os, argv0) }

// InBoxCmdlet returns the in-box module of a PowerShell cmdlet wink does
// not simulate.
func InBoxCmdlet(name string) (module string, ok bool) { return process.InBoxCmdlet(name) }

// LoadInBox parses and checks inbox.yaml.
func LoadInBox(data []byte) (*InBoxFile, error) { return process.LoadInBox(data) }

// RunUntilStopped runs a program wink does not simulate (an image's own
// ENTRYPOINT): no output, until ctx is done.
func RunUntilStopped(ctx context.Context, env *Env) int { return process.RunUntilStopped(ctx, env) }
