package kubeletmetrics

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// TestCounters checks the families the HostProcess metrics spec reads
// (test/e2e/windows/host_process.go getCurrentHostProcessMetrics:
// kubelet_started_host_process_containers_total and _errors_total by
// container_type) and that the text parses as e2e's metrics grabber does.
func TestCounters(t *testing.T) {
	m := New("n1", func() int { return 3 })
	m.ContainerStarted(ContainerTypeInit, true)
	m.ContainerStartFailed(ContainerTypeInit, "RunContainerError", true)
	m.ContainerStarted(ContainerTypeContainer, true)
	m.ContainerStarted(ContainerTypeContainer, false)
	m.ContainerStartFailed(ContainerTypeContainer, "CreateContainerConfigError", false)

	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Fatalf("content type %q", ct)
	}
	p := expfmt.NewTextParser(model.LegacyValidation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(rec.Body.String()))
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, rec.Body.String())
	}
	value := func(name string, labels map[string]string) float64 {
		f, ok := fams[name]
		if !ok {
			t.Fatalf("no family %s in\n%s", name, rec.Body.String())
		}
		var sum float64
	metrics:
		for _, mm := range f.Metric {
			got := map[string]string{}
			for _, l := range mm.Label {
				got[l.GetName()] = l.GetValue()
			}
			for k, v := range labels {
				if got[k] != v {
					continue metrics
				}
			}
			switch {
			case mm.Counter != nil:
				sum += mm.Counter.GetValue()
			case mm.Gauge != nil:
				sum += mm.Gauge.GetValue()
			}
		}
		return sum
	}
	for _, tc := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"kubelet_started_containers_total", map[string]string{"container_type": "container"}, 2},
		{"kubelet_started_containers_total", map[string]string{"container_type": "init_container"}, 1},
		{"kubelet_started_containers_errors_total", map[string]string{"container_type": "container", "code": "CreateContainerConfigError"}, 1},
		{"kubelet_started_host_process_containers_total", map[string]string{"container_type": "container"}, 1},
		{"kubelet_started_host_process_containers_total", map[string]string{"container_type": "init_container"}, 1},
		{"kubelet_started_host_process_containers_errors_total", map[string]string{"container_type": "init_container"}, 1},
		{"kubelet_started_host_process_containers_errors_total", map[string]string{"container_type": "container"}, 0},
		{"kubelet_running_pods", nil, 3},
		{"kubelet_node_name", map[string]string{"node": "n1"}, 1},
	} {
		if got := value(tc.name, tc.labels); got != tc.want {
			t.Errorf("%s%v = %v, want %v", tc.name, tc.labels, got, tc.want)
		}
	}
}
