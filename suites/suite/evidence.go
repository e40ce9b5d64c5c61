package suite

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
	"wink.dev/wink/simnode/facts"
)

// The traceability lines' format is simnode/facts' (evidence.go): reports
// reads them back.
const (
	LabelsPrefix   = facts.LabelsPrefix
	EvidencePrefix = facts.EvidencePrefix
)

// Evidence kinds.
const (
	EvidenceObject = facts.EvidenceObject
	EvidenceEvent  = facts.EvidenceEvent
	EvidenceExec   = facts.EvidenceExec
	EvidenceLog    = facts.EvidenceLog
)

// LabelsLine is what a feature logs about itself.
type LabelsLine = facts.LabelsLine

// EvidenceLine is one piece of evidence.
type EvidenceLine = facts.EvidenceLine

// logLabels is the first setup step of every feature (see Feature).
func logLabels(t *testing.T, l LabelsLine) {
	t.Helper()
	if l.Rows == nil {
		l.Rows = []string{}
	}
	data, _ := json.Marshal(l)
	t.Log(LabelsPrefix + string(data))
}

// Evidence records what decided an assertion: kind is one of object, event,
// exec or log; summary is one line a report shows; detail the full text (the
// object's YAML, the event message, exec output with its exit code).
func Evidence(t testing.TB, kind, summary, detail string) {
	t.Helper()
	data, _ := json.Marshal(EvidenceLine{Kind: kind, Summary: summary, Detail: detail})
	t.Log(EvidencePrefix + string(data))
}

// ObjectEvidence records an API object as YAML, without its managedFields.
func ObjectEvidence(t testing.TB, summary string, obj any) {
	t.Helper()
	data, err := json.Marshal(obj)
	if err != nil {
		Evidence(t, EvidenceObject, summary, fmt.Sprintf("(cannot marshal %T: %v)", obj, err))
		return
	}
	var m map[string]any
	if json.Unmarshal(data, &m) == nil {
		if md, ok := m["metadata"].(map[string]any); ok {
			delete(md, "managedFields")
		}
		data, _ = json.Marshal(m)
	}
	y, err := yaml.JSONToYAML(data)
	if err != nil {
		y = data
	}
	Evidence(t, EvidenceObject, summary, string(y))
}

// EventEvidence records a Kubernetes event.
func EventEvidence(t testing.TB, ev corev1.Event) {
	t.Helper()
	obj := ev.InvolvedObject
	summary := fmt.Sprintf("%s %s on %s %s/%s", ev.Type, ev.Reason, obj.Kind, obj.Namespace, obj.Name)
	Evidence(t, EvidenceEvent, summary, ev.Message)
}

// ExecEvidence records a command run in a container and what it gave.
func ExecEvidence(t testing.TB, pod string, argv []string, res ExecResult) {
	t.Helper()
	cmd := strings.Join(argv, " ")
	detail := fmt.Sprintf("$ %s\nexit code: %d\n--- stdout\n%s\n--- stderr\n%s", cmd, res.ExitCode, res.Stdout, res.Stderr)
	Evidence(t, EvidenceExec, fmt.Sprintf("%s: %s → exit %d", pod, cmd, res.ExitCode), detail)
}
