//go:build !linux

package awk

import (
	"io"

	"wink.dev/wink/simnode/shell/process"
)

// limitAwk: only Linux bounds the child; elsewhere awk runs in-process.
func limitAwk(int64) {}

// sandboxAwk runs job in this process where the child cannot be bounded.
func sandboxAwk(p *process.Proc, job awkJob, in io.Reader) int {
	return job.exec(p.Ctx, in, p.Stdout, p.Stderr).report(p)
}
