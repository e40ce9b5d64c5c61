package posix

import (
	"fmt"
	"io"
	"io/fs"

	"wink.dev/wink/simnode/shell/process"
)

// This file keeps the outputs of the process substitutions <(list) that
// instrument turned into `$( { list; } | procSubstCmd )`: bash reads
// such a list through /dev/fd/63 (the next one /dev/fd/62, ...), which
// the shell's redirections (`done < <(list)`) and the programs given the
// path as an argument (`head -n1 <(list)`) read here.

// maxSubsts bounds the outputs the shell keeps: the oldest is dropped.
const maxSubsts = 8

// keepSubst is procSubstCmd: it keeps its standard input (the list's
// output) and prints the path it is read from.
func (s *shell) keepSubst(c *process.Proc) error {
	data, err := io.ReadAll(io.LimitReader(c.Stdin, process.MaxFile+1))
	if err != nil {
		return err
	}
	if len(data) > process.MaxFile {
		data = data[:process.MaxFile]
	}
	s.mu.Lock()
	if s.substs == nil {
		s.substs = map[string][]byte{}
	}
	name := fmt.Sprintf("/dev/fd/%d", 63-s.nextSubst)
	s.nextSubst = (s.nextSubst + 1) % maxSubsts
	old := int64(len(s.substs[name]))
	s.substs[name] = data
	s.mu.Unlock()
	if err := s.p.Grow(int64(len(data)) - old); err != nil {
		s.end(errOOM)
		return errOOM
	}
	_, err = io.WriteString(c.Stdout, name)
	return err
}

// subst is the output of the process substitution read from name.
func (s *shell) subst(name string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	data, ok := s.substs[name]
	return data, ok
}

// substHeld is what the kept outputs hold.
func (s *shell) substHeld() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	var n int64
	for _, d := range s.substs {
		n += int64(len(d))
	}
	return n
}

// withSubsts is p, whose file system also has the process substitutions
// that words name, for a program that opens them.
func (s *shell) withSubsts(p *process.Proc, words []string) *process.Proc {
	files := map[string][]byte{}
	for _, w := range words[1:] {
		if data, ok := s.subst(w); ok {
			files[w] = data
		}
	}
	if len(files) == 0 {
		return p
	}
	env := *p.Env
	env.Files = substFS{FS: env.Files, files: files}
	p.Env = &env
	return p
}

// substFS is a container's file system with the process substitutions a
// command was given.
type substFS struct {
	process.FS
	files map[string][]byte
}

func (f substFS) ReadFile(name string) ([]byte, error) {
	if data, ok := f.files[name]; ok {
		return data, nil
	}
	if f.FS == nil {
		return nil, fs.ErrNotExist
	}
	return f.FS.ReadFile(name)
}
