package process

import (
	"sort"
	"strings"
	"sync"
)

// LocalAccounts are a machine's local groups, as net.exe manages them. A
// HostProcess container sees its node's (rows B9, B10); another container
// its own.
type LocalAccounts interface {
	// AddGroup creates the group; false when it exists.
	AddGroup(name string) bool
	// DeleteGroup removes the group; false when it does not exist.
	DeleteGroup(name string) bool
	// Groups lists the groups.
	Groups() []string
}

// BuiltinLocalGroups are the local groups of a fresh Windows Server.
var BuiltinLocalGroups = []string{
	"Access Control Assistance Operators", "Administrators", "Backup Operators", "Certificate Service DCOM Access",
	"Cryptographic Operators", "Device Owners", "Distributed COM Users", "Event Log Readers", "Guests", "Hyper-V Administrators",
	"IIS_IUSRS", "Network Configuration Operators", "Performance Log Users", "Performance Monitor Users", "Power Users",
	"Print Operators", "RDS Endpoint Servers", "RDS Management Servers", "RDS Remote Access Servers", "Remote Desktop Users",
	"Remote Management Users", "Replicator", "Storage Replica Administrators", "System Managed Accounts Group", "Users",
}

// MemAccounts is a LocalAccounts in memory, starting with the builtin
// groups; names compare case-insensitively.
type MemAccounts struct {
	mu     sync.Mutex
	groups map[string]string // lower-case name -> name
}

func (m *MemAccounts) init() {
	if m.groups == nil {
		m.groups = map[string]string{}
		for _, g := range BuiltinLocalGroups {
			m.groups[strings.ToLower(g)] = g
		}
	}
}

// AddGroup implements LocalAccounts.
func (m *MemAccounts) AddGroup(name string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.init()
	if _, ok := m.groups[strings.ToLower(name)]; ok {
		return false
	}
	m.groups[strings.ToLower(name)] = name
	return true
}

// DeleteGroup implements LocalAccounts.
func (m *MemAccounts) DeleteGroup(name string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.init()
	if _, ok := m.groups[strings.ToLower(name)]; !ok {
		return false
	}
	delete(m.groups, strings.ToLower(name))
	return true
}

// Groups implements LocalAccounts.
func (m *MemAccounts) Groups() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.init()
	out := make([]string, 0, len(m.groups))
	for _, g := range m.groups {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return strings.ToLower(out[i]) < strings.ToLower(out[j]) })
	return out
}

// HasGroup reports whether accounts has group name.
func HasGroup(a LocalAccounts, name string) bool {
	for _, g := range a.Groups() {
		if strings.EqualFold(g, name) {
			return true
		}
	}
	return false
}
