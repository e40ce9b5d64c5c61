package programs

import (
	"errors"
	"io/fs"
	"strings"

	"wink.dev/wink/simnode/shell/process"
)

// Readlink is busybox readlink [-fnv] FILE
// (https://busybox.net/downloads/BusyBox.html#readlink): the target of a
// symbolic link as written; a FILE that is no link prints nothing and
// exits 1 (-v says why). -f prints the canonical path, every link followed,
// as a kubelet-managed volume shows it
// (`readlink -f /etc/config/key` = /etc/config/..2026_.../key).
func Readlink(p *process.Proc, argv []string) int {
	flags, ops := busyboxArgs(argv[1:])
	if len(ops) != 1 {
		p.Eprintln("Usage: readlink [-fnv] FILE")
		return 1
	}
	var out string
	var err error
	if strings.Contains(flags, "f") {
		out, err = canonicalPath(p, ops[0])
	} else {
		out, err = p.Readlink(ops[0])
	}
	if err != nil {
		if strings.Contains(flags, "v") {
			p.Eprintln("readlink: " + ops[0] + ": " + process.PosixFileError(err, false))
		}
		return 1
	}
	if !strings.Contains(flags, "n") {
		out += p.NL
	}
	p.Stdout.Write([]byte(out))
	return 0
}

// maxLinks is Linux's MAXSYMLINKS: links one path resolution follows.
const maxLinks = 40

// canonicalPath is realpath(3) over the container's file system: an
// absolute path without `.`, `..` or links. The last component need not
// exist (GNU and busybox readlink -f).
func canonicalPath(p *process.Proc, name string) (string, error) {
	rest := strings.Split(p.Path(name), "/")
	var done []string
	hops := 0
	for len(rest) > 0 {
		c := rest[0]
		rest = rest[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			if len(done) > 0 {
				done = done[:len(done)-1]
			}
			continue
		}
		cur := "/" + strings.Join(append(done, c), "/")
		target, err := p.Readlink(cur)
		switch {
		case err == nil:
			if hops++; hops > maxLinks {
				return "", errors.New("Too many levels of symbolic links")
			}
			if strings.HasPrefix(target, "/") {
				done = nil
			}
			rest = append(strings.Split(target, "/"), rest...)
		case errors.Is(err, fs.ErrNotExist) && len(rest) > 0:
			return "", err
		default:
			done = append(done, c)
		}
	}
	return "/" + strings.Join(done, "/"), nil
}
