// Package parser is the parser of the simulated Windows PowerShell 5.1
// (row E), built to the PowerShell Language Specification 3.0 and
// about_Parsing: statements, pipelines, commands in argument mode
// (statements.go), and expressions with the operator precedence of
// about_Operator_Precedence (expressions.go). ParseScript gives the syntax
// tree the interpreter (package powershell) runs, or the ParserError
// PowerShell reports.
package parser
