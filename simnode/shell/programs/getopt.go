package programs

import (
	"io"
	"strings"

	"github.com/spf13/pflag"

	"wink.dev/wink/simnode/shell/process"
)

// options are a tool's command-line options, parsed as getopt_long does
// for busybox and GNU tools: short options combined (-la), a value
// attached or apart (-n1, -n 1), long options (--lines=1), operands
// anywhere, and -- ending the options.
type options struct {
	*pflag.FlagSet
	tool string
}

func newOptions(tool string) options {
	f := pflag.NewFlagSet(tool, pflag.ContinueOnError)
	f.SetOutput(io.Discard)
	f.Usage = func() {}
	return options{FlagSet: f, tool: tool}
}

// parse parses args and returns the operands; on an option the tool does
// not have, it prints getopt's complaint and returns false (the tool then
// exits 1).
func (o options) parse(p *process.Proc, args []string) ([]string, bool) {
	if err := o.Parse(args); err != nil {
		msg := err.Error()
		switch {
		case strings.HasPrefix(msg, "unknown shorthand flag: "):
			c, _, _ := strings.Cut(strings.TrimPrefix(msg, "unknown shorthand flag: "), " ")
			msg = "invalid option -- " + c
		case strings.HasPrefix(msg, "unknown flag: "):
			msg = "unrecognized option '" + strings.TrimPrefix(msg, "unknown flag: ") + "'"
		case strings.HasPrefix(msg, "flag needs an argument: "):
			c, _, _ := strings.Cut(strings.TrimPrefix(msg, "flag needs an argument: "), " ")
			msg = "option requires an argument -- " + c
		}
		p.Eprintln(o.tool + ": " + msg)
		return nil, false
	}
	return o.Args(), true
}

// busybox reports whether the container's userland is busybox's (the
// busybox, alpine and e2e images, and an image wink does not know) rather
// than GNU coreutils' (Debian's).
func busybox(p *process.Proc) bool { return p.Env.Image.Base != "debian" }
