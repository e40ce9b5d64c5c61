package pods

import (
	corev1 "k8s.io/api/core/v1"

	"wink.dev/wink/simnode/shell/process"
)

// Commands returns the command lines of pod's running containers (the
// network model's servers that answer more than a fixed HTTP response,
// such as agnhost netexec's /dial and its UDP server).
func (p *Provider) Commands(pod *corev1.Pod) [][]string {
	p.mu.Lock()
	defer p.mu.Unlock()
	rec, ok := p.pods[podKey(pod)]
	if !ok || rec.uid != string(pod.UID) {
		return nil
	}
	var out [][]string
	for _, c := range rec.containers {
		if c.running() && len(c.argv) > 0 {
			out = append(out, append([]string(nil), c.argv...))
		}
	}
	return out
}

// Process is a running container's command line and its files.
type Process struct {
	Argv  []string
	Files process.FS // nil without volumes
}

// Processes are pod's running containers' processes (a server the network
// model asks for what it serves from its files: a CoreDNS's Corefile).
func (p *Provider) Processes(pod *corev1.Pod) []Process {
	p.mu.Lock()
	defer p.mu.Unlock()
	rec, ok := p.pods[podKey(pod)]
	if !ok || rec.uid != string(pod.UID) {
		return nil
	}
	var out []Process
	for _, c := range rec.containers {
		if c.running() && len(c.argv) > 0 {
			pr := Process{Argv: append([]string(nil), c.argv...)}
			if c.env != nil {
				pr.Files = c.env.Files
			}
			out = append(out, pr)
		}
	}
	return out
}
