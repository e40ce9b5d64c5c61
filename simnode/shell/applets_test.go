package shell

import "testing"

// TestApplets covers the busybox applets and Debian tools scripts use, and
// bash's process substitution, each case drawn from a mined script or the
// documentation it cites.
func TestApplets(t *testing.T) {
	for i := range appletCases {
		appletCases[i].os = Linux
	}
	runCases(t, appletCases)
}

var appletCases = []tcase{
	// https://www.gnu.org/software/bash/manual/bash.html#Process-Substitution:
	// the list's output is read through a /dev/fd file name (kind's
	// images/base/files/usr/local/bin/entrypoint, `head -n1 <(getent ...) | cut`)
	{name: "process substitution arg", argv: sh(`echo "$( (head -n1 <(printf 'a b\nc d\n') | cut -d' ' -f1) || true)"`), out: "a\n"},
	// kind's images/local-path-helper/stage-binary-and-deps.sh: `done < <(...)`
	{name: "process substitution redirect", argv: []string{"bash", "-c", `while read -r l; do echo "<$l>"; done < <(printf 'x\ny\n')`}, out: "<x>\n<y>\n"},
	{name: "process substitution path", argv: []string{"bash", "-c", `echo <(true)`}, out: "/dev/fd/63\n"},
	// bash's set -E (errtrace), docker-library's `set -Eeuo pipefail`
	// (https://www.gnu.org/software/bash/manual/bash.html#The-Set-Builtin)
	{name: "set -Eeuo pipefail", argv: []string{"bash", "-c", `set -Eeuo pipefail; true | true; echo ok`}, out: "ok\n"},
	// https://www.gnu.org/software/coreutils/manual/html_node/echo-invocation.html
	{name: "echo -en", argv: []string{"echo", "-en", `a\tb\n`}, out: "a\tb\n"},
	{name: "echo -neE", argv: []string{"echo", "-neE", `a\tb`}, out: `a\tb`},
	{name: "echo -e \\c", argv: []string{"echo", "-e", `one\ctwo`}, out: "one"},
	{name: "echo -x is text", argv: []string{"echo", "-x", "y"}, out: "-x y\n"},
	// https://www.gnu.org/software/coreutils/manual/html_node/head-invocation.html, tail-invocation.html
	{name: "head -c on a pipe", argv: sh(`printf 'abcdef' | head -c 3`), out: "abc"},
	{name: "head -n -1", argv: sh(`printf '1\n2\n3\n' | head -n -1`), out: "1\n2\n"},
	{name: "tail -n1 on a pipe", argv: sh(`printf '1\n2\n3\n' | tail -n1`), out: "3\n"},
	{name: "tail -n +2", argv: sh(`printf '1\n2\n3\n' | tail -n +2`), out: "2\n3\n"},
	{name: "tail -c 2", argv: sh(`printf 'abc' | tail -c 2`), out: "bc"},
	{name: "head bad option", argv: []string{"head", "-z"}, errOut: "head: invalid option -- 'z'\n", code: 1},
	// https://www.gnu.org/software/coreutils/manual/html_node/sort-invocation.html, uniq-invocation.html
	{name: "sort -k2 -n", argv: sh(`printf 'a 10\nb 9\nc 100\n' | sort -k2 -n`), out: "b 9\na 10\nc 100\n"},
	{name: "sort -t: -k3,3nr", argv: sh(`printf 'x:1:5\ny:2:50\nz:3:7\n' | sort -t: -k3,3nr`), out: "y:2:50\nz:3:7\nx:1:5\n"},
	{name: "sort -u", argv: sh(`printf 'b\na\nb\n' | sort -u`), out: "a\nb\n"},
	{name: "sort -V", argv: sh(`printf '1.10\n1.9\n1.2\n' | sort -V`), out: "1.2\n1.9\n1.10\n"},
	{name: "uniq -c", argv: sh(`printf 'a\na\nb\n' | uniq -c`), out: "      2 a\n      1 b\n"},
	{name: "uniq -d -i", argv: sh(`printf 'a\nA\nb\n' | uniq -di`), out: "a\n"},
	// https://www.gnu.org/software/coreutils/manual/html_node/md5sum-invocation.html; busybox md5_sha1_sum.c
	{name: "sha256sum", argv: sh(`printf 'hello' > /tmp/h; sha256sum /tmp/h`), out: "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824  /tmp/h\n"},
	{name: "md5sum stdin", argv: sh(`printf 'hello' | md5sum`), out: "5d41402abc4b2a76b9719d911017c592  -\n"},
	{name: "sha256sum -c passes", argv: sh(`printf 'hello' > /tmp/h; echo '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824  /tmp/h' | sha256sum -c`), out: "/tmp/h: OK\n"},
	{name: "sha256sum -c fails", argv: sh(`printf 'tampered' > /tmp/h; echo '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824  /tmp/h' | sha256sum -c; echo "exit $?"`), out: "/tmp/h: FAILED\nexit 1\n", errOut: "sha256sum: WARNING: 1 of 1 computed checksums did NOT match\n"},
	{name: "sha256sum -c -s fails", argv: sh(`printf 'x' > /tmp/h; echo "$(printf y | sha256sum | cut -d' ' -f1)  /tmp/h" | sha256sum -c -s || echo bad`), out: "bad\n"},
	// https://pubs.opengroup.org/onlinepubs/9699919799/utilities/find.html
	{name: "find -name -type", argv: sh(`mkdir -p /w/a/b; touch /w/a/x.conf /w/a/b/y.conf /w/z.txt; find /w -name '*.conf' -type f`), out: "/w/a/b/y.conf\n/w/a/x.conf\n"},
	{name: "find -maxdepth", argv: sh(`mkdir -p /w/a/b; touch /w/a/b/y; find /w -maxdepth 1`), out: "/w\n/w/a\n"},
	{name: "find ! -name -exec", argv: sh(`mkdir -p /w; touch /w/a /w/b; find /w -type f ! -name a -exec echo found {} \;`), out: "found /w/b\n"},
	{name: "find missing", argv: []string{"find", "/nope"}, errOut: "find: /nope: No such file or directory\n", code: 1},
	// https://www.gnu.org/software/coreutils/manual/html_node/Which-files-are-listed.html
	// (--dereference-command-line-symlink-to-dir): a link to a directory
	// named on the command line is listed as itself under -l (`l... name ->
	// target`), as its directory without -l, with a trailing / or -L.
	{name: "ls -l of a link to a directory", argv: sh(`mkdir -p /w/real; touch /w/real/f; ln -s real /w/l; ls -l /w/l; ls /w/l; ls -lL /w/l; ls -ld /w/l/`),
		out: "lrwxrwxrwx    1 root     root             4 Apr 23 10:00 /w/l -> real\nf\ntotal 0\n-rw-r--r--    1 root     root             0 Apr 23 10:00 f\n" +
			"drwxr-xr-x    2 root     root          4096 Apr 23 10:00 /w/l/\n"},
	// the downward API volume as the Kubernetes docs list it, `ls -laR
	// /etc/podinfo` (https://kubernetes.io/docs/tasks/inject-data-application/downward-api-volume-expose-pod-information/):
	// ..data is a link to the timestamped directory, each key a link into ..data
	{name: "ls -la shows ..data", argv: sh(`ls -la /etc/podinfo | grep -F -- '->'`), setup: func(f *fixture) {
		f.fs.add("/etc/podinfo/..2982_06_02_21_47_53.299460680/labels", "zone=\"us-est-coast\"")
		_ = f.fs.Symlink("..2982_06_02_21_47_53.299460680", "/etc/podinfo/..data")
		_ = f.fs.Symlink("..data/labels", "/etc/podinfo/labels")
	}, out: "lrwxrwxrwx    1 root     root            31 Apr 23 10:00 ..data -> ..2982_06_02_21_47_53.299460680\n" +
		"lrwxrwxrwx    1 root     root            13 Apr 23 10:00 labels -> ..data/labels\n"},
	// https://www.gnu.org/software/coreutils/manual/html_node/ln-invocation.html, readlink-invocation.html
	{name: "ln -s is a link", argv: sh(`mkdir -p /w; echo v1 > /w/real; ln -s /w/real /w/link; readlink /w/link; echo v2 > /w/real; cat /w/link; [ -L /w/link ] && echo link`), out: "/w/real\nv2\nlink\n"},
	{name: "readlink -f", argv: sh(`mkdir -p /w/d; ln -s d /w/l; readlink -f /w/l/../d/./x`), out: "/w/d/x\n"},
	{name: "readlink of a file", argv: sh(`readlink /data/hello.txt; echo $?`), out: "1\n"},
	// https://www.gnu.org/software/coreutils/manual/html_node/stat-invocation.html
	{name: "stat -c", argv: sh(`printf 'abc' > /tmp/s; stat -c '%n %s %F %a' /tmp/s; mkdir -p /tmp/d; stat -c %F /tmp/d`), out: "/tmp/s 3 regular file 644\ndirectory\n"},
	{name: "stat missing", argv: []string{"stat", "/nope"}, errOut: "stat: cannot stat '/nope': No such file or directory\n", code: 1},
	// https://www.gnu.org/software/coreutils/manual/html_node/du-invocation.html
	{name: "du -s", argv: sh(`mkdir -p /w; printf 'x' > /w/a; printf 'y' > /w/b; du -s /w`), out: "12\t/w\n"},
	// https://www.gnu.org/software/coreutils/manual/html_node/od-invocation.html
	{name: "od -c", argv: sh(`printf 'hi\n' | od -c`), out: "0000000   h   i  \\n\n0000003\n"},
	{name: "od -An -tx1", argv: sh(`printf 'AB' | od -An -tx1`), out: " 41 42\n"},
	// https://www.gnu.org/software/coreutils/manual/html_node/date-invocation.html
	{name: "date -d @0 +%F", argv: []string{"date", "-u", "-d", "@0", "+%Y-%m-%d %H:%M:%S %s"}, out: "1970-01-01 00:00:00 0\n"},
	{name: "date -d iso +%j", argv: []string{"date", "-d", "2024-03-01", "+%j %a %b"}, out: "061 Fri Mar\n"},
	{name: "date bad -d", argv: []string{"date", "-d", "not a date"}, errOut: "date: invalid date 'not a date'\n", code: 1},
	// https://www.gnu.org/software/coreutils/manual/html_node/touch-invocation.html
	{name: "touch -t", argv: sh(`touch -t 202401021530.45 /tmp/t && cat /tmp/t && echo made`), out: "made\n"},
	{name: "touch -t bad", argv: []string{"touch", "-t", "2024x", "/tmp/t"}, errOut: "touch: invalid date format '2024x'\n", code: 1},
	{name: "touch -c", argv: sh(`touch -c /tmp/none; [ -e /tmp/none ] || echo absent`), out: "absent\n"},
	// mktemp: https://www.gnu.org/software/coreutils/manual/html_node/mktemp-invocation.html
	{name: "mktemp -d", argv: sh(`d=$(mktemp -d); [ -d "$d" ] && case $d in /tmp/tmp.??????????) echo ok;; esac`), out: "ok\n"},
	// https://pubs.opengroup.org/onlinepubs/9699919799/utilities/ls.html: -a shows . and ..; -l a directory's "total"
	{name: "ls -la", argv: sh(`mkdir -p /w; printf 'abc' > /w/f; ls -la /w`), out: "total 12\ndrwxr-xr-x    2 root     root          4096 Apr 23 10:00 .\ndrwxr-xr-x    2 root     root          4096 Apr 23 10:00 ..\n-rw-r--r--    1 root     root             3 Apr 23 10:00 f\n"},
	{name: "ls -A -1", argv: sh(`mkdir -p /w; touch /w/.h /w/v; ls -A1 /w`), out: ".h\nv\n"},
	{name: "ls -d", argv: sh(`mkdir -p /w/x; ls -d /w/x`), out: "/w/x\n"},
	{name: "ls missing", argv: []string{"ls", "/nope"}, errOut: "ls: /nope: No such file or directory\n", code: 1},
	// curl -o /dev/null -w: https://curl.se/docs/manpage.html#-w (a probe's status code)
	{name: "curl -w http_code", argv: sh(`curl -s -o /dev/null -w '%{http_code}' http://web/`), out: "200"},
	// wget -qO- against a Service: https://busybox.net/downloads/BusyBox.html#wget
	{name: "wget -qO- service", argv: sh(`wget -qO- http://web/`), out: "web-1"},
	// https://manpages.debian.org/bookworm/debianutils/run-parts.8.en.html (nextcloud's
	// entrypoint: run-parts --regex ".*sh$" --report --exit-on-error DIR); a
	// script by path runs with its #! interpreter
	{name: "run-parts", argv: sh(`mkdir -p /etc/d; printf '#!/bin/sh\necho one $1\n' > /etc/d/10-a; printf '#!/bin/sh\n' > /etc/d/15-quiet; printf '#!/usr/bin/env bash\necho two\nexit 3\n' > /etc/d/20-b.sh; run-parts --report -a X /etc/d; echo "rc $?"; run-parts --regex '.*sh$' --exit-on-error /etc/d; echo "rc $?"`),
		out: "/etc/d/10-a:\none X\nrc 0\ntwo\nrc 3\n", errOut: "run-parts: /etc/d/20-b.sh exited with return code 3\n"},
	// https://pubs.opengroup.org/onlinepubs/9699919799/utilities/cmp.html, comm.html, paste.html
	{name: "cmp -s", argv: sh(`printf a > /tmp/a; printf a > /tmp/b; printf b > /tmp/c; cmp -s /tmp/a /tmp/b; echo $?; cmp -s /tmp/a /tmp/c; echo $?; cmp /tmp/a /tmp/c`), out: "0\n1\n/tmp/a /tmp/c differ: char 1, line 1\n", code: 1},
	{name: "comm -23", argv: sh(`printf 'a\nb\nc\n' > /tmp/x; printf 'b\n' > /tmp/y; comm -23 /tmp/x /tmp/y; comm /tmp/x /tmp/y`), out: "a\nc\na\n\t\tb\nc\n"},
	{name: "paste -sd, -", argv: sh(`printf 'a\nb\nc\n' | paste -sd, -`), out: "a,b,c\n"},
	// https://pubs.opengroup.org/onlinepubs/9699919799/utilities/expr.html
	{name: "expr : match length", argv: sh(`expr "apache2-foreground" : "apache"; expr abc : 'x'; echo $?`), out: "6\n0\n1\n"},
	{name: "expr : group", argv: sh(`expr "v1.25.3" : 'v\([0-9]*\)'`), out: "1\n"},
	{name: "expr precedence", argv: sh(`expr 2 + 3 \* 4; expr \( 2 + 3 \) \* 4; expr length hello; expr substr hello 2 3`), out: "14\n20\n5\nell\n"},
	{name: "expr | &", argv: sh(`expr "" \| fallback; expr 0 \& 1; echo $?`), out: "fallback\n0\n1\n"},
	{name: "expr syntax", argv: []string{"expr", "1", "+"}, errOut: "expr: syntax error\n", code: 2},
	// gosu / su-exec / setpriv run their command as the user
	// (https://github.com/tianon/gosu#usage, https://man7.org/linux/man-pages/man1/setpriv.1.html)
	{name: "gosu", argv: sh(`gosu 1001:0 id -u; su-exec nobody whoami`), out: "1001\nnobody\n"},
	{name: "setpriv", argv: sh(`setpriv --reuid 1002 --regid 1002 --init-groups id -u; setpriv --reuid 1 echo -n x`), out: "1002\nx"},
	// https://man7.org/linux/man-pages/man1/getent.1.html: passwd from /etc/passwd
	{name: "getent passwd", argv: sh(`mkdir -p /etc; printf 'root:x:0:0:root:/root:/bin/sh\ntelegraf:x:999:999::/etc/telegraf:/bin/false\n' > /etc/passwd; getent passwd telegraf | cut -d : -f 6; getent passwd nobody; echo $?`), out: "/etc/telegraf\n2\n"},
	// busybox APPLET runs the applet (https://busybox.net/downloads/BusyBox.html: "busybox [function [arguments]...]")
	{name: "busybox applet", argv: sh(`busybox echo hi; busybox basename /a/b`), out: "hi\nb\n"},
	// https://pubs.opengroup.org/onlinepubs/9699919799/utilities/printf.html: flags, width, precision, \ddd
	{name: "printf precision", argv: sh(`printf '%s-%05.1f-%x-%-4s|%3d|%o|%c|%%\n' a 3.14159 255 ab 7 8 xyz`), out: "a-003.1-ff-ab  |  7|10|x|%\n"},
	{name: "printf octal escape, %b, reuse", argv: sh(`printf '\101\t%b\n' 'x\ty'; printf '%s,' a b c; printf '%.3s\n' abcdef`), out: "A\tx\ty\na,b,c,abc\n"},
	{name: "printf bad number", argv: sh(`printf '%d\n' abc; echo $?`), out: "0\n1\n", errOut: "printf: invalid number 'abc'\n"},
	// https://www.gnu.org/software/grep/manual/grep.html#index-_002do
	{name: "grep -o", argv: sh(`printf 'a1b2\nc3\n' | grep -oE '[0-9]'`), out: "1\n2\n3\n"},
}
