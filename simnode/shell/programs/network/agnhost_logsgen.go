package network

import (
	"wink.dev/wink/simnode/shell/process"

	"fmt"
	"math/rand/v2"
	"strconv"
	"time"
)

// agnhostLogsGenerator is `agnhost logs-generator --log-lines-total N
// --run-duration D` (test/images/agnhost/logs-generator): N klog lines
// "<id> <method> /api/v1/namespaces/<ns>/pods/<name> <status>" spread over
// D, then exit 0; kubectl.go's "Kubectl logs" specs filter them with
// --tail, --limit-bytes and --since. Invalid flags end as klog.Fatalf
// (exit 255). Row E; all kubelet versions.
func agnhostLogsGenerator(p *process.Proc, flags map[string]string) int {
	total, _ := strconv.Atoi(first(flags["--log-lines-total"], flags["-t"]))
	d, _ := time.ParseDuration(first(flags["--run-duration"], flags["-d"]))
	if total <= 0 {
		klogf(p, 'F', "logs_generator.go:64", "Invalid total number of lines: %d", total)
		return 255
	}
	if d <= 0 {
		klogf(p, 'F', "logs_generator.go:68", "Invalid duration: %v", d)
		return 255
	}
	methods := []string{"GET", "POST", "PUT"}
	namespaces := []string{"kube-system", "default", "ns"}
	const letters = "bcdfghjklmnpqrstvwxz2456789"
	delay := d / time.Duration(total)
	for id := 0; id < total; id++ {
		name := make([]byte, 3+rand.IntN(2))
		for i := range name {
			name[i] = letters[rand.IntN(len(letters))]
		}
		klogf(p, 'I', "logs_generator.go:76", "%s", fmt.Sprintf("%d %s /api/v1/namespaces/%s/pods/%s %d",
			id, methods[rand.IntN(len(methods))], namespaces[rand.IntN(len(namespaces))], name, 200+rand.IntN(400)))
		if !p.Sleep(delay) {
			return p.Killed()
		}
	}
	return 0
}

func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
