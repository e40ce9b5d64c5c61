package runner

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"

	"wink.dev/wink/reports"
)

// progress prints [n/N] lines as features finish and failures as they happen.
type progress struct {
	mu      sync.Mutex
	w       io.Writer
	total   int // -1: unknown
	n       int
	printed map[string]bool // features whose failure was printed with an assessment
}

func newProgress(w io.Writer, total int) *progress {
	return &progress{w: w, total: total, printed: map[string]bool{}}
}

func area(pkg string) string { return pkg[strings.LastIndexByte(pkg, '/')+1:] }

// say prints one line.
func (p *progress) say(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, format+"\n", args...)
}

// finished prints what fin says, if it is worth a line.
func (p *progress) finished(fin *reports.Finished) {
	if fin == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case fin.Depth == -1:
		if fin.Status == reports.StatusFail && fin.Failure != "" && !p.printed[fin.Package] {
			fmt.Fprintf(p.w, "FAIL suite %s (%s):\n%s\n", area(fin.Package), reports.FormatDuration(fin.Elapsed), indentLines(tail(fin.Failure, 20), "    "))
		}
	case fin.Depth >= 2:
		if fin.Status == reports.StatusFail {
			p.printed[fin.Package+" "+featureOf(fin.Test)] = true
			p.printed[fin.Package] = true
			fmt.Fprintf(p.w, "    FAIL %s\n%s\n", fin.Name, indentLines(fin.Failure, "        "))
		}
	case fin.Deselected:
		// Left out by --labels/--rows: not counted, not shown.
	case fin.Depth == 1 || fin.Depth == 0 && fin.Leaf:
		p.n++
		total := "?"
		if p.total >= 0 {
			total = fmt.Sprint(max(p.total, p.n))
		}
		line := fmt.Sprintf("[%d/%s] %s: %s … %s (%s)", p.n, total, area(fin.Package), fin.Name, strings.ToUpper(string(fin.Status)), reports.FormatDuration(fin.Elapsed))
		if fin.Status == reports.StatusSkip {
			if reason := skipLine(fin.Failure); reason != "" {
				line += ": " + reason
			}
		}
		fmt.Fprintln(p.w, line)
		if fin.Status == reports.StatusFail {
			p.printed[fin.Package] = true
			if !p.printed[fin.Package+" "+fin.Test] && fin.Failure != "" {
				fmt.Fprintln(p.w, indentLines(fin.Failure, "    "))
			}
		}
	case fin.Depth == 0 && fin.Status == reports.StatusFail && fin.Failure != "":
		// A test failing outside its features.
		fmt.Fprintf(p.w, "    FAIL %s\n%s\n", fin.Test, indentLines(fin.Failure, "        "))
	}
}

var fileLineRe = regexp.MustCompile(`^[\w.-]+\.go:\d+: `)

// featureOf is the feature (Test/feature) of an assessment's test name.
func featureOf(test string) string {
	parts := strings.SplitN(test, "/", 3)
	if len(parts) < 2 {
		return test
	}
	return parts[0] + "/" + parts[1]
}

func skipLine(out string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(out), "\n")
	return fileLineRe.ReplaceAllString(strings.TrimSpace(first), "")
}

func indentLines(s, prefix string) string {
	return prefix + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+prefix)
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{fmt.Sprintf("… (%d lines before)", len(lines)-n)}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}
