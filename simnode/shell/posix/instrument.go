package posix

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// This file prepares a parsed script before interp runs it (issue 18,
// bounded by construction): every loop iteration passes a checkpoint, a
// statement that opens stepPath, where the shell accounts the memory its
// variables hold (handlers.go), even in loops that run no command, such as
// `while [[ 1 ]]; do x=$x$x; done`.

// stepPath is the checkpoint's file: its open handler checks memory and
// reads nothing. No image has it.
const stepPath = "/dev/.wink-step"

// checkpoint is the statement `< stepPath`: a redirection without a
// command, which neither sets $? to anything but 0 nor prints with set -x.
func checkpoint() *syntax.Stmt {
	return &syntax.Stmt{Redirs: []*syntax.Redirect{{
		Op:   syntax.RdrIn,
		Word: &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: stepPath}}},
	}}}
}

// instrument puts a checkpoint first in each loop's condition and body.
// top: f is the script itself, where `return` outside any function ends
// the script as `exit` does (busybox ash, dash).
func instrument(f *syntax.File, top bool) {
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.WhileClause:
			n.Cond = append([]*syntax.Stmt{checkpoint()}, n.Cond...)
		case *syntax.ForClause:
			n.Do = append([]*syntax.Stmt{checkpoint()}, n.Do...)
		case *syntax.Word:
			for i, part := range n.Parts {
				if ps, ok := part.(*syntax.ProcSubst); ok && ps.Op == syntax.CmdIn {
					n.Parts[i] = procSubst(ps)
				}
			}
		}
		return true
	})
	if !top {
		return
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.FuncDecl:
			return false
		case *syntax.Stmt:
			if d, ok := n.Cmd.(*syntax.DeclClause); ok && d.Variant.Value == "local" {
				n.Cmd = &syntax.CallExpr{Args: []*syntax.Word{{Parts: []syntax.WordPart{&syntax.Lit{Value: localOutside}}}}}
			}
		case *syntax.CallExpr:
			if len(n.Args) > 0 && len(n.Args[0].Parts) == 1 {
				if l, ok := n.Args[0].Parts[0].(*syntax.Lit); ok && l.Value == "return" {
					l.Value = "exit"
				}
			}
		}
		return true
	})
}

// localOutside is the command `local` outside any function becomes: ash
// refuses it (interp lets it through).
const localOutside = "wink:local-outside-function"

// procSubstCmd is the command that keeps the output of a process
// substitution <(list) and prints the path it is read from (handlers.go).
const procSubstCmd = "wink:process-substitution"

// procSubst is <(list) as `$( { list; } | procSubstCmd )`: interp would
// make a FIFO of the real machine; here the list runs to its end first and
// its output is the file the path names (bash: /dev/fd/63), which a
// reader of a pipe cannot tell apart.
func procSubst(ps *syntax.ProcSubst) *syntax.CmdSubst {
	keep := &syntax.CallExpr{Args: []*syntax.Word{{Parts: []syntax.WordPart{&syntax.Lit{Value: procSubstCmd}}}}}
	return &syntax.CmdSubst{Stmts: []*syntax.Stmt{{Cmd: &syntax.BinaryCmd{
		Op: syntax.Pipe,
		X:  &syntax.Stmt{Cmd: &syntax.Block{Stmts: ps.Stmts}},
		Y:  &syntax.Stmt{Cmd: keep},
	}}}}
}

// unsupported names a construct the shell does not run: output process
// substitution >(list) and coprocesses (bash's, through real FIFOs of the
// machine); "" when there is none.
func unsupported(f *syntax.File) string {
	what := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.FuncDecl:
			if _, ok := n.Body.Cmd.(*syntax.CallExpr); ok {
				what = "function body"
			}
		case *syntax.ProcSubst:
			if n.Op != syntax.CmdIn {
				what = "process substitution " + n.Op.String()
			}
		case *syntax.CoprocClause:
			what = "coproc"
		}
		return what == ""
	})
	return what
}

// instrumentText parses src (an eval's, a trap's or a sourced script's
// text), instruments it and prints it back; src as it is when it does not
// parse (interp then reports the error).
func instrumentText(src string) string {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil || unsupported(f) != "" {
		if err == nil {
			return "false"
		}
		return src
	}
	instrument(f, false)
	var b strings.Builder
	if err := syntax.NewPrinter().Print(&b, f); err != nil {
		return src
	}
	return b.String()
}
