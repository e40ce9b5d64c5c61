package powershell

import "strings"

// This file is the output streams other than success and error as the
// console host shows them (about_Output_Streams, about_Preference_Variables):
// warning, verbose, debug and information messages, each shown or not by
// its preference variable or the cmdlet's common parameter. powershell.exe
// writes what its host shows to standard output; only errors go to
// standard error.

func init() {
	registerCmdlets(
		&psCmdlet{name: "Write-Warning", help: "Writes a warning (shown by default).", positional: []string{"Message*"},
			run: func(c *psCall) { toHost(c, "WarningAction", "WarningPreference", "Continue", "WARNING: ") }},
		&psCmdlet{name: "Write-Verbose", help: "Writes a verbose message (hidden by default).", positional: []string{"Message*"},
			run: func(c *psCall) { toHost(c, "Verbose", "VerbosePreference", "SilentlyContinue", "VERBOSE: ") }},
		&psCmdlet{name: "Write-Debug", help: "Writes a debug message (hidden by default).", positional: []string{"Message*"},
			run: func(c *psCall) { toHost(c, "Debug", "DebugPreference", "SilentlyContinue", "DEBUG: ") }},
		&psCmdlet{name: "Write-Information", help: "Writes an information record (hidden by default).", positional: []string{"MessageData*"}, params: []string{"Tags"},
			run: func(c *psCall) { toHost(c, "InformationAction", "InformationPreference", "SilentlyContinue", "") }},
	)
}

// toHost writes the call's message to the host with prefix when the
// stream's preference lets it through: the common parameter (-Verbose,
// -Debug: a switch; -WarningAction, -InformationAction: an action), else
// the preference variable, else the default. Stop ends the statement with
// ActionPreferenceStopException.
func toHost(c *psCall, param, prefVar, def, prefix string) {
	msg := joinValues(c.named["Message"], " ")
	if _, ok := c.named["MessageData"]; ok {
		msg = joinValues(c.named["MessageData"], " ")
	}
	pref := def
	if v := c.s.getVar(prefVar); v != nil {
		pref = toStr(v)
	}
	if v, ok := c.named[param]; ok {
		switch param {
		case "Verbose", "Debug":
			if toBool(v) {
				pref = "Continue"
			} else {
				pref = "SilentlyContinue"
			}
		default:
			pref = toStr(v)
		}
	}
	switch strings.ToLower(pref) {
	case "silentlycontinue", "ignore":
		return
	case "stop":
		c.s.p.Println(prefix + msg)
		c.terminate(&psErrorRecord{msg: "The running command stopped because the preference variable \"" + prefVar + "\" or common parameter is set to Stop: " + msg,
			category: "OperationStopped", target: ":", reason: "ActionPreferenceStopException", fqid: "ActionPreferenceStop,Microsoft.PowerShell.Commands." + strings.ReplaceAll(c.cmdlet.name, "-", "") + "Command"})
	}
	c.s.p.Println(prefix + msg)
}
