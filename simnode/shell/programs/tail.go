package programs

import (
	"strings"

	"wink.dev/wink/simnode/shell/process"
)

// Tail is tail [-n [+]N | -N | +N] [-c [+]N] [-fFqv] [FILE]...: the last
// N lines (default 10) or bytes of each file or of stdin (a pipe); +N
// from the Nth on (https://www.gnu.org/software/coreutils/manual/html_node/tail-invocation.html).
// With -f it then follows the file: the process runs until stopped
// (upstream expansion.go keeps a pod running with `sh -c "tail -f
// /dev/null"`). Row E; all kubelet versions.
func Tail(p *process.Proc, argv []string) int {
	args := argv[1:]
	if len(args) > 0 && len(args[0]) > 1 && (args[0][0] == '-' || args[0][0] == '+') && args[0][1] >= '0' && args[0][1] <= '9' {
		n := strings.TrimLeft(args[0], "-")
		follow := strings.HasSuffix(n, "f")
		args = append([]string{"-n", strings.TrimSuffix(n, "f")}, args[1:]...) // tail -5, tail +2
		if follow {
			args = append(args, "-f")
		}
	}
	o := newOptions("tail")
	lineCount := o.StringP("lines", "n", "10", "")
	byteCount := o.StringP("bytes", "c", "", "")
	follow := o.BoolP("follow", "f", false, "")
	followName := o.BoolP("F", "F", false, "")
	quiet := o.BoolP("quiet", "q", false, "")
	verbose := o.BoolP("verbose", "v", false, "")
	o.StringP("sleep-interval", "s", "", "")
	o.String("pid", "", "")
	o.Bool("retry", false, "")
	files, ok := o.parse(p, args)
	if !ok {
		return 1
	}
	count, bytes := *lineCount, false
	if *byteCount != "" {
		count, bytes = *byteCount, true
	}
	n, _, err := headCount(count)
	if err != nil {
		p.Eprintln("tail: invalid number '" + count + "'")
		return 1
	}
	from := strings.HasPrefix(count, "+")
	var shown []string
	for _, f := range files {
		if f == "/dev/null" || p.IsNullDevice(f) {
			continue
		}
		shown = append(shown, f)
	}
	if len(files) > 0 && len(shown) == 0 {
		// only /dev/null: nothing to print, and -f waits on it
		if *follow || *followName {
			return p.Block()
		}
		return 0
	}
	names, data, code := readInputs(p, "tail", shown)
	for k, d := range data {
		fileHeader(p, names, k, *quiet, *verbose)
		start := 0
		switch {
		case bytes && from:
			start = min(max(n-1, 0), len(d))
		case bytes:
			start = max(len(d)-n, 0)
		default:
			ends := lineEnds(d)
			switch {
			case from && n > 1:
				start = len(d)
				if n-2 < len(ends) {
					start = ends[n-2]
				}
			case from:
			case n == 0:
				start = len(d)
			case n < len(ends):
				start = ends[len(ends)-n-1]
			}
		}
		p.Stdout.Write(d[start:])
	}
	if (*follow || *followName) && code == 0 && len(files) > 0 {
		return p.Block()
	}
	return code
}

// fileHeader is head's and tail's "==> NAME <==" before input k of names
// ("" is standard input): printed when there is more than one input and
// not -q, or with -v; a blank line separates it from the input before.
func fileHeader(p *process.Proc, names []string, k int, quiet, verbose bool) {
	if (len(names) <= 1 || quiet) && !verbose {
		return
	}
	if k > 0 {
		p.Println("")
	}
	name := names[k]
	if name == "" {
		name = "standard input"
	}
	p.Println("==> " + name + " <==")
}
