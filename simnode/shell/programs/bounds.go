package programs

import (
	"strings"

	"wink.dev/wink/simnode/shell/process"
)

// The programs' part of issue 18 (bounded by construction): a program that
// loops on its own calls Step each round, and one that reads its whole
// input reads it through Proc.ReadStdin, so that no input makes it grow
// simnode.

// Yes is busybox yes [STRING]...: its arguments (or "y") on a line, until
// it is stopped or its output fails, a Step a line (issue 18: it prints at
// the pace of its simulated CPU).
func Yes(p *process.Proc, argv []string) int {
	line := "y"
	if len(argv) > 1 {
		line = strings.Join(argv[1:], " ")
	}
	b := []byte(line + "\n")
	for {
		if _, err := p.Stdout.Write(b); err != nil {
			return 1
		}
		if p.Step() != nil {
			return p.Killed()
		}
	}
}
