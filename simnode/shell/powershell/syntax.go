package powershell

import "fmt"

// Parse parses a PowerShell script without running it and returns the
// ParserError PowerShell 5.1 reports for it, or nil when it parses.
func Parse(src string) error {
	if _, err := parsePowerShell(src); err != nil {
		return fmt.Errorf("%s (%s at offset %d)", err.msg, err.id, err.pos)
	}
	return nil
}
