// Package programs are the programs of wink's simulated images other than
// the shells: file and text tools (filetools.go: cat, ls, echo, sleep,
// timeout...), text tools (texttools.go: seq, grep, getent), network
// tools (nettools.go: ipconfig, ping, curl, wget, nslookup, nltest, nc;
// dig.go: dig over the cluster DNS's messages; rows H1–H6), agnhost
// (agnhost.go, agnhost_mounttest.go, agnhost_oidc.go: the OIDC discovery
// client against the real apiserver) and Windows administration (winadmin.go: net
// localgroup, shutdown, testlimit; rows B5, B6, B9, B10, B15). Each is a
// func(*process.Proc, argv) int that simnode/shell's tables name; Listens
// tells the ports a command listens on.
//
// awk (awk.go) runs GoAWK in a child process, the binary itself run again
// in a hidden mode (awksandbox.go: ServeAwk, which main and the shell's
// TestMain call first): the kernel bounds its memory and CPU, since GoAWK
// has no hook of its own for either (issue 18).
//
// Size: about 6,100 lines: a table of independent programs (busybox
// applets, System32 tools, network tools, agnhost), one family per file,
// each a func(*process.Proc, argv) int. The families share only process;
// the Windows tools (wintools.go, winadmin.go) or the agnhost family could
// move to packages of their own when one of them grows.
package programs
