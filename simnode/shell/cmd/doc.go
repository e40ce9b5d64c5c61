// Package cmd is the simulated cmd.exe of Windows containers (rows E, B9,
// B10, B11): `cmd /c` and `cmd /s /c` command lines with cmd's quote
// rules, its parser (&, &&, ||, |, parentheses, redirections), %VAR%
// expansion, batch files and the built-ins (echo, set /a, if, dir, type,
// copy, cd, ver, exit...). Other programs run through process.Proc.Exec.
package cmd
