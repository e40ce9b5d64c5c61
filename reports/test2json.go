package reports

import (
	"bytes"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Converter turns the output of a test binary run with -test.v=test2json
// into events, as `go tool test2json` does, so that prebuilt suite binaries
// need no Go toolchain at run time. It follows the framing of Go's
// cmd/internal/test2json: in that mode the testing package starts every
// framing line (=== RUN, --- PASS, the final PASS/FAIL...) with a ^V (0x16)
// byte, and anything else is output of the test named last.
//
// Write the binary's combined stdout and stderr to it, call Exited with the
// process's exit error, then Close.
type Converter struct {
	pkg        string
	emit       func(Event)
	now        func() time.Time
	start      time.Time
	testName   string   // the test output is attributed to
	report     []*Event // pending --- PASS/FAIL reports, by depth
	result     string   // the package's result, once known
	input      lineBuffer
	output     lineBuffer
	needMarker bool // framing lines must start with ^V
}

// Buffer sizes of cmd/internal/test2json: a framing line must fit in
// inBuffer; output lines longer than outBuffer are split into several
// output events (Collector joins them again).
const (
	inBuffer  = 4096
	outBuffer = 1024
)

// NewConverter returns a converter that emits the events of package pkg,
// starting with its start event. now stamps the events (nil: time.Now).
func NewConverter(pkg string, now func() time.Time, emit func(Event)) *Converter {
	if now == nil {
		now = time.Now
	}
	c := &Converter{pkg: pkg, emit: emit, now: now}
	c.start = now()
	c.input = lineBuffer{b: make([]byte, 0, inBuffer), line: c.handleInputLine, part: c.output.write}
	c.output = lineBuffer{b: make([]byte, 0, outBuffer), line: c.writeOutput, part: c.writeOutput}
	c.writeEvent(&Event{Action: ActionStart})
	return c
}

// Write converts test output.
func (c *Converter) Write(b []byte) (int, error) {
	c.input.write(b)
	return len(b), nil
}

// Exited records how the test process ended.
func (c *Converter) Exited(err error) {
	switch {
	case err != nil:
		c.result = ActionFail
	case c.result != ActionSkip:
		c.result = ActionPass
	}
}

// Close flushes what is left and emits the package's result.
func (c *Converter) Close() error {
	c.input.flush()
	c.output.flush()
	if c.result != "" {
		c.flushReport(0)
		c.writeEvent(&Event{Action: c.result, Elapsed: c.now().Sub(c.start).Round(time.Millisecond).Seconds()})
	}
	return nil
}

const marker = byte(0x16) // ^V

var (
	bigPass            = []byte("PASS")
	bigFail            = []byte("FAIL")
	bigFailErrorPrefix = []byte("FAIL\t")
	emptyName          = []byte("=== NAME")
	emptyNameLine      = []byte("=== NAME  \n")
	fourSpace          = []byte("    ")
	skipLinePrefix     = []byte("?   \t")
	skipLineSuffix     = []byte("\t[no test files]")

	updates = [][]byte{
		[]byte("=== RUN   "), []byte("=== PAUSE "), []byte("=== CONT  "), []byte("=== NAME  "),
		[]byte("=== PASS  "), []byte("=== FAIL  "), []byte("=== SKIP  "), []byte("=== ATTR  "),
		[]byte("=== ARTIFACTS "),
	}
	reportLines = [][]byte{
		[]byte("--- PASS: "), []byte("--- FAIL: "), []byte("--- SKIP: "), []byte("--- BENCH: "),
	}
)

func hasAnyPrefix(b []byte, prefixes [][]byte) bool {
	for _, p := range prefixes {
		if bytes.HasPrefix(b, p) {
			return true
		}
	}
	return false
}

// handleInputLine handles one whole line of test output.
func (c *Converter) handleInputLine(line []byte) {
	if len(line) == 0 {
		return
	}
	sawMarker := false
	if c.needMarker && line[0] != marker {
		c.output.write(line)
		return
	}
	if line[0] == marker {
		c.output.flush()
		sawMarker = true
		line = line[1:]
	}
	trim := bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
	if bytes.Equal(trim, emptyName) {
		line = emptyNameLine
		trim = line[:len(line)-1]
	}

	// The binary's final PASS or FAIL.
	if bytes.Equal(trim, bigPass) || bytes.Equal(trim, bigFail) || bytes.HasPrefix(trim, bigFailErrorPrefix) {
		c.flushReport(0)
		c.testName = ""
		c.needMarker = sawMarker
		c.output.write(line)
		if bytes.Equal(trim, bigPass) {
			c.result = ActionPass
		} else {
			c.result = ActionFail
		}
		return
	}
	if bytes.HasPrefix(line, skipLinePrefix) && bytes.HasSuffix(trim, skipLineSuffix) && len(c.report) == 0 {
		c.result = ActionSkip
	}

	orig := line
	indent := 0
	ok := hasAnyPrefix(line, updates)
	if !ok {
		for bytes.HasPrefix(line, fourSpace) {
			line = line[4:]
			indent++
		}
		ok = hasAnyPrefix(line, reportLines)
	}
	if !ok {
		// Plain output: its indentation says which running subtest wrote it.
		if indent > 0 && indent <= len(c.report) {
			c.testName = c.report[indent-1].Test
		}
		c.output.write(orig)
		return
	}

	action, name, _ := strings.Cut(string(line[len("=== "):]), " ")
	action = strings.ToLower(strings.TrimSuffix(action, ":"))
	name = strings.TrimSpace(name)
	e := &Event{Action: action}
	if line[0] == '-' { // --- PASS: name (1.23s)
		if i := strings.Index(name, " ("); i >= 0 {
			if strings.HasSuffix(name, "s)") {
				if t, err := strconv.ParseFloat(name[i+2:len(name)-2], 64); err == nil {
					e.Elapsed = t
				}
			}
			name = name[:i]
		}
		if len(c.report) < indent {
			c.output.write(orig)
			return
		}
		c.needMarker = sawMarker
		c.flushReport(indent)
		e.Test = name
		c.testName = name
		c.report = append(c.report, e)
		c.output.write(orig)
		return
	}
	switch action {
	case "artifacts":
		name, e.Path, _ = strings.Cut(name, " ")
	case "attr":
		var rest string
		name, rest, _ = strings.Cut(name, " ")
		e.Key, e.Value, _ = strings.Cut(rest, " ")
	}
	c.needMarker = sawMarker
	c.flushReport(0)
	c.testName = name
	switch action {
	case "name": // only there to attribute what follows
		return
	case ActionPause:
		c.output.write(orig)
		c.writeEvent(e)
		return
	}
	c.writeEvent(e)
	c.output.write(orig)
}

// flushReport emits the pending reports at depth and deeper.
func (c *Converter) flushReport(depth int) {
	c.testName = ""
	for len(c.report) > depth {
		e := c.report[len(c.report)-1]
		c.report = c.report[:len(c.report)-1]
		c.writeEvent(e)
	}
}

func (c *Converter) writeOutput(out []byte) {
	c.writeEvent(&Event{Action: ActionOutput, Output: string(out)})
}

func (c *Converter) writeEvent(e *Event) {
	e.Package = c.pkg
	e.Time = c.now()
	if e.Test == "" {
		e.Test = c.testName
	}
	c.emit(*e)
}

// lineBuffer calls line for every whole line that fits in cap(b) and part
// for the pieces of longer lines (split at UTF-8 boundaries).
type lineBuffer struct {
	b    []byte
	mid  bool
	line func([]byte)
	part func([]byte)
}

func (l *lineBuffer) write(b []byte) {
	for len(b) > 0 {
		m := copy(l.b[len(l.b):cap(l.b)], b)
		l.b = l.b[:len(l.b)+m]
		b = b[m:]
		i := 0
		for i < len(l.b) {
			j, w := indexEOL(l.b[i:])
			if j < 0 {
				if !l.mid {
					if j := bytes.IndexByte(l.b[i:], '\t'); j >= 0 && isBenchmarkName(bytes.TrimRight(l.b[i:i+j], " ")) {
						l.part(l.b[i : i+j+1])
						l.mid = true
						i += j + 1
					}
				}
				break
			}
			e := i + j + w
			if l.mid {
				l.part(l.b[i:e])
				l.mid = false
			} else {
				l.line(l.b[i:e])
			}
			i = e
		}
		if i == 0 && len(l.b) == cap(l.b) {
			t := trimUTF8(l.b)
			l.part(l.b[:t])
			l.b = l.b[:copy(l.b, l.b[t:])]
			l.mid = true
		}
		if i > 0 {
			l.b = l.b[:copy(l.b, l.b[i:])]
		}
	}
}

// indexEOL finds a line end: a \n (printed, width 1) or a ^V that does not
// start the buffer (width 0: it starts the next line).
func indexEOL(b []byte) (pos, wid int) {
	for i, c := range b {
		if c == '\n' {
			return i, 1
		}
		if c == marker && i > 0 {
			return i, 0
		}
	}
	return -1, 0
}

func (l *lineBuffer) flush() {
	if len(l.b) > 0 {
		l.part(l.b)
		l.b = l.b[:0]
	}
}

func isBenchmarkName(b []byte) bool {
	const benchmark = "Benchmark"
	if !bytes.HasPrefix(b, []byte(benchmark)) {
		return false
	}
	if len(b) == len(benchmark) {
		return true
	}
	r, _ := utf8.DecodeRune(b[len(benchmark):])
	return !unicode.IsLower(r)
}

// trimUTF8 returns the longest prefix length of b that does not end inside
// a UTF-8 sequence.
func trimUTF8(b []byte) int {
	for i := 1; i < utf8.UTFMax && i <= len(b); i++ {
		if c := b[len(b)-i]; c&0xc0 != 0x80 {
			switch {
			case c&0xe0 == 0xc0:
				if i < 2 {
					return len(b) - i
				}
			case c&0xf0 == 0xe0:
				if i < 3 {
					return len(b) - i
				}
			case c&0xf8 == 0xf0:
				if i < 4 {
					return len(b) - i
				}
			}
			break
		}
	}
	return len(b)
}
