package pods

import (
	"strings"
	"sync/atomic"
	"time"

	"wink.dev/wink/simnode/facts"
	"wink.dev/wink/simnode/shell/process"
)

// What a container sees of its node's machine beyond its own sandbox: the
// threads it keeps busy (row B7), and, for HostProcess containers (B10),
// the machine's local groups and power switch.

// HostConfig is the node machine as HostProcess containers reach it.
type HostConfig struct {
	// Accounts are the node's local groups (a shell.LocalAccounts). A
	// HostProcess container may run as one of them (runAsUserName names
	// the group): containerd creates a temporary user in it (hcsshim
	// jobcontainers), whose name whoami prints.
	Accounts process.LocalAccounts
	// Power is the node's power switch for shutdown.exe.
	Power process.Power
	// BootTime is when the node booted (Win32_OperatingSystem).
	BootTime time.Time
}

// cpuMeter is one container instance's busy threads and the memory its
// programs hold (a process.CPUMeter and process.MemoryMeter).
type cpuMeter struct{ n, mem atomic.Int64 }

func (m *cpuMeter) Busy(d int) { m.n.Add(int64(d)) }

func (m *cpuMeter) Use(d int64) { m.mem.Add(d) }

// MemoryHeld is how many bytes the programs of the container with this
// runtime ID hold (resources: on top of its idle working set, B5, B6).
func (p *Provider) MemoryHeld(containerID string) int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, rec := range p.pods {
		for _, c := range rec.containers {
			if c.id == containerID && c.cpu != nil {
				return c.cpu.mem.Load()
			}
		}
	}
	return 0
}

// BusyThreads is how many threads of the container with this runtime ID
// compute (resources: each demands a whole core, B7).
func (p *Provider) BusyThreads(containerID string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, rec := range p.pods {
		for _, c := range rec.containers {
			if c.id == containerID && c.cpu != nil {
				return int(c.cpu.n.Load())
			}
		}
	}
	return 0
}

// localGroup reports whether user names one of the node's local groups,
// for a HostProcess container on Windows.
func (m *machine) localGroup(rec *record, user string) bool {
	if !m.node.OS.IsWindows() || !facts.HostProcess(rec.pod) || m.rt.host.Accounts == nil || user == "" {
		return false
	}
	for _, g := range m.rt.host.Accounts.Groups() {
		if strings.EqualFold(g, user) {
			return true
		}
	}
	return false
}

// temporaryUser is the account containerd creates for a HostProcess
// container that runs as a local group.
func temporaryUser(containerID string) string {
	id := strings.TrimPrefix(containerID, "containerd://")
	if len(id) > 8 {
		id = id[:8]
	}
	return "hpc-" + id
}

// hostEnv adds the machine's parts to a container's Env.
func (m *machine) hostEnv(rec *record, c *container, env *Env) {
	c.cpu = &cpuMeter{}
	env.CPU, env.Memory = c.cpu, c.cpu
	env.BootTime = m.rt.host.BootTime
	if m.node.OS.IsWindows() && facts.HostProcess(rec.pod) {
		env.Accounts, env.Power = m.rt.host.Accounts, m.rt.host.Power
	}
}
