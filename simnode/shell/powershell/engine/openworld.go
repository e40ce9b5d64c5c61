package engine

import (
	_ "embed"
	"wink.dev/wink/simnode/shell/powershell/parser"

	"wink.dev/wink/simnode/shell/process"
)

// unsimulated is PowerShell's open world: an in-box cmdlet or executable
// wink does not simulate succeeds silently ($? true, $LASTEXITCODE 0 for an
// executable); a program or script of an open image is an
// UnknownProgram (runs until stopped, or ends with 0 when run to
// completion). A
// Verb-Noun name that is neither simulated nor in-box is a module the image
// would have to ship: not found, as in a plain Windows Server image.
func (s *Shell) unsimulated(name string, el *parser.Node) bool {
	img := s.P.Env.Image
	if img.InBox {
		if _, ok := process.InBoxCmdlet(name); ok {
			s.P.NotSimulated("powershell: " + name)
			s.evalArgs(el) // arguments are evaluated, as when the cmdlet binds them
			s.lastOK = true
			return true
		}
		if process.InBoxExecutable(name) {
			s.evalArgs(el)
			s.P.LastExit, s.lastOK, s.exitKnown = 0, true, true
			return true
		}
	}
	if img.Open && process.Tool(process.Windows, name) {
		s.evalArgs(el)
		s.P.LastExit, s.lastOK, s.exitKnown = 0, true, true
		return true
	}
	if img.Open && !process.VerbNounRE.MatchString(name) {
		s.evalArgs(el)
		s.P.LastExit, s.exitKnown = s.P.UnknownProgram(), true
		if s.P.LastExit != 0 || !s.P.Env.Completes {
			s.failed()
		}
		s.CheckCtx()
		return true
	}
	return false
}
