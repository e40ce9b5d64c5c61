package cmd

import (
	"fmt"
	"strings"
)

// logicalLine is one logical line of a batch file as cmd.exe reads it: a
// final ^ joins the next physical line, a group left open goes on over
// the next lines; a label or a :: comment is no command.
type logicalLine struct {
	// raw is its first physical line as written.
	raw string
	// text is the line after phase 1 (expand), its physical lines joined.
	text  string
	node  node
	err   *syntaxError
	label bool
	// tooLong: the text passed maxLine ("The input line is too long.").
	tooLong bool
}

// readLogicalLine reads the logical line that starts at lines[pc],
// expanding each physical line with expand (cmd's phase 1, the percent
// expansion), and parses it; it returns the line and where the next one
// starts.
func readLogicalLine(lines []string, pc int, expand func(string) string) (logicalLine, int) {
	l := logicalLine{raw: strings.TrimSuffix(lines[pc], "\r")}
	pc++
	if strings.HasPrefix(strings.TrimLeft(l.raw, " \t;,=@"), ":") {
		l.label = true
		return l, pc
	}
	l.text = expand(l.raw)
	for strings.HasSuffix(l.text, "^") && !strings.HasSuffix(l.text, "^^") && pc < len(lines) {
		l.text = l.text[:len(l.text)-1] + expand(strings.TrimSuffix(lines[pc], "\r"))
		pc++
	}
	for {
		if len(l.text) > maxLine {
			l.tooLong = true
			return l, pc
		}
		var open bool
		l.node, l.err, open = parse(l.text)
		if !open || l.err != nil || pc >= len(lines) {
			return l, pc
		}
		l.text += "\n" + expand(strings.TrimSuffix(lines[pc], "\r"))
		pc++
	}
}

// Parse parses a batch file without running it, logical line by logical
// line as cmd.exe reads one (readLogicalLine), and returns the first
// syntax error cmd.exe reports, naming its line. Of the percent expansion
// only %% (a literal %) is done: the rest depends on the variables at run
// time, so a line whose syntax depends on a variable's value is judged as
// written.
func Parse(script string) error {
	lines := strings.Split(script, "\n")
	for pc := 0; pc < len(lines); {
		first := pc + 1
		var l logicalLine
		l, pc = readLogicalLine(lines, pc, percentLiterals)
		switch {
		case l.tooLong:
			return fmt.Errorf("line %d: The input line is too long.", first)
		case l.err != nil:
			return fmt.Errorf("line %d: %s", first, l.err.msg)
		}
	}
	return nil
}

// percentLiterals is the part of a batch file's percent expansion that
// needs no variables: %% is one %.
func percentLiterals(line string) string { return strings.ReplaceAll(line, "%%", "%") }
