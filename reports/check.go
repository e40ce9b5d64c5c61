package reports

import (
	"time"

	"wink.dev/wink/simnode/facts"
)

// The results of `wink check` (harness/check): charts installed on clusters
// shaped like managed platforms, each workload judged from what the cluster
// did. harness/check fills a CheckReport; the writers of this package turn it
// into junit.xml (one testcase per workload per platform), results.json,
// summary.md and report.html (a workload × platform matrix).

// Severity of a finding: an error fails the check (exit 1), a warning is
// reported only.
type Severity string

const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
)

// CheckReport is one `wink check` run: every chart on every platform.
type CheckReport struct {
	// Charts are the CHART arguments as the user gave them.
	Charts    []string `json:"charts"`
	Platforms []string `json:"platforms"`
	// Kubernetes is the control plane's version the charts were judged on.
	Kubernetes string    `json:"kubernetes,omitempty"`
	Started    time.Time `json:"started"`
	Duration   float64   `json:"duration_seconds"`
	// Workloads: one entry per workload per platform, in a stable order
	// (chart, kind, namespace, name, platform).
	Workloads []CheckWorkload `json:"workloads"`
	// Errors that stopped a platform as a whole (a chart that does not
	// render, a cluster that did not come up), keyed by platform.
	PlatformErrors map[string]string `json:"platform_errors,omitempty"`
}

// CheckWorkload is one workload of a chart (a Deployment, DaemonSet,
// StatefulSet, Job, CronJob, bare Pod, or a Helm hook or test) on one
// platform.
type CheckWorkload struct {
	Chart     string `json:"chart"`
	Release   string `json:"release"`
	Kind      string `json:"kind"`
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	Platform  string `json:"platform"`
	// OS the workload targets as judged ("windows", "linux", or "" when it
	// has no OS selector).
	OS facts.OS `json:"os,omitempty"`
	// Expected is the placement the --expect file declares, if any.
	Expected string `json:"expected,omitempty"`
	// Pods by node OS and build where they landed, e.g. {"windows/2022": 2}.
	Placement map[string]int `json:"placement,omitempty"`
	Findings  []Finding      `json:"findings,omitempty"`
	Duration  float64        `json:"duration_seconds"`
}

// Failed reports whether w has a finding of severity error.
func (w CheckWorkload) Failed() bool {
	for _, f := range w.Findings {
		if f.Severity == SeverityError {
			return true
		}
	}
	return false
}

// Finding is one thing the cluster did that a chart maintainer must know:
// what happened, as the cluster said it, and the fix.
type Finding struct {
	Severity Severity `json:"severity"`
	// Code names the class, e.g. "pending-untolerated-taint",
	// "linux-pod-on-windows", "daemonset-no-windows-pods", "no-image-for-build",
	// "crash-loop", "hook-failed", "refused-by-apiserver", "refused-by-kubelet".
	Code string `json:"code"`
	// Message is what happened, with the cluster's exact words (the
	// scheduler's reason, the kubelet's or apiserver's message).
	Message string `json:"message"`
	// Fix is what to change in the chart or its values.
	Fix string `json:"fix"`
	// Pod is the pod the finding was seen on, if any.
	Pod string `json:"pod,omitempty"`
	// Rows are the spec rows (simnode/facts) the behaviour comes from.
	Rows []string `json:"rows,omitempty"`
}
