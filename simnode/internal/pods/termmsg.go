package pods

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// terminationMessages is what PodVolumes may also do: give the content of
// a container's termination message file (volumes.Pod.TerminationMessage).
type terminationMessages interface {
	TerminationMessage(container string) ([]byte, bool)
}

// terminationMessage is the message of c's instance that exited with code
// (row B13, rules runtime terminationMessage; kuberuntime_container.go
// convertToKubeContainerStatus): the file at terminationMessagePath, or
// with FallbackToLogsOnError and a non-zero exit, when that file is empty
// or absent, the tail of the container's log.
func (m *machine) terminationMessage(rec *record, c *container, code int32) string {
	spec := m.spec(rec, c)
	if spec == nil {
		return ""
	}
	tm := m.rules.Runtime.TerminationMessage
	fallback := spec.TerminationMessagePolicy == corev1.TerminationMessageFallbackToLogsOnError && code != 0
	msg, checkLogs := "", fallback
	if spec.TerminationMessagePath != "" {
		if v, ok := rec.volumes.(terminationMessages); ok {
			if data, ok := v.TerminationMessage(c.name); ok {
				if len(data) > tm.MaxFileBytes {
					data = data[len(data)-tm.MaxFileBytes:]
				}
				msg, checkLogs = string(data), fallback && len(data) == 0
			}
		}
	}
	if !checkLogs {
		return msg
	}
	b, err := m.logs.Get(logKey(rec, c, c.restartCount))
	if err != nil {
		return ""
	}
	lines := b.Lines()
	if len(lines) > tm.MaxLogLines {
		lines = lines[len(lines)-tm.MaxLogLines:]
	}
	var sb strings.Builder
	for i, l := range lines {
		sb.WriteString(l.Text)
		if i < len(lines)-1 || !c.partialTail {
			sb.WriteByte('\n')
		}
	}
	out := sb.String()
	if len(out) > tm.MaxLogBytes {
		out = out[len(out)-tm.MaxLogBytes:]
	}
	return out
}
