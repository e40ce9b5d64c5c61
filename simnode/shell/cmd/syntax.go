package cmd

import (
	"fmt"
	"strings"
)

// Parse parses a batch file without running it, logical line by logical
// line as cmd.exe reads one (a final ^ joins the next line, an open group
// goes on over the next lines; labels and :: comments are skipped), and
// returns the first syntax error cmd.exe reports, naming its line. Percent
// expansion is not done: a batch file is parsed after it at run time, so a
// line whose syntax depends on a variable's value is judged as written.
func Parse(script string) error {
	lines := strings.Split(script, "\n")
	for pc := 0; pc < len(lines); {
		first := pc + 1
		raw := strings.TrimSuffix(lines[pc], "\r")
		pc++
		if strings.HasPrefix(strings.TrimLeft(raw, " \t;,=@"), ":") {
			continue
		}
		text := raw
		for strings.HasSuffix(text, "^") && !strings.HasSuffix(text, "^^") && pc < len(lines) {
			text = text[:len(text)-1] + strings.TrimSuffix(lines[pc], "\r")
			pc++
		}
		for {
			_, err, open := parse(text)
			if err != nil {
				return fmt.Errorf("line %d: %s", first, err.msg)
			}
			if !open || pc >= len(lines) {
				break
			}
			text += "\n" + strings.TrimSuffix(lines[pc], "\r")
			pc++
		}
	}
	return nil
}
