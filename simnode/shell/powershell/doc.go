// Package powershell is the simulated Windows PowerShell 5.1 / pwsh of
// Windows containers (rows E, B9, B11, H1–H6; issue 18), following
// Microsoft Learn's PowerShell 5.1 documentation as its spec: the parser
// (package parser), an evaluator (ps_eval.go, ps_ops.go
// operators, ps_members.go and ps_dotnet.go the .NET members scripts use,
// ps_format.go the default formatter), the error model of
// about_Try_Catch_Finally, about_Trap, about_Preference_Variables and
// about_CommonParameters (ps_errors.go: non-terminating, statement- and
// script-terminating errors, exceptions.yaml the exception types catch
// matches) and the cmdlets (ps_cmdlets*.go, ps_jobs.go, ps_wmi.go).
// Variables and functions live in the scopes of about_Scopes (ps_scopes.go:
// global, script, a child scope per function and script block call,
// dot-sourcing in the caller's scope, the *-Variable cmdlets of
// ps_cmdlets_vars.go); ranges stream where PowerShell streams them
// (ps_range.go).
//
// Every statement, loop iteration and pipeline element is a step of the
// process (process.Proc.Step), and what variables and pipelines hold is
// accounted (Proc.Grow, ps_bounds.go; a scope gives its variables' memory
// back when it ends): past the memory limit the script ends with
// System.OutOfMemoryException (row B5). Native programs run through
// process.Proc.Exec; what the shell does not simulate is PowerShell's open
// world (ps_openworld.go), and a construct it does not implement is a
// NotSimulated trace (Proc.NotSimulated).
//
// One interpreter of one language (evaluator, error model, the .NET
// members and the core cmdlets scripts use), whose parts share the
// evaluator's state and are each in a file of their own. No Go
// implementation of PowerShell exists to use instead.
package powershell
