package powershell

import "wink.dev/wink/simnode/shell/powershell/engine"
import "strings"

// This file is the output streams other than success and error as the
// console host shows them (about_Output_Streams, about_Preference_Variables):
// warning, verbose, debug and information messages, each shown or not by
// its preference variable or the cmdlet's common parameter. powershell.exe
// writes what its host shows to standard output; only errors go to
// standard error.

func init() {
	engine.RegisterCmdlets(
		&engine.Cmdlet{Name: "Write-Warning", Help: "Writes a warning (shown by default).", Positional: []string{"Message*"},
			Run: func(c *engine.Call) { toHost(c, "WarningAction", "WarningPreference", "Continue", "WARNING: ") }},
		&engine.Cmdlet{Name: "Write-Verbose", Help: "Writes a verbose message (hidden by default).", Positional: []string{"Message*"},
			Run: func(c *engine.Call) { toHost(c, "Verbose", "VerbosePreference", "SilentlyContinue", "VERBOSE: ") }},
		&engine.Cmdlet{Name: "Write-Debug", Help: "Writes a debug message (hidden by default).", Positional: []string{"Message*"},
			Run: func(c *engine.Call) { toHost(c, "Debug", "DebugPreference", "SilentlyContinue", "DEBUG: ") }},
		&engine.Cmdlet{Name: "Write-Information", Help: "Writes an information record (hidden by default).", Positional: []string{"MessageData*"}, Params: []string{"Tags"},
			Run: func(c *engine.Call) { toHost(c, "InformationAction", "InformationPreference", "SilentlyContinue", "") }},
	)
}

// toHost writes the call's message to the host with prefix when the
// stream's preference lets it through: the common parameter (-Verbose,
// -Debug: a switch; -WarningAction, -InformationAction: an action), else
// the preference variable, else the default. Stop ends the statement with
// ActionPreferenceStopException.
func toHost(c *engine.Call, param, prefVar, def, prefix string) {
	msg := engine.JoinValues(c.Named["Message"], " ")
	if _, ok := c.Named["MessageData"]; ok {
		msg = engine.JoinValues(c.Named["MessageData"], " ")
	}
	pref := def
	if v := c.S.GetVar(prefVar); v != nil {
		pref = engine.ToStr(v)
	}
	if v, ok := c.Named[param]; ok {
		switch param {
		case "Verbose", "Debug":
			if engine.ToBool(v) {
				pref = "Continue"
			} else {
				pref = "SilentlyContinue"
			}
		default:
			pref = engine.ToStr(v)
		}
	}
	switch strings.ToLower(pref) {
	case "silentlycontinue", "ignore":
		return
	case "stop":
		c.S.P.Println(prefix + msg)
		c.Terminate(&engine.ErrorRecord{Msg: "The running command stopped because the preference variable \"" + prefVar + "\" or common parameter is set to Stop: " + msg,
			Category: "OperationStopped", Target: ":", Reason: "ActionPreferenceStopException", Fqid: "ActionPreferenceStop,Microsoft.PowerShell.Commands." + strings.ReplaceAll(c.Cmdlet.Name, "-", "") + "Command"})
	}
	c.S.P.Println(prefix + msg)
}
