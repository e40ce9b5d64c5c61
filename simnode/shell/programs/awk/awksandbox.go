package awk

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"io"
	"os"
	"sync/atomic"

	"wink.dev/wink/simnode/shell/process"
)

// awk runs in a child process (issue 18: bounded by construction). GoAWK
// has no memory hook and no step hook, so an awk program run in simnode's
// own process could grow simnode's heap without bound
// (`BEGIN{x="a"; while(1) x=x x}`) or spin a core (`BEGIN{while(1);}`).
// Instead simnode's own binary is run again in a hidden mode (ServeAwk):
// the kernel bounds the child's memory (RLIMIT_DATA, and Go's memory
// limit), its CPU (RLIMIT_CPU as a backstop, nice 19, and the parent stops
// it while the process's step budget says so), and the parent kills it
// when the process is stopped.

// awkSandboxEnv names the hidden mode of the child.
const awkSandboxEnv = "WINK_AWK_SANDBOX"

// awkServed is set once the binary said it serves the hidden mode (its
// main, or a test binary's TestMain, called ServeAwk): only then does awk
// run in a child. A binary that does not (a test binary of a package that
// does not call it) runs awk in its own process, as a library call.
var awkServed atomic.Bool

// ServeAwk is the hidden mode of a binary that runs awk: main (and
// TestMain of a test binary whose tests run awk) calls it first. In the
// child it runs the awk program it is given and returns the exit code to
// end with and true; otherwise it records that the binary serves the mode
// and returns false.
func ServeAwk() (int, bool) {
	if _, ok := os.LookupEnv(awkSandboxEnv); !ok {
		awkServed.Store(true)
		return 0, false
	}
	in := bufio.NewReaderSize(os.Stdin, 64<<10)
	var job awkJob
	var n uint32
	if err := binary.Read(in, binary.BigEndian, &n); err != nil {
		return 2, true
	}
	if err := json.NewDecoder(io.LimitReader(in, int64(n))).Decode(&job); err != nil {
		return 2, true
	}
	// The limits come first, before anything of the program runs (the
	// child may have been started ahead, a spare: they come with the job).
	limitAwk(job.Mem)
	stderr := os.NewFile(3, "awk-stderr")
	r := job.exec(context.Background(), in, os.Stdout, stderr)
	json.NewEncoder(os.NewFile(4, "awk-result")).Encode(r)
	return 0, true
}

// runAwk runs job on input in as the process p: in a bounded child when
// the binary serves ServeAwk, else in this process.
func runAwk(p *process.Proc, job awkJob, in io.Reader) int {
	if !awkServed.Load() {
		return job.exec(p.Ctx, in, p.Stdout, p.Stderr).report(p)
	}
	return sandboxAwk(p, job, in)
}

// writeAwkJob sends the job to the child (a length, its JSON), then the
// input, and closes w.
func writeAwkJob(w io.WriteCloser, job awkJob, in io.Reader) {
	defer w.Close()
	data, _ := json.Marshal(job)
	var hdr [4]byte
	binary.BigEndian.PutUint32(hdr[:], uint32(len(data)))
	if _, err := w.Write(append(hdr[:], data...)); err != nil {
		return
	}
	io.Copy(w, in)
}

// tailBuffer keeps the first max bytes written to it (the child's Go
// runtime's own stderr: what it says when it dies).
type tailBuffer struct {
	bytes.Buffer
	max int
}

func (b *tailBuffer) Write(d []byte) (int, error) {
	if room := b.max - b.Len(); room > 0 {
		b.Buffer.Write(d[:min(len(d), room)])
	}
	return len(d), nil
}
