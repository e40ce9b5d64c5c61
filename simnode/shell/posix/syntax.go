package posix

import (
	"errors"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Parse parses a shell script as the simulated sh does before it runs one
// (parseScript) and returns the error sh would stop on, or nil.
func Parse(script string) error {
	_, what, err := parseScript(script, "")
	if err == nil && what != "" {
		err = errors.New("not simulated: " + what)
	}
	return err
}

// parseScript parses script as bash (ash has bash's [[ ]], function and
// local) and names what in it the interpreter cannot run (unsupported),
// "" when it can run all of it.
func parseScript(script, name string) (f *syntax.File, what string, err error) {
	f, err = syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(script), name)
	if err != nil {
		return nil, "", err
	}
	return f, unsupported(f), nil
}
