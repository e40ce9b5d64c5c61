package posix

import (
	"errors"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Parse parses a shell script as the simulated sh does before it runs one
// (bash syntax, less what the interpreter cannot run) and returns the
// error sh would stop on, or nil.
func Parse(script string) error {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(script), "")
	if err != nil {
		return err
	}
	if what := unsupported(f); what != "" {
		return errors.New("not simulated: " + what)
	}
	return nil
}
