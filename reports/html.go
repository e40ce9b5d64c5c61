package reports

import (
	"html/template"
	"io"
	"regexp"
	"slices"
	"strings"
)

type htmlTest struct {
	Result   Result
	Status   Status // for this row
	Evidence []Evidence
}

type htmlRow struct {
	RowResult
	Areas string // space-separated areas of its tests, for the filter
	Tests []htmlTest
}

type htmlData struct {
	R        *Report
	Heading  string
	Headline string
	Failed   bool
	Rows     []htmlRow
	Areas    []string
}

// WriteHTML writes report.html: one self-contained page (inline CSS and a
// few lines of inline JS, no external assets) with the traceability matrix
// catalog statement → row → tests → result → evidence, collapsible
// evidence, the failures and every result, filterable by area and status.
func WriteHTML(w io.Writer, r *Report) error {
	d := htmlData{R: r, Heading: r.Heading(), Headline: r.Headline(), Failed: r.Failed()}
	byKey := r.byKey()
	for _, res := range r.Results {
		if res.Area != "" && !slices.Contains(d.Areas, res.Area) {
			d.Areas = append(d.Areas, res.Area)
		}
	}
	slices.Sort(d.Areas)
	for _, row := range r.Rows {
		hr := htmlRow{RowResult: row}
		var areas []string
		for _, k := range row.Tests {
			res := byKey[k]
			hr.Tests = append(hr.Tests, htmlTest{Result: res, Status: StatusFor(res, row.ID), Evidence: EvidenceFor(res, row.ID)})
			if !slices.Contains(areas, res.Area) {
				areas = append(areas, res.Area)
			}
		}
		hr.Areas = strings.Join(areas, " ")
		d.Rows = append(d.Rows, hr)
	}
	return htmlTemplate.Execute(w, d)
}

var codeSpanRe = regexp.MustCompile("(`+)(.+?)(`+)")

// inlineCode renders the catalog's `code` spans as <code>, escaping the rest.
func inlineCode(s string) template.HTML {
	var b strings.Builder
	last := 0
	for _, m := range codeSpanRe.FindAllStringSubmatchIndex(s, -1) {
		if s[m[2]:m[3]] != s[m[6]:m[7]] {
			continue
		}
		b.WriteString(template.HTMLEscapeString(s[last:m[0]]))
		b.WriteString("<code>" + template.HTMLEscapeString(strings.TrimSpace(s[m[4]:m[5]])) + "</code>")
		last = m[1]
	}
	b.WriteString(template.HTMLEscapeString(s[last:]))
	return template.HTML(b.String())
}

// htmlBase is what every report page starts with: the doctype, the head
// with the page's title (the template's argument) and the one style sheet
// of the reports. A page adds its own rules and closes the head.
var htmlBase = template.Must(template.New("base").Parse(`{{define "head"}}<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.}}</title>
<style>
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1400px;padding:1rem 2rem;color:#1f2328}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #d0d7de}
table{border-collapse:collapse;width:100%}th,td{border:1px solid #d0d7de;padding:.3rem .5rem;vertical-align:top;text-align:left}
th{background:#f6f8fa;position:sticky;top:0}
code,pre{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f6f8fa}
pre{padding:.5rem;overflow:auto;max-height:30rem;white-space:pre-wrap;margin:.3rem 0}
.badge{display:inline-block;border-radius:1em;padding:0 .6em;font-size:12px;font-weight:600;white-space:nowrap}
.pass{background:#dafbe1;color:#116329}.fail{background:#ffebe9;color:#a40e26}.skip{background:#fff8c5;color:#7d4e00}.not-covered{background:#eaeef2;color:#57606a}
.totals span{margin-right:1.2rem}.muted{color:#57606a;font-size:12px}
details{margin:.15rem 0}summary{cursor:pointer}.filters{margin:1rem 0}.filters label{margin-right:1rem}
td.id{font-weight:600;white-space:nowrap}
</style>
{{end}}`))

var htmlTemplate = template.Must(template.Must(htmlBase.Clone()).New("report").Funcs(template.FuncMap{
	"dur":    FormatDuration,
	"code":   inlineCode,
	"join":   strings.Join,
	"status": func(s Status) string { return strings.ReplaceAll(string(s), " ", "-") },
}).Parse(`{{template "head" (print .Heading ": " .Headline)}}</head>
<body>
<h1>{{if .Failed}}❌{{else}}✅{{end}} {{.Heading}}: {{.Headline}}</h1>
<p class="totals"><span><b>{{.R.Totals.Results}}</b> results</span><span class="badge pass">{{.R.Totals.Pass}} pass</span> <span class="badge fail">{{.R.Totals.Fail}} fail</span> <span class="badge skip">{{.R.Totals.Skip}} skip</span>
<span>rows covered: <b>{{.R.Totals.Covered}}</b> of {{.R.Totals.Rows}} ({{.R.Totals.RowsFail}} failing)</span><span>time: <b>{{dur .R.Duration}}</b></span>
{{if not .R.Started.IsZero}}<span class="muted">{{.R.Started.UTC.Format "2006-01-02 15:04:05 MST"}} – {{.R.Finished.UTC.Format "15:04:05 MST"}}</span>{{end}}</p>
<div class="filters">
<label>Area <select id="area"><option value="">all</option>{{range .Areas}}<option>{{.}}</option>{{end}}</select></label>
<label>Result <select id="status"><option value="">all</option><option value="pass">pass</option><option value="fail">fail</option><option value="skip">skip</option><option value="not-covered">not covered</option></select></label>
</div>
{{if .Failed}}<h2>Failures</h2>
{{range .R.Packages}}{{if .Harness}}<h3>⚠️ suite {{.Area}}: harness problem, its cluster did not come up (no test ran) <span class="muted">{{.Package}}</span></h3><p>{{.Harness}}</p><pre>{{.Failure}}</pre>{{else if .Failure}}<h3>suite {{.Area}} failed before its tests <span class="muted">{{.Package}}</span></h3><pre>{{.Failure}}</pre>{{end}}{{end}}
{{range .R.Results}}{{if eq .Status "fail"}}<h3 class="f" data-area="{{.Area}}">{{.Area}}: {{.Feature}} <span class="muted">rows {{join .Rows ", "}} · {{.Test}}</span></h3><pre>{{.Failure}}</pre>{{end}}{{end}}
{{end}}
<h2>Traceability matrix</h2>
<p class="muted">Each row of the behaviour catalog, the tests that cite it (feature labels <code>row=…</code>), their result and the evidence that decided it.</p>
<table id="matrix">
<thead><tr><th>Row</th><th>Statement</th><th>Tests</th><th>Result</th><th>Evidence</th></tr></thead>
<tbody>
{{range .Rows}}<tr data-area="{{.Areas}}" data-status="{{status .Status}}">
<td class="id">{{.ID}}</td>
<td>{{if .Known}}{{code .Behaviour}}{{if .Observable}}<div class="muted">{{code .Observable}}</div>{{end}}<div class="muted">{{.Section}}</div>{{else}}<i>not in the catalog</i>{{end}}</td>
<td>{{range .Tests}}<div>{{.Result.Area}}: {{.Result.Feature}} <span class="badge {{status .Status}}">{{.Status}}</span></div>{{else}}—{{end}}</td>
<td><span class="badge {{status .Status}}">{{.Status}}</span></td>
<td>{{range .Tests}}{{range .Evidence}}<details><summary>[{{.Kind}}] {{.Summary}}</summary><pre>{{.Detail}}</pre></details>{{end}}{{if and (eq .Status "fail") .Result.Failure}}<details><summary>failure</summary><pre>{{.Result.Failure}}</pre></details>{{end}}{{end}}</td>
</tr>
{{end}}</tbody>
</table>
<h2>Results</h2>
<table id="results">
<thead><tr><th>Area</th><th>Feature</th><th>Rows</th><th>Result</th><th>Time</th><th>Assessments and evidence</th></tr></thead>
<tbody>
{{range .R.Results}}<tr data-area="{{.Area}}" data-status="{{status .Status}}">
<td>{{.Area}}</td><td>{{.Feature}}<div class="muted">{{.Package}} {{.Test}}{{if .Needs}} · needs {{.Needs}}{{end}}</div></td>
<td>{{join .Rows ", "}}</td><td><span class="badge {{status .Status}}">{{.Status}}</span>{{if .SkipReason}}<div class="muted">{{.SkipReason}}</div>{{end}}</td><td>{{dur .Duration}}</td>
<td>{{range .Assessments}}<details{{if eq .Status "fail"}} open{{end}}><summary><span class="badge {{status .Status}}">{{.Status}}</span> {{.Name}} <span class="muted">{{dur .Duration}}</span></summary>{{if .Failure}}<pre>{{.Failure}}</pre>{{end}}{{range .Evidence}}<details><summary>[{{.Kind}}] {{.Summary}}</summary><pre>{{.Detail}}</pre></details>{{end}}</details>{{end}}</td>
</tr>
{{end}}</tbody>
</table>
<script>
(function(){
  var area=document.getElementById("area"), status=document.getElementById("status");
  function apply(){
    document.querySelectorAll("#matrix tbody tr, #results tbody tr").forEach(function(tr){
      var a=area.value, s=status.value;
      var okA=!a || (" "+tr.dataset.area+" ").indexOf(" "+a+" ")>=0;
      var okS=!s || tr.dataset.status===s;
      tr.style.display=okA&&okS?"":"none";
    });
  }
  area.onchange=apply; status.onchange=apply;
})();
</script>
</body>
</html>
`))
