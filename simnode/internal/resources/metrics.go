package resources

import (
	"bufio"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/util/version"
)

// ResourceMetricsContentType is what the kubelet's /metrics/resource
// answers with (Prometheus text exposition 0.0.4).
const ResourceMetricsContentType = "text/plain; version=0.0.4; charset=utf-8"

// resourceScrapeErrorSince is the kubelet version that added
// resource_scrape_error and deprecated scrape_error; an ALPHA metric is
// hidden from its deprecation release on (component-base shouldHide).
var resourceScrapeErrorSince = version.MustParseSemantic("v1.29.0")

type series struct {
	labels [][2]string // sorted by name
	value  float64
	ts     time.Time // zero: no timestamp
}

type family struct {
	name, help, typ string
	series          []series
}

// WriteResourceMetrics writes the snapshot as the kubelet's /metrics/resource
// (pkg/kubelet/metrics/collectors/resource_metrics.go): the same metric
// names, help texts (with component-base's stability prefix), types and
// labels, families sorted by name and series by label values as the
// Prometheus registry gathers them. CPU and memory series carry the sample's
// timestamp; container_start_time_seconds and the scrape error do not. The
// swap series (Linux only upstream) are not simulated.
func (s *Snapshot) WriteResourceMetrics(w io.Writer, kubelet *version.Version) error {
	type podKey struct{ ns, name string }
	podCPU := map[podKey]float64{}
	podWS := map[podKey]float64{}
	var cCPU, cWS, cStart []series
	for _, c := range s.Containers {
		l := [][2]string{{"container", c.Name}, {"namespace", c.Pod.Namespace}, {"pod", c.Pod.Name}}
		cCPU = append(cCPU, series{labels: l, value: float64(c.CPUCoreNanoSeconds) / float64(time.Second), ts: s.Time})
		cWS = append(cWS, series{labels: l, value: float64(c.WorkingSet), ts: s.Time})
		if c.StartTime.Unix() > 0 {
			cStart = append(cStart, series{labels: l, value: float64(c.StartTime.UnixNano()) / float64(time.Second)})
		}
		k := podKey{c.Pod.Namespace, c.Pod.Name}
		podCPU[k] += float64(c.CPUCoreNanoSeconds) / float64(time.Second)
		podWS[k] += float64(c.WorkingSet)
	}
	var pCPU, pWS []series
	for k, v := range podCPU {
		l := [][2]string{{"namespace", k.ns}, {"pod", k.name}}
		pCPU = append(pCPU, series{labels: l, value: v, ts: s.Time})
		pWS = append(pWS, series{labels: l, value: podWS[k], ts: s.Time})
	}
	fams := []family{
		{"container_cpu_usage_seconds_total", "[STABLE] Cumulative cpu time consumed by the container in core-seconds", "counter", cCPU},
		{"container_memory_working_set_bytes", "[STABLE] Current working set of the container in bytes", "gauge", cWS},
		{"container_start_time_seconds", "[STABLE] Start time of the container since unix epoch in seconds", "gauge", cStart},
		{"node_cpu_usage_seconds_total", "[STABLE] Cumulative cpu time consumed by the node in core-seconds", "counter",
			[]series{{value: float64(s.NodeCPUCoreNanoSeconds) / float64(time.Second), ts: s.Time}}},
		{"node_memory_working_set_bytes", "[STABLE] Current working set of the node in bytes", "gauge",
			[]series{{value: float64(s.NodeWorkingSet), ts: s.Time}}},
		{"pod_cpu_usage_seconds_total", "[STABLE] Cumulative cpu time consumed by the pod in core-seconds", "counter", pCPU},
		{"pod_memory_working_set_bytes", "[STABLE] Current working set of the pod in bytes", "gauge", pWS},
	}
	if kubelet == nil || !kubelet.LessThan(resourceScrapeErrorSince) {
		fams = append(fams, family{"resource_scrape_error", "[STABLE] 1 if there was an error while getting container metrics, 0 otherwise", "gauge", []series{{value: 0}}})
	} else {
		fams = append(fams, family{"scrape_error", "[ALPHA] 1 if there was an error while getting container metrics, 0 otherwise", "gauge", []series{{value: 0}}})
	}
	sort.Slice(fams, func(i, j int) bool { return fams[i].name < fams[j].name })

	bw := bufio.NewWriter(w)
	for _, f := range fams {
		if len(f.series) == 0 {
			continue
		}
		sort.Slice(f.series, func(i, j int) bool {
			a, b := f.series[i].labels, f.series[j].labels
			for k := range min(len(a), len(b)) {
				if a[k][1] != b[k][1] {
					return a[k][1] < b[k][1]
				}
			}
			return len(a) < len(b)
		})
		bw.WriteString("# HELP " + f.name + " " + escapeHelp(f.help) + "\n")
		bw.WriteString("# TYPE " + f.name + " " + f.typ + "\n")
		for _, se := range f.series {
			bw.WriteString(f.name)
			if len(se.labels) > 0 {
				bw.WriteByte('{')
				for i, l := range se.labels {
					if i > 0 {
						bw.WriteByte(',')
					}
					bw.WriteString(l[0] + `="` + escapeLabel(l[1]) + `"`)
				}
				bw.WriteByte('}')
			}
			bw.WriteByte(' ')
			bw.WriteString(formatFloat(se.value))
			if !se.ts.IsZero() {
				bw.WriteByte(' ')
				bw.WriteString(strconv.FormatInt(se.ts.UnixMilli(), 10))
			}
			bw.WriteByte('\n')
		}
	}
	return bw.Flush()
}

// formatFloat formats as the Prometheus text encoder (expfmt writeFloat).
func formatFloat(f float64) string {
	switch {
	case f == 1:
		return "1"
	case f == 0:
		return "0"
	case f == -1:
		return "-1"
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, +1):
		return "+Inf"
	case math.IsInf(f, -1):
		return "-Inf"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

var helpEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`)
var labelEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`, `"`, `\"`)

func escapeHelp(s string) string  { return helpEscaper.Replace(s) }
func escapeLabel(s string) string { return labelEscaper.Replace(s) }
