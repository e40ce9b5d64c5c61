package reports

import (
	"html/template"
	"io"
	"maps"
	"slices"
	"strings"
)

type checkHTMLData struct {
	R         *CheckReport
	Headline  string
	Failed    bool
	Totals    CheckTotals
	Platforms []string
	Rows      []CheckRow
	// ManyCharts: the workloads come from more than one chart, so each
	// row names its chart.
	ManyCharts bool
	// PlatformErrors sorted by platform.
	PlatformErrors []checkPlatformError
}

type checkPlatformError struct{ Platform, Error string }

// WriteCheckHTML writes report.html of a check: one self-contained page (the
// style of WriteHTML, a few lines of inline JS) with the workload × platform
// matrix, each cell a badge pass, warn, fail (or not judged, absent) whose
// findings show on hover (its title) and expand in place (a details
// element), the platforms that could not be judged, and a filter by verdict
// (also set by the page's #fragment, e.g. report.html#fail).
func WriteCheckHTML(w io.Writer, r *CheckReport) error {
	d := checkHTMLData{R: r, Headline: r.Headline(), Failed: r.Failed(), Totals: r.Totals(), Platforms: r.allPlatforms(), Rows: r.Matrix(), ManyCharts: r.manyCharts()}
	for _, p := range slices.Sorted(maps.Keys(r.PlatformErrors)) {
		d.PlatformErrors = append(d.PlatformErrors, checkPlatformError{p, r.PlatformErrors[p]})
	}
	return checkHTMLTemplate.Execute(w, d)
}

// rowVerdicts is the verdicts of a row's cells, space-separated, for the
// filter.
func rowVerdicts(row CheckRow) string {
	var vs []string
	for _, c := range row.Cells {
		if !slices.Contains(vs, c.Verdict) {
			vs = append(vs, c.Verdict)
		}
	}
	return strings.Join(vs, " ")
}

// cellTitle is a cell's tooltip: its findings with their fixes, or its
// placement when it has none.
func cellTitle(c CheckCell) string {
	if c.Workload == nil {
		return verdictIcon[c.Verdict]
	}
	var lines []string
	for _, f := range c.Workload.Findings {
		lines = append(lines, findingText(f))
	}
	if len(lines) == 0 {
		return "pods: " + placementText(c.Workload.Placement)
	}
	return strings.Join(lines, "\n")
}

var checkHTMLTemplate = template.Must(template.Must(htmlBase.Clone()).New("check").Funcs(template.FuncMap{
	"dur":      FormatDuration,
	"join":     strings.Join,
	"verdicts": rowVerdicts,
	"title":    cellTitle,
	"pods":     placementText,
}).Parse(`{{template "head" (print "wink check: " .Headline)}}<style>
.warn{background:#fff8c5;color:#7d4e00}.error{background:#ffebe9;color:#6e011a}.absent{background:#eaeef2;color:#57606a}
td.cell{min-width:9rem}td.cell ul{margin:.3rem 0;padding-left:1.1rem}td.cell li{margin:.2rem 0}.fix{color:#116329}
</style>
</head>
<body>
<h1>{{if .Failed}}❌{{else}}✅{{end}} wink check: {{.Headline}}</h1>
<p class="totals"><span><b>{{.Totals.Checks}}</b> checks (workload × platform)</span><span class="badge pass">{{.Totals.Pass}} pass</span> <span class="badge warn">{{.Totals.Warn}} warn</span> <span class="badge fail">{{.Totals.Fail}} fail</span>
<span>findings: <b>{{.Totals.Errors}}</b> errors, <b>{{.Totals.Warnings}}</b> warnings</span><span>time: <b>{{dur .R.Duration}}</b></span>
{{if not .R.Started.IsZero}}<span class="muted">{{.R.Started.UTC.Format "2006-01-02 15:04:05 MST"}}</span>{{end}}</p>
<p>Charts {{range $i, $c := .R.Charts}}{{if $i}}, {{end}}<code>{{$c}}</code>{{end}}{{if .R.Kubernetes}} on Kubernetes {{.R.Kubernetes}}{{end}}.</p>
<div class="filters">
<label>Show <select id="verdict"><option value="">every workload</option><option value="fail">failing somewhere</option><option value="warn">with warnings</option><option value="pass">passing somewhere</option></select></label>
<label><input type="checkbox" id="expand"> open every cell's findings</label>
</div>
<h2>Workload × platform</h2>
<p class="muted">Each workload of the charts on each platform: hover a cell for its findings and their fixes, or open it.</p>
<table id="matrix">
<thead><tr><th>Workload</th>{{range .Platforms}}<th data-platform="{{.}}">{{.}}</th>{{end}}</tr></thead>
<tbody>
{{range .Rows}}<tr data-workload="{{.Title}}" data-verdicts="{{verdicts .}}">
<td class="id">{{.Title}}{{if $.ManyCharts}}<div class="muted"><code>{{.Chart}}</code></div>{{end}}</td>
{{range .Cells}}<td class="cell" data-platform="{{.Platform}}" data-verdict="{{.Verdict}}" title="{{title .}}">{{if .Workload}}{{if .Workload.Findings}}<details><summary><span class="badge {{.Verdict}}">{{.Verdict}}</span> <span class="muted">{{len .Workload.Findings}}</span></summary>
<ul>{{range .Workload.Findings}}<li data-severity="{{.Severity}}" data-code="{{.Code}}"><b>{{.Code}}</b>{{if .Pod}} <span class="muted">pod {{.Pod}}</span>{{end}}{{if .Rows}} <span class="muted">rows {{join .Rows ", "}}</span>{{end}}<div class="msg">{{.Message}}</div>{{if .Fix}}<div class="fix">fix: {{.Fix}}</div>{{end}}</li>{{end}}</ul></details>{{else}}<span class="badge {{.Verdict}}">{{.Verdict}}</span>{{end}}
<div class="muted">{{pods .Workload.Placement}}{{if .Workload.Expected}} · expected: {{.Workload.Expected}}{{end}}</div>{{else if eq .Verdict "error"}}<a class="badge error" href="#platform-{{.Platform}}">not judged</a>{{else}}<span class="badge absent">absent</span>{{end}}</td>
{{end}}</tr>
{{end}}</tbody>
</table>
{{if .PlatformErrors}}<h2>Platforms not judged</h2>
{{range .PlatformErrors}}<h3 id="platform-{{.Platform}}">{{.Platform}}</h3><pre>{{.Error}}</pre>
{{end}}{{end}}<script>
(function(){
  var sel=document.getElementById("verdict");
  function apply(){
    var v=sel.value;
    document.querySelectorAll("#matrix tbody tr").forEach(function(tr){
      tr.hidden=!!v && (" "+tr.dataset.verdicts+" ").indexOf(" "+v+" ")<0;
    });
  }
  var h=location.hash.slice(1);
  if(h && sel.querySelector('option[value="'+h+'"]')){sel.value=h;}
  sel.onchange=function(){history.replaceState(null,"","#"+sel.value);apply();};
  document.getElementById("expand").onchange=function(e){
    document.querySelectorAll("#matrix details").forEach(function(d){d.open=e.target.checked;});
  };
  apply();
})();
</script>
</body>
</html>
`))
