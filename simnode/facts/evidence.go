package facts

// Traceability lines. Every feature logs one labels line when it starts, and
// assertions log evidence lines; `wink test` (package reports) reads them
// back from the `go test -json` / test2json stream to tie each result to its
// spec rows and to the object, event or exec output that decided it.
//
//	wink:labels {"feature":"...","rows":["N1","N2"],"area":"nodes","needs":"simnode"}
//	wink:evidence {"kind":"event","summary":"...","detail":"..."}
//	wink:harness cluster "wink-nodes" is not up: ...
//
// Each is one line of JSON (newlines in detail are escaped), so it survives
// test2json whatever the test's indentation. A harness line, printed by a
// suite whose cluster did not come up before its tests, carries the cause
// as text on one line: the run reports a harness problem, not failed tests.
const (
	LabelsPrefix   = "wink:labels "
	EvidencePrefix = "wink:evidence "
	HarnessPrefix  = "wink:harness "
)

// Evidence kinds.
const (
	EvidenceObject = "object" // detail: the object as YAML
	EvidenceEvent  = "event"  // detail: the event's message
	EvidenceExec   = "exec"   // detail: argv, stdout, stderr and exit code
	EvidenceLog    = "log"    // detail: a container's log
)

// LabelsLine is what a feature logs about itself.
type LabelsLine struct {
	Feature string   `json:"feature"`
	Rows    []string `json:"rows"`
	Area    string   `json:"area"`
	Needs   string   `json:"needs"`
}

// EvidenceLine is one piece of evidence.
type EvidenceLine struct {
	Kind    string `json:"kind"`
	Summary string `json:"summary"`
	Detail  string `json:"detail,omitempty"`
}
