// Package programs are the busybox applets and Debian tools of wink's
// simulated Linux images (and busybox-w32's in the e2e images for
// Windows), one family per file: file tools (filetools.go: cat, ls, echo,
// printf, sleep, rm; fileinfo.go: stat, readlink, realpath, du, df,
// mktemp, rmdir; find.go; mv.go), text tools (coreutils.go: cut, head,
// tr, sort, uniq, tee, mkdir, cp, ln, chmod, xargs, which; texttools.go:
// seq, grep, getent, wc; tail.go; sed.go; expr.go; compare.go: cmp,
// comm, paste, run-parts), users.go (gosu, su-exec, setpriv), checksums
// (checksum.go: md5sum, sha*sum, base64), dumps (od.go, hexdump.go) and
// date.go (date, touch). Options are parsed as getopt_long does
// (getopt.go). Each is a func(*process.Proc, argv) int that
// simnode/shell's tables name. The network tools and agnhost are package
// network, the Windows tools package windows, awk (GoAWK in a sandboxed
// child process) package awk.
package programs
