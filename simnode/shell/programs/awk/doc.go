// Package awk is awk of wink's simulated images: GoAWK run in a child
// process, the binary itself run again in a hidden mode (awksandbox.go:
// ServeAwk, which main and the shell's TestMain call first), so that the
// kernel bounds its memory and CPU, since GoAWK has no hook of its own for
// either.
package awk
