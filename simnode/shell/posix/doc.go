// Package posix is the small POSIX sh of Linux containers (sh, bash, ash,
// dash): a lexer and parser (sh_parse.go), and the shell (sh.go): pipes,
// lists, if/while/for/case, functions, redirections, parameter and
// command substitution, $((...)), traps, background jobs and the
// built-ins. Programs run through process.Proc.Exec.
package posix
