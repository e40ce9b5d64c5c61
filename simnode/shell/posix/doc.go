// Package posix is the POSIX sh of Linux containers (sh, bash, ash, dash)
// and of busybox-w32 in the e2e images for Windows: the language is
// mvdan.cc/sh/v3's parser and interpreter (syntax, interp); simnode's world
// is plugged in through interp's handlers (handlers.go): programs run
// through process.Proc.Exec from the image's table, files are Env.Files,
// sleep is the simulated clock; every loop iteration and command is a
// step of the process and its variables are accounted as its memory
// (instrument.go). Nothing here reaches the real machine.
package posix
