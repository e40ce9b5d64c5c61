package programs

import (
	"fmt"
	"io/fs"
	"strings"

	"wink.dev/wink/simnode/shell/process"
)

// remover is a container file system that deletes (process.Remover of
// the pods' file systems).
type remover interface {
	Remove(path string) error
}

// Mv is busybox mv (-f, -i, -n, -v): SOURCE DEST, or SOURCE... DIRECTORY.
// A move is a copy of the file or tree and the removal of the source (one
// file system: the container's layer and its volumes). -v prints
// "'SOURCE' -> 'DEST'". Row E (the e2e images' busybox; upstream's
// StatefulSet specs break a readiness probe with `mv -v /localhost.crt
// /tmp/`; kubelet versions: all).
func Mv(p *process.Proc, argv []string) int {
	flags, names := busyboxArgs(argv[1:])
	verbose, noClobber := strings.Contains(flags, "v"), strings.Contains(flags, "n")
	if len(names) < 2 {
		p.Eprintln("BusyBox v1.37.0 multi-call binary.\n\nUsage: mv [-fin] SOURCE DEST\nor: mv [-fin] SOURCE... DIRECTORY")
		return 1
	}
	dest := names[len(names)-1]
	srcs := names[:len(names)-1]
	_, derr := p.ReadDir(dest)
	destDir := derr == nil
	if len(srcs) > 1 && !destDir {
		p.Eprintln("mv: '" + dest + "' is not a directory")
		return 1
	}
	code := 0
	for _, src := range srcs {
		to := dest
		if destDir {
			to = strings.TrimRight(dest, `/\`) + "/" + process.BaseName(strings.TrimRight(src, `/\`))
		}
		if noClobber {
			if _, err := p.ReadFile(to); err == nil {
				continue
			}
		}
		if err := move(p, src, to); err != nil {
			p.Eprintln(fmt.Sprintf("mv: can't rename '%s': %s", src, process.PosixFileError(err, true)))
			code = 1
			continue
		}
		if verbose {
			p.Println(fmt.Sprintf("'%s' -> '%s'", src, to))
		}
	}
	return code
}

// move copies src (a file, or a directory and all under it) to dst and
// removes src.
func move(p *process.Proc, src, dst string) error {
	r, ok := p.Env.Files.(remover)
	if !ok {
		return fs.ErrPermission
	}
	if err := p.CopyTree(src, dst); err != nil {
		return err
	}
	return r.Remove(p.Path(src))
}
