package powershell

import "wink.dev/wink/simnode/shell/powershell/parser"
import "fmt"

// Parse parses a PowerShell script without running it and returns the
// ParserError PowerShell 5.1 reports for it, or nil when it parses.
func Parse(src string) error {
	if _, err := parser.ParseScript(src); err != nil {
		return fmt.Errorf("%s (%s at offset %d)", err.Msg, err.ID, err.Pos)
	}
	return nil
}
