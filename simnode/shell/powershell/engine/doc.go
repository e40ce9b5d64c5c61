// Package engine is the interpreter of the simulated Windows PowerShell
// 5.1 / pwsh (rows E, B9, B11, H1–H6), following Microsoft Learn's
// PowerShell 5.1 documentation as its spec. It runs the syntax tree of
// package parser: the evaluator (eval.go, operators.go, members.go and
// dotnet.go the .NET members scripts use, format.go the default
// formatter), the error model of about_Try_Catch_Finally, about_Trap,
// about_Preference_Variables and about_CommonParameters (errors.go:
// non-terminating, statement- and script-terminating errors,
// exceptions.yaml the exception types catch matches), the scopes of
// about_Scopes (scopes.go), ranges that stream (range.go), background jobs
// (jobs.go), command dispatch and parameter binding (dispatch.go) and the
// cmdlets of the pipeline itself (cmdlets.go). Package powershell adds the
// other cmdlets, a file per noun family, through RegisterCmdlets.
//
// Every statement, loop iteration and pipeline element is a step of the
// process (process.Proc.Step), and what variables and pipelines hold is
// accounted (Proc.Grow, bounds.go; a scope gives its variables' memory
// back when it ends): past the memory limit the script ends with
// System.OutOfMemoryException (row B5). Native programs run through
// process.Proc.Exec; what the shell does not simulate is PowerShell's open
// world (openworld.go), and a construct it does not implement is a
// NotSimulated trace (Proc.NotSimulated). No Go implementation of
// PowerShell exists to use instead.
package engine
