// Package powershell is the simulated Windows PowerShell 5.1 / pwsh of
// Windows containers (rows E, B9, B11, H1–H6): a parser (ps_parse.go
// statements, ps_expr.go the operator-precedence chain of
// about_Operator_Precedence), an evaluator (ps_eval.go, ps_ops.go
// operators, ps_members.go .NET members and static calls, ps_format.go the
// default formatter) and the cmdlets (ps_cmdlets*.go, ps_jobs.go,
// ps_wmi.go). Native programs run through process.Proc.Exec; what the
// shell does not simulate is PowerShell's open world (ps_openworld.go).
package powershell
