package cmd

import (
	"context"
	"strings"
	"testing"

	"wink.dev/wink/simnode/shell/process"
)

func TestCmdQuoteRules(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`"echo hi"`, `echo hi`},
		{`"echo hi" > "x y"`, `echo hi" > "x y`}, // first and last quote go
		{`"C:\Program Files\x.exe" arg`, `"C:\Program Files\x.exe" arg`},
		{`echo "a"`, `echo "a"`},
		{`"`, ``},
	} {
		if got := cmdStripQuotes(tc.in, false, nil); got != tc.want {
			t.Errorf("cmdStripQuotes(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := cmdStripQuotes(`"C:\Program Files\x.exe" arg`, true, nil); got != `C:\Program Files\x.exe arg` {
		t.Errorf("/S: %q", got)
	}
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{`a b`, []string{"a", "b"}},
		{`"a b" c`, []string{"a b", "c"}},
		{`a\"b`, []string{`a"b`}},
		{`"a\\" b`, []string{`a\`, "b"}},
		{`""`, []string{""}},
	} {
		if got := process.SplitCommandLine(tc.in); strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("process.SplitCommandLine(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := process.SplitCommandLine(joinWinArgs(tc.want)); strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("round trip %q: %q", tc.want, got)
		}
	}
}

// TestSetA covers set /a's operators, precedence, numbers and errors
// (windows-commands/set): 32-bit integers, C-like precedence.
func TestSetA(t *testing.T) {
	for _, tc := range []struct {
		expr string
		out  string
		code int
	}{
		{"1+2*3", "7", 0},
		{"(1+2)*3", "9", 0},
		{"-2*-3", "6", 0},
		{"7/2", "3", 0},
		{"-7%3", "-1", 0},
		{"1<<31", "-2147483648", 0},
		{"2147483647+1", "-2147483648", 0},
		{"0x7FFFFFFF", "2147483647", 0},
		{"017", "15", 0},
		{"~5&0xF", "10", 0},
		{"1|2^3&4", "3", 0},
		{"!5+!0", "1", 0},
		{"x=4, y=x*x, y-x", "12", 0},
		{"x=5, x<<=2, x", "20", 0},
		{"undefined+1", "1", 0},
		{"08", "", errNumber},
		{"4294967296", "", errTooLarge},
		{"1/0", "", errDivZero},
		{"5%0", "", errDivZero},
		{"(1+2", "", errUnbalanced},
		{"1+2)", "", errUnbalanced},
		{"1 2", "", errSyntaxA},
		{"*2", "", errOperand},
	} {
		var out, errb strings.Builder
		p := process.NewProc(context.Background(), &process.Env{OS: process.Windows}, nil, nil, &out, &errb)
		s := &shell{p: p}
		code := s.setA(p, " "+tc.expr)
		if out.String() != tc.out || code != tc.code {
			t.Errorf("set /a %s: %q %d (stderr %q), want %q %d", tc.expr, out.String(), code, errb.String(), tc.out, tc.code)
		}
	}
}

// TestParse covers how lines split into commands: the rest of the line
// is IF's command, a newline ends it in a block, ^ escapes, a group's
// redirection, and the syntax errors that stop a line.
func TestParse(t *testing.T) {
	for _, tc := range []struct {
		line, want string
	}{
		{`echo a & echo b`, `list[simple(echo a ) & simple(echo b)]`},
		{`if a==b echo x & echo y`, `if[a == b](list[simple(echo x ) & simple(echo y)])`},
		{"(if a==b echo x\necho y)", `group(list[if[a == b](simple(echo x)) & simple(echo y)])`},
		{`echo a ^& b ^> c`, `simple(echo a & b > c)`},
		{`(echo a) > f 2>&1`, `group(simple(echo a))>f 2>&1`},
		{`if exist "C:\a b" (echo y) else (echo n)`, `if[exist "C:\a b"](group(simple(echo y)))else(group(simple(echo n)))`},
		{`for /f "tokens=1,2" %a in ('dir /b') do echo %a`, `for/f[tokens=1,2 a 'dir /b'](simple(echo %a))`},
		{`a || b && c | d`, `list[simple(a ) || simple(b ) && pipe[simple(c ) | simple(d)]]`},
		{`& echo x`, `error(& was unexpected at this time.)`},
		{`(echo a) echo b`, `error(echo was unexpected at this time.)`},
		{`echo >`, `error(The syntax of the command is incorrect.)`},
	} {
		n, err, _ := parse(tc.line)
		got := ""
		if err != nil {
			got = "error(" + err.msg + ")"
		} else {
			got = dump(n)
		}
		if got != tc.want {
			t.Errorf("parse(%q) = %s, want %s", tc.line, got, tc.want)
		}
	}
}

func dump(n node) string {
	switch n := n.(type) {
	case *simpleNode:
		return "simple(" + n.text + ")" + dumpRedirs(n.redirs)
	case *groupNode:
		return "group(" + dump(n.body) + ")" + dumpRedirs(n.redirs)
	case *listNode:
		var b strings.Builder
		b.WriteString("list[" + dump(n.kids[0]))
		for i, op := range n.ops {
			b.WriteString(" " + op + " " + dump(n.kids[i+1]))
		}
		return b.String() + "]"
	case *pipeNode:
		parts := make([]string, len(n.kids))
		for i, k := range n.kids {
			parts[i] = dump(k)
		}
		return "pipe[" + strings.Join(parts, " | ") + "]"
	case *ifNode:
		s := "if[" + strings.Join(n.words, " ") + "](" + dump(n.then) + ")"
		if n.els != nil {
			s += "else(" + dump(n.els) + ")"
		}
		return s
	case *forNode:
		mode := ""
		if n.mode != 0 {
			mode = "/" + string(n.mode)
		}
		return "for" + mode + "[" + n.options + " " + string(n.varName) + " " + n.set + "](" + dump(n.body) + ")"
	}
	return "?"
}

func dumpRedirs(rs []redir) string {
	var parts []string
	for _, r := range rs {
		fd := ""
		if r.fd != 1 {
			fd = string(rune('0' + r.fd))
		}
		parts = append(parts, fd+r.op+r.target)
	}
	return strings.Join(parts, " ")
}

// TestParseBatchFile: Parse reads a batch file as cmd.exe does, %% being a
// single % in a batch file (Microsoft Learn, windows-commands/for: "use
// %%variable instead of %variable" in batch files), so a FOR loop of the
// mined corpus (windows-container-tools build.cmd) parses.
func TestParseBatchFile(t *testing.T) {
	for _, tc := range []struct{ name, script, err string }{
		{"for /f over a command's output in a group", "if errorlevel 1 (\r\n    for /f \"delims=\" %%i in ('dir /s /b \"x\" 2^>nul') do (\r\n        set \"PATH=%PATH%;%%~dpi\"\r\n    )\r\n)\r\n", ""},
		{"labels and :: comments are no commands", ":: (comment)\r\n:label\r\necho x\r\n", ""},
		{"a final ^ joins the next line", "echo a ^\r\n& echo b\r\n", ""},
		{"the error names the logical line's first line", "echo a\r\n(echo a) echo b\r\n", "line 2: echo was unexpected at this time."},
	} {
		err := Parse(tc.script)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.err {
			t.Errorf("%s: Parse = %q, want %q", tc.name, got, tc.err)
		}
	}
}
