package dockershim

import "strings"

// globalValueFlags are the docker CLI's global options that take a value
// as the next argument.
var globalValueFlags = map[string]bool{
	"--config": true, "-c": true, "--context": true, "-H": true, "--host": true,
	"-l": true, "--log-level": true, "--tlscacert": true, "--tlscert": true, "--tlskey": true,
}

// boolFlags are the `docker run`, `create` and `exec` options that take no
// value; every other option of theirs does (as the next argument unless
// written --flag=value).
var boolFlags = map[string]bool{
	"--detach": true, "-d": true, "--tty": true, "-t": true, "--interactive": true, "-i": true,
	"--rm": true, "--privileged": true, "--init": true, "--read-only": true,
	"--no-healthcheck": true, "--oom-kill-disable": true, "--publish-all": true, "-P": true,
	"--sig-proxy": true, "--disable-content-trust": true, "--quiet": true, "-q": true,
	"--help": true,
}

// Rewrite returns the docker CLI arguments args with --privileged replaced
// for engine e: in `run` and `create` by PrivilegedFlags(e), in `exec`
// dropped (an exec'd process gets the container's capabilities, which
// are already all it can have). Arguments after the image or container
// (the command run inside) are never touched, nor any other subcommand.
func Rewrite(args []string, e Engine) []string {
	out := make([]string, 0, len(args)+16)
	i := 0
	// Global options, then the subcommand (`container run` is `run`).
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		out = append(out, args[i])
		if globalValueFlags[args[i]] && i+1 < len(args) {
			i++
			out = append(out, args[i])
		}
		i++
	}
	if i < len(args) && args[i] == "container" {
		out = append(out, args[i])
		i++
	}
	if i >= len(args) {
		return append(out, args[i:]...)
	}
	sub := args[i]
	out = append(out, sub)
	i++
	if sub != "run" && sub != "create" && sub != "exec" {
		return append(out, args[i:]...)
	}
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" || !strings.HasPrefix(a, "-") || a == "-" {
			break // the image or container: the rest is the command
		}
		if privileged(a) {
			if sub != "exec" {
				out = append(out, PrivilegedFlags(e)...)
			}
			continue
		}
		out = append(out, a)
		if takesValue(a) && i+1 < len(args) {
			i++
			out = append(out, args[i])
		}
	}
	return append(out, args[i:]...)
}

// privileged reports whether a is --privileged set to true.
func privileged(a string) bool {
	return a == "--privileged" || a == "--privileged=true"
}

// takesValue reports whether option a is followed by its value.
func takesValue(a string) bool {
	if strings.Contains(a, "=") {
		return false
	}
	if boolFlags[a] {
		return false
	}
	// Combined short options (-it, -dt) are booleans unless the last takes
	// a value (-ti is booleans; -e, -v, -p, -u, -w each take one).
	if len(a) > 2 && a[1] != '-' {
		return !boolFlags["-"+a[len(a)-1:]]
	}
	return true
}
