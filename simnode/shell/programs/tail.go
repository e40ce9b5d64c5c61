package programs

import (
	"wink.dev/wink/simnode/shell/process"

	"strconv"
	"strings"
)

// progTail is busybox tail: the last lines of a file (-n N, default 10)
// and, with -f, following it: the process then runs until stopped (upstream
// expansion.go keeps a pod running with `sh -c "tail -f /dev/null"`). Row
// E; all kubelet versions.
func Tail(p *process.Proc, argv []string) int {
	n, follow := 10, false
	var files []string
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "-f" || a == "-F":
			follow = true
		case a == "-n" && i+1 < len(argv):
			i++
			n, _ = strconv.Atoi(strings.TrimPrefix(argv[i], "+"))
		case strings.HasPrefix(a, "-n"):
			n, _ = strconv.Atoi(strings.TrimPrefix(a[2:], "+"))
		default:
			files = append(files, a)
		}
	}
	code := 0
	for _, f := range files {
		if f == "/dev/null" || strings.EqualFold(f, "NUL") {
			continue
		}
		data, err := p.ReadFile(f)
		if err != nil {
			p.Eprintln("tail: can't open '" + f + "': No such file or directory")
			code = 1
			continue
		}
		lines := strings.SplitAfter(string(data), "\n")
		if len(lines) > 0 && lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		if len(lines) > n {
			lines = lines[len(lines)-n:]
		}
		_, _ = p.Stdout.Write([]byte(strings.Join(lines, "")))
	}
	if follow && code == 0 {
		return p.Block()
	}
	return code
}
