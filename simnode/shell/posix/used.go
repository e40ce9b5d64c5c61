package posix

import "mvdan.cc/sh/v3/syntax"

// This file finds the commands whose result a script uses: their exit
// status decides something (the condition of if, while and until, the left
// of && and ||, a negation) or their output is read (a command
// substitution, a pipeline's earlier commands). A program wink does not
// simulate exits 0 with no output; where its result is used, the script's
// outcome is then not judged, and the shell says so (handlers.go).

// usedCalls are the positions of the simple commands of f whose result
// is used.
func usedCalls(f *syntax.File) map[syntax.Pos]bool {
	used := map[syntax.Pos]bool{}
	var mark func(n syntax.Node)
	mark = func(n syntax.Node) {
		if n == nil {
			return
		}
		syntax.Walk(n, func(n syntax.Node) bool {
			if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 {
				used[c.Args[0].Pos()] = true
			}
			return true
		})
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.IfClause:
			for _, s := range n.Cond {
				mark(s)
			}
		case *syntax.WhileClause:
			for _, s := range n.Cond {
				mark(s)
			}
		case *syntax.BinaryCmd:
			switch n.Op {
			case syntax.AndStmt, syntax.OrStmt:
				mark(n.X)
			case syntax.Pipe, syntax.PipeAll:
				mark(n.X)
			}
		case *syntax.CmdSubst:
			for _, s := range n.Stmts {
				mark(s)
			}
		case *syntax.Stmt:
			if n.Negated {
				mark(n.Cmd)
			}
		}
		return true
	})
	return used
}
