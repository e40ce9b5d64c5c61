package reports

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Timestamp  string          `xml:"timestamp,attr,omitempty"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Classname  string          `xml:"classname,attr"`
	Name       string          `xml:"name,attr"`
	Time       string          `xml:"time,attr"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Failure    *junitMessage   `xml:"failure,omitempty"`
	Error      *junitMessage   `xml:"error,omitempty"`
	Skipped    *junitMessage   `xml:"skipped,omitempty"`
	SystemOut  *junitText      `xml:"system-out,omitempty"`
}

type junitText struct {
	Text string `xml:",cdata"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",cdata"`
}

func seconds(s float64) string { return fmt.Sprintf("%.3f", s) }

// WriteJUnit writes the report as JUnit XML: one testsuite per package, one
// testcase per result (feature) with classname = the package and the rows,
// area and needs as properties. A package that failed outside its tests (a
// cluster that did not come up) gets a testcase "TestMain" with an error.
func WriteJUnit(w io.Writer, r *Report) error {
	out := junitSuites{Name: "wink", Time: seconds(r.Duration)}
	for _, p := range r.Packages {
		s := junitSuite{Name: p.Package, Time: seconds(p.Duration), Properties: []junitProperty{{"area", p.Area}}}
		if !r.Started.IsZero() {
			s.Timestamp = r.Started.UTC().Format("2006-01-02T15:04:05")
		}
		for _, res := range r.Results {
			if res.Package != p.Package {
				continue
			}
			c := junitCase{Classname: res.Package, Name: res.Test, Time: seconds(res.Duration)}
			for _, row := range res.Rows {
				c.Properties = append(c.Properties, junitProperty{"row", row})
			}
			c.Properties = append(c.Properties, junitProperty{"area", res.Area})
			if res.Needs != "" {
				c.Properties = append(c.Properties, junitProperty{"needs", res.Needs})
			}
			c.Properties = append(c.Properties, junitProperty{"feature", res.Feature})
			switch res.Status {
			case StatusFail:
				c.Failure = &junitMessage{Message: failureMessage(res.Failure), Type: "failure", Text: res.Failure}
				s.Failures++
			case StatusSkip:
				c.Skipped = &junitMessage{Message: res.SkipReason}
				s.Skipped++
			}
			if out := systemOut(res); out != "" {
				c.SystemOut = &junitText{out}
			}
			s.Cases = append(s.Cases, c)
			s.Tests++
		}
		if p.Failure != "" {
			msg, kind := firstLine(p.Failure), "error"
			if p.Harness != "" {
				msg, kind = "harness problem: "+p.Harness, "harness"
			}
			s.Cases = append(s.Cases, junitCase{Classname: p.Package, Name: "TestMain", Time: seconds(p.Duration),
				Error: &junitMessage{Message: msg, Type: kind, Text: p.Failure}})
			s.Tests++
			s.Errors++
		}
		out.Tests += s.Tests
		out.Failures += s.Failures
		out.Errors += s.Errors
		out.Skipped += s.Skipped
		out.Suites = append(out.Suites, s)
	}
	return encodeJUnit(w, out)
}

// encodeJUnit writes out as an indented XML document.
func encodeJUnit(w io.Writer, out junitSuites) error {
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// systemOut lists a result's assessments and evidence.
func systemOut(res Result) string {
	var b strings.Builder
	for _, a := range res.Assessments {
		fmt.Fprintf(&b, "%s %s (%s)\n", strings.ToUpper(string(a.Status)), a.Name, FormatDuration(a.Duration))
		for _, e := range a.Evidence {
			fmt.Fprintf(&b, "  evidence [%s] %s\n", e.Kind, e.Summary)
		}
	}
	return b.String()
}

// failureMessage is the first assertion line of a failure, without its
// file:line, else its first line.
func failureMessage(s string) string {
	for _, line := range strings.Split(s, "\n") {
		if loc := fileLineRe.FindStringIndex(line); loc != nil {
			return strings.TrimSpace(line[loc[1]:])
		}
	}
	return firstLine(s)
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	first, _, _ := strings.Cut(s, "\n")
	return first
}
