package programs

import (
	"strings"

	"wink.dev/wink/simnode/shell/process"
)

// This file is the tools an entrypoint runs its server through to drop
// root: gosu, su-exec and util-linux's setpriv. Each runs the command it
// is given as the user it names (the container's user as id and whoami
// see it); the groups and capabilities they set are not kept.

// Gosu is gosu USER[:GROUP] COMMAND [ARG]... and su-exec, which takes
// the same arguments (https://github.com/tianon/gosu#usage,
// https://github.com/ncopa/su-exec#usage).
func Gosu(p *process.Proc, argv []string) int {
	name := process.ProgramName(argv[0], false)
	if len(argv) < 3 {
		p.Eprintln("Usage: " + name + " user-spec command [args]")
		return 1
	}
	user, _, _ := strings.Cut(argv[1], ":")
	return runAs(p, user, argv[2:])
}

// Setpriv is setpriv [--reuid USER] [--regid GROUP] [--init-groups |
// --clear-groups | --keep-groups | --groups LIST] [...] COMMAND [ARG]...
// (https://man7.org/linux/man-pages/man1/setpriv.1.html): the options
// end at the command.
func Setpriv(p *process.Proc, argv []string) int {
	o := newOptions("setpriv")
	o.SetInterspersed(false)
	reuid := o.String("reuid", "", "")
	o.String("ruid", "", "")
	o.String("euid", "", "")
	o.String("regid", "", "")
	o.String("rgid", "", "")
	o.String("egid", "", "")
	o.String("groups", "", "")
	o.Bool("init-groups", false, "")
	o.Bool("clear-groups", false, "")
	o.Bool("keep-groups", false, "")
	o.String("inh-caps", "", "")
	o.String("ambient-caps", "", "")
	o.String("bounding-set", "", "")
	o.Bool("no-new-privs", false, "")
	o.Bool("nnp", false, "")
	o.Bool("reset-env", false, "")
	o.String("securebits", "", "")
	o.String("pdeathsig", "", "")
	ops, ok := o.parse(p, argv[1:])
	if !ok {
		return 1
	}
	if len(ops) == 0 {
		p.Eprintln("setpriv: No program specified")
		return 127
	}
	user := p.Env.User
	if *reuid != "" {
		user = *reuid
	}
	return runAs(p, user, ops)
}

// runAs runs argv as user.
func runAs(p *process.Proc, user string, argv []string) int {
	env := *p.Env
	env.User = user
	if user == "root" || user == "0" {
		env.User = ""
	}
	c := p.Sub(nil, nil, nil)
	c.Env = &env
	return c.Exec(argv)
}
