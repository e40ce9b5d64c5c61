package awk

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/benhoyt/goawk/interp"
	"github.com/benhoyt/goawk/parser"

	"wink.dev/wink/simnode/shell/process"
)

// Awk is awk (busybox awk, mawk on Debian; POSIX awk,
// https://pubs.opengroup.org/onlinepubs/9799919799/utilities/awk.html) run
// by GoAWK (github.com/benhoyt/goawk, issue 18): awk [-F SEP] [-v VAR=VAL]...
// [-f PROGFILE | PROGRAM] [FILE | VAR=VAL]... Sandboxed to the container:
// GoAWK reads no file, writes none and runs no command; the input files
// are read from the container's file system and fed as stdin, and the
// program stops when the process is stopped.
func Awk(p *process.Proc, argv []string) int {
	var vars []string
	var src string
	haveProg := false
	args := argv[1:]
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "-" {
		a := args[0]
		args = args[1:]
		val := func(flag string) (string, bool) {
			if len(a) > len(flag) {
				return a[len(flag):], true
			}
			if len(args) == 0 {
				return "", false
			}
			v := args[0]
			args = args[1:]
			return v, true
		}
		switch {
		case a == "--":
			goto operands
		case strings.HasPrefix(a, "-F"):
			sep, ok := val("-F")
			if !ok {
				return awkUsage(p)
			}
			if sep == "t" {
				sep = "\t"
			}
			vars = append(vars, "FS", sep)
		case strings.HasPrefix(a, "-v"):
			kv, ok := val("-v")
			name, value, found := strings.Cut(kv, "=")
			if !ok || !found {
				return awkUsage(p)
			}
			vars = append(vars, name, unescapeAwk(value))
		case strings.HasPrefix(a, "-f"):
			file, ok := val("-f")
			if !ok {
				return awkUsage(p)
			}
			data, err := p.ReadFile(file)
			if err != nil {
				p.Eprintln("awk: can't open file " + file)
				return 2
			}
			src, haveProg = src+string(data)+"\n", true
		default:
			p.Eprintln("awk: invalid option -- '" + strings.TrimPrefix(a, "-") + "'")
			return awkUsage(p)
		}
	}
operands:
	if !haveProg {
		if len(args) == 0 {
			return awkUsage(p)
		}
		src, args = args[0], args[1:]
	}
	if _, err := parser.ParseProgram([]byte(src), nil); err != nil {
		p.Eprintln("awk: " + err.Error())
		return 2
	}
	// Operands: files to read, or VAR=VAL assignments (given before the
	// files they precede: applied at the start here).
	var files []string
	for _, a := range args {
		if name, value, ok := strings.Cut(a, "="); ok && awkName.MatchString(name) {
			vars = append(vars, name, unescapeAwk(value))
			continue
		}
		files = append(files, a)
	}
	code := 0
	var inputs []io.Reader
	for _, f := range files {
		if f == "-" {
			inputs = append(inputs, io.LimitReader(p.Stdin, process.MaxInput))
			continue
		}
		data, err := p.ReadFile(f)
		if err != nil {
			p.Eprintln(fmt.Sprintf("awk: cannot open \"%s\" (%s)", f, process.PosixFileError(err, false)))
			code = 2
			continue
		}
		inputs = append(inputs, bytes.NewReader(data))
	}
	if len(files) == 0 {
		inputs = append(inputs, io.LimitReader(p.Stdin, process.MaxInput))
	}
	job := awkJob{Src: src, Vars: vars}
	for _, e := range p.Vars.Sorted() {
		job.Env = append(job.Env, e.Name, e.Value)
	}
	status := runAwk(p, job, io.MultiReader(inputs...))
	if code != 0 && !p.Done() {
		return code
	}
	return status
}

// awkJob is what runs one awk program: its source, its variables (-F,
// -v, VAR=VAL operands: name, value pairs), its ENVIRON (pairs too) and
// the memory it may use (its child's limit).
type awkJob struct {
	Src  string
	Vars []string
	Env  []string
	Mem  int64
}

// awkResult is how a GoAWK run ended: its exit status, or the error that
// stopped it (NotSim: one of what the sandbox refuses, a file or a command).
type awkResult struct {
	Status int
	Err    string
	NotSim bool
}

// exec runs the job with GoAWK in this process: sandboxed to the
// container (GoAWK reads no file, writes none and runs no command).
func (job awkJob) exec(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer) awkResult {
	prog, err := parser.ParseProgram([]byte(job.Src), nil)
	if err != nil {
		return awkResult{Status: 2, Err: err.Error()}
	}
	it, err := interp.New(prog)
	if err != nil {
		return awkResult{Status: 2, Err: err.Error()}
	}
	status, err := it.ExecuteContext(ctx, &interp.Config{
		Stdin:        stdin,
		Output:       stdout,
		Error:        stderr,
		Argv0:        "awk",
		Vars:         job.Vars,
		Environ:      job.Env,
		NoExec:       true,
		NoFileWrites: true,
		NoFileReads:  true,
	})
	switch {
	case err == nil:
		return awkResult{Status: status}
	case strings.Contains(err.Error(), "can't") || strings.Contains(err.Error(), "not allowed"):
		return awkResult{Err: err.Error(), NotSim: true}
	}
	return awkResult{Status: 2, Err: err.Error()}
}

// report is what the awk process does with r: its exit code.
func (r awkResult) report(p *process.Proc) int {
	switch {
	case p.Done():
		return p.Killed()
	case r.NotSim:
		p.NotSimulated("awk: " + r.Err)
		return 0
	case r.Err != "":
		p.Eprintln("awk: " + r.Err)
	}
	return r.Status
}

// awkName is a variable name of a VAR=VAL operand.
var awkName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// unescapeAwk is the escape processing of -v and VAR=VAL values.
func unescapeAwk(s string) string {
	return strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\\`, `\`).Replace(s)
}

func awkUsage(p *process.Proc) int {
	p.Eprintln("Usage: awk [OPTIONS] [AWK_PROGRAM] [FILE]...")
	return 1
}
