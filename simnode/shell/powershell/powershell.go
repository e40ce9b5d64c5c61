package powershell

import (
	"fmt"

	"wink.dev/wink/simnode/shell/powershell/engine"
	"wink.dev/wink/simnode/shell/powershell/parser"
	"wink.dev/wink/simnode/shell/process"
)

// Run is powershell.exe (pwsh false) or pwsh: -Command, -File,
// -EncodedCommand, a script path, or a script on stdin. The cmdlets of
// this package's files are registered with the interpreter by then.
func Run(p *process.Proc, argv []string, pwsh bool) int { return engine.Run(p, argv, pwsh) }

// Simulates reports whether name is a cmdlet (or its alias) that the shell
// simulates.
func Simulates(name string) bool { return engine.Simulates(name) }

// DecodeText decodes a script file's bytes as Windows PowerShell reads
// them (engine.DecodeText).
func DecodeText(data []byte) string { return engine.DecodeText(data) }

// Parse parses a PowerShell script without running it and returns the
// ParserError PowerShell 5.1 reports for it, or nil when it parses.
func Parse(src string) error {
	if _, err := parser.ParseScript(src); err != nil {
		return fmt.Errorf("%s (%s at offset %d)", err.Msg, err.ID, err.Pos)
	}
	return nil
}
