package shell

import (
	"slices"
	"testing"
	"time"
)

// traceRecorder is a process.Tracer that keeps what it heard.
type traceRecorder struct{ got []string }

func (r *traceRecorder) NotSimulated(what string) { r.got = append(r.got, what) }

// TestPowerShellNotSimulated: constructs the interpreter does not implement
// leave a NotSimulated trace and behave as the open world (issue 18).
func TestPowerShellNotSimulated(t *testing.T) {
	for _, c := range []struct {
		name, script, out, want string
		code                    int
	}{
		{"class definition", "class Config { [string]$Name }; 'after'", "after\r\n", "powershell: class", 0},
		{"using namespace", "using namespace System.Net\n'after'", "after\r\n", "powershell: using", 0},
		{"unknown static member", "[System.Security.Principal.WindowsIdentity]::GetCurrent(); 'after'", "after\r\n", "powershell: [System.Security.Principal.WindowsIdentity]::getcurrent", 0},
		{"switch -File", `switch -File C:\data\hello.txt { default { $_ } }`, "", "powershell: switch -File", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(Windows)
			f.env.Completes = true
			tr := &traceRecorder{}
			f.env.Tracer = tr
			r := f.run(t, ps(c.script), "")
			if r.stdout != c.out || r.code != c.code || r.stderr != "" {
				t.Errorf("stdout %q stderr %q code %d, want %q \"\" %d", r.stdout, r.stderr, r.code, c.out, c.code)
			}
			if !slices.Contains(tr.got, c.want) {
				t.Errorf("traces %q, want %q", tr.got, c.want)
			}
		})
	}
}

// TestPowerShellErrorModel covers what the corpus does not: error records
// as output, $Error after a trap, Write-Error in a function, -ErrorVariable
// with +, nested try in functions (about_Try_Catch_Finally, about_Trap,
// about_CommonParameters).
func TestPowerShellErrorModel(t *testing.T) {
	runCases(t, []tcase{
		{name: "an error record written to output is formatted as an error", argv: ps(`try { throw 'x' } catch { $_ }`),
			out: "x\r\nAt line:1 char:7\r\n+ try { throw 'x' } catch { $_ }\r\n+       ~~~~~~~~~\r\n    + CategoryInfo          : OperationStopped: (x:String) [], RuntimeException\r\n    + FullyQualifiedErrorId : x\r\n \r\n"},
		{name: "Write-Error in a function names the function", argv: ps(`function Check { Write-Error "bad" }; Check`), code: 1,
			errOut: "Check : bad\r\nAt line:1 char:39\r\n+ function Check { Write-Error \"bad\" }; Check\r\n+                                       ~~~~~\r\n    + CategoryInfo          : NotSpecified: (:) [Write-Error], WriteErrorException\r\n    + FullyQualifiedErrorId : Microsoft.PowerShell.Commands.WriteErrorException,Check\r\n \r\n"},
		{name: "Write-Error -ErrorAction Stop is caught", argv: ps(`try { Write-Error "bad" -ErrorAction Stop } catch { "caught $($_.Exception.GetType().Name)" }`), out: "caught WriteErrorException\r\n"},
		{name: "an error in a function reaches the caller's catch", argv: ps(`function Get-It { Get-Content C:\nope -ErrorAction Stop; 'no' }; try { Get-It } catch { 'caught' }`), out: "caught\r\n"},
		{name: "a statement-terminating error in a function ends only that statement", argv: ps(`function F { nosuch; 'in f' }; F; 'after'`), out: "in f\r\nafter\r\n", errHas: []string{"nosuch : The term 'nosuch' is not recognized"}},
		{name: "-ErrorVariable +name appends", argv: ps(`Get-Content C:\a -EA 0 -EV e; Get-Content C:\b -EA 0 -EV +e; $e.Count`), out: "2\r\n"},
		{name: "-ErrorVariable is empty after success", argv: ps(`Get-Content C:\data\hello.txt -ErrorVariable e | Out-Null; $e.Count`), out: "0\r\n"},
		{name: "Ignore keeps the error out of $Error", argv: ps(`Get-Content C:\a -ErrorAction Ignore; $Error.Count`), out: "0\r\n"},
		{name: "trapped errors are in $Error", argv: ps(`trap { continue }; throw 'a'; $Error[0].Exception.Message`), out: "a\r\n"},
		{name: "typed trap only traps its type", argv: ps(`trap [System.Net.WebException] { 'web'; continue }; Invoke-WebRequest http://nohost -UseBasicParsing; 'after'`), out: "web\r\nafter\r\n"},
		{name: "throw an exception object", argv: ps(`try { throw [System.IO.FileNotFoundException]::new('no file') } catch [System.IO.IOException] { $_.Exception.Message }`), out: "no file\r\n"},
		{name: "exit in finally-protected try still runs finally", argv: ps(`try { exit 3 } finally { 'fin' }`), out: "fin\r\n", code: 3},
		{name: "$? is False after a statement-terminating error", argv: ps(`nosuch 2>$null; $?`), out: "False\r\n", errHas: []string{"nosuch"}},
		{name: "a script's error reaches the caller's catch", argv: ps(`try { & C:\data\bad.ps1 } catch { "caught: $_" }`), out: "caught: from script\r\n",
			setup: func(f *fixture) { f.fs.add(`C:\data\bad.ps1`, "throw 'from script'\r\n") }},
	})
}

// TestPowerShellScriptExit: exit in a script the session runs ends that
// script and sets $LASTEXITCODE; the caller goes on (about_Language_Keywords).
func TestPowerShellScriptExit(t *testing.T) {
	runCases(t, []tcase{
		{name: "exit in a called script", argv: ps(`& C:\data\s.ps1; "after: $LASTEXITCODE"; exit $LASTEXITCODE`), out: "in script\r\nafter: 4\r\n", code: 4,
			setup: func(f *fixture) { f.fs.add(`C:\data\s.ps1`, "'in script'\r\nexit 4\r\n'not here'\r\n") }},
	})
}

// TestPowerShellVersionFollowsImage: $PSVersionTable and
// [Environment]::OSVersion follow the image's Windows build (row N3,
// issue 18), and a -File script knows where it is ($PSScriptRoot).
func TestPowerShellVersionFollowsImage(t *testing.T) {
	runCases(t, []tcase{
		{name: "ltsc2019", argv: ps(`"$($PSVersionTable.PSVersion)"; [Environment]::OSVersion.VersionString`),
			setup: func(f *fixture) { f.env.OSVersion = "10.0.17763.6054" }, out: "5.1.17763.6054\r\nMicrosoft Windows NT 10.0.17763.0\r\n"},
		{name: "$PSScriptRoot", argv: []string{"powershell", "-File", `C:\data\where.ps1`},
			setup: func(f *fixture) { f.fs.add(`C:\data\where.ps1`, "$PSScriptRoot\r\n$MyInvocation.MyCommand.Name\r\n") }, out: "C:\\data\r\nwhere.ps1\r\n"},
	})
}

// TestInvokeRestMethodJSON: Invoke-RestMethod returns a JSON body as
// objects (invoke-restmethod, issue 18).
func TestInvokeRestMethodJSON(t *testing.T) {
	runCases(t, []tcase{
		{name: "json body", argv: ps(`$r = Invoke-RestMethod http://web/api/status; $r.status; $r.items.Count`), out: "ok\r\n2\r\n",
			setup: func(f *fixture) {
				f.net.http["web:80/api/status"] = &HTTPResponse{Status: 200, Headers: map[string]string{"Content-Type": "application/json"}, Body: []byte(`{"status":"ok","items":[1,2]}`)}
			}},
		{name: "a failed request is a WebException", argv: ps(`try { Invoke-RestMethod http://10.96.0.20/nope } catch [System.Net.WebException] { "status $($_.Exception.Response.StatusCode.value__)" }`), out: "status 404\r\n"},
	})
}

// TestPowerShellSteps: every statement and loop iteration is a step of the
// process; a busy loop is throttled on the process's clock (issue 18,
// process/limits.go), so 5,000 iterations take simulated time.
func TestPowerShellSteps(t *testing.T) {
	f := newFixture(Windows)
	r := f.run(t, ps(`$i = 0; while ($i -lt 5000) { $i++ }; $i`), "")
	if r.stdout != "5000\r\n" || r.code != 0 {
		t.Fatalf("stdout %q code %d", r.stdout, r.code)
	}
	if f.clock.slept < 50*time.Millisecond {
		t.Errorf("the loop slept %v on the process's clock, want at least 50ms (10,000 steps at 100,000 a second)", f.clock.slept)
	}
}

// TestPowerShellRanges: a..b has no fixed cap (issue 18). foreach and
// ForEach-Object stream a range, paced by the step budget; a range
// captured in an array is bounded by the memory limit and ends in
// System.OutOfMemoryException (row B5, MicrosoftDocs/PowerShell-Docs#10906).
func TestPowerShellRanges(t *testing.T) {
	oom := "Exception of type 'System.OutOfMemoryException' was thrown.\r\n"
	runCases(t, []tcase{
		// Streamed, not held: the ranges below would need 6.4 and 9.6 MB
		// at 32 bytes a number, past a 4 MiB limit (sizes kept small so
		// that a loaded machine runs them in the fixture's real 5 s).
		{name: "foreach streams a range past the old 100,000 cap", argv: ps(`$n = 0; foreach ($i in 1..200000) { $n++ }; $n`), out: "200000\r\n", setup: memoryLimit(4 << 20)},
		{name: "ForEach-Object takes a range one number at a time", argv: ps(`$s = 0; 1..300000 | ForEach-Object { $s++ }; $s`), out: "300000\r\n", setup: memoryLimit(4 << 20)},
		{name: "a descending range", argv: ps(`5..1 -join ","`), out: "5,4,3,2,1\r\n"},
		{name: "an array range past the memory limit", argv: ps(`$a = 1..100000000; "after"`), code: 1, errHas: []string{oom, "FullyQualifiedErrorId : System.OutOfMemoryException"}, out: "-"},
		{name: "pipeline output past the memory limit", argv: ps(`1..1000 | ForEach-Object { 1..100000 } | Measure-Object`), code: 1, errHas: []string{oom}, out: "-", setup: memoryLimit(4 << 20)},
		{name: "an endpoint past [int32]", argv: ps(`1..3000000000`), code: 1, errHas: []string{`Cannot convert value "3000000000" to type "System.Int32".`}, out: "-"},
	})
}

// TestPowerShellScopeMemory: what a function's variables hold is released
// when it returns (about_Scopes, issue 18): four calls that each hold a
// 32 MB range fit a 64 MB limit only if each call gives its memory back.
func TestPowerShellScopeMemory(t *testing.T) {
	runCases(t, []tcase{
		{name: "a function's locals are released", argv: ps(`function Use-Memory { $big = 1..1000000; $big.Count }; 1..4 | ForEach-Object { Use-Memory } | Measure-Object -Sum | ForEach-Object Sum`), out: "4000000\r\n"},
		{name: "a script block's locals are released", argv: ps(`foreach ($i in 1..4) { & { $big = 1..1000000 } }; "done"`), out: "done\r\n"},
		{name: "a dot-sourced block's variables stay held", argv: ps(`foreach ($i in 1..4) { . { Set-Variable -Name "big$i" -Value (1..1000000) } }; "done"`), code: 1, errHas: []string{"System.OutOfMemoryException"}, out: "-"},
	})
}

// memoryLimit sets the container's memory limit (process.Limits).
func memoryLimit(n int64) func(*fixture) {
	return func(f *fixture) { f.env.Limits.Memory = n }
}
