package pods

import corev1 "k8s.io/api/core/v1"

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
