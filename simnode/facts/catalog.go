package facts

import (
	_ "embed"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// catalog is a copy of the behaviour catalog (../shared/spec/windows-behaviors.md
// beside the repository), embedded so that wink works without it. Refresh it
// with `go generate ./reports` after the catalog changes; reports'
// TestSpecCopyIsCurrent fails while the copy is stale.
//
//go:embed windows-behaviors.md
var catalog string

// Row is one row of the behaviour catalog: the statement a test checks and
// a simulated behaviour cites.
type Row struct {
	ID         string `json:"id"`
	Section    string `json:"section"`              // e.g. "N. Node identity (kubelet on Windows)"
	Behaviour  string `json:"behaviour"`            // the doc statement
	Observable string `json:"observable,omitempty"` // what shows it, when the table says
}

// Rows returns the rows of the embedded catalog, in catalog order.
func Rows() []Row { return slices.Clone(rows) }

// Known says whether id is a row of the catalog (N1, A17, ..., or a section
// letter without a table, E).
func Known(id string) bool { return known[id] }

// CheckCites returns an error naming the first citation of ids that is not
// a row of the catalog, or nil. Rule tables call it when they load, so a
// behaviour cannot cite a row that does not exist.
func CheckCites(ids []string) error {
	for _, id := range ids {
		if !known[id] {
			return fmt.Errorf("cites %q, which is not a row of the behaviour catalog (rows look like N1, A17, B4, H2, S3, E)", id)
		}
	}
	return nil
}

var (
	rows  = Parse(catalog)
	known = func() map[string]bool {
		m := map[string]bool{}
		for _, r := range rows {
			m[r.ID] = true
		}
		return m
	}()
)

var (
	sectionRe = regexp.MustCompile(`^## ([A-Z])\. (.*)$`)
	rowIDRe   = regexp.MustCompile(`^[A-Z][0-9]+$`)
)

// Parse reads the rows of a catalog in the format of
// windows-behaviors.md: `## X. Title` sections holding markdown tables whose
// first column is the row ID and second the behaviour; the column named
// Observable (or "Exact error / observable") is kept too. A section without
// a table (E) becomes one row whose ID is the section letter and whose
// behaviour is the section's first paragraph.
func Parse(md string) []Row {
	var rows []Row
	var section, letter string
	var header []string
	var para []string
	sectionHasRows, paraDone := false, false
	endSection := func() {
		if letter != "" && !sectionHasRows && len(para) > 0 {
			rows = append(rows, Row{ID: letter, Section: section, Behaviour: strings.Join(para, " ")})
		}
	}
	for _, line := range strings.Split(md, "\n") {
		line = strings.TrimRight(line, "\r")
		if m := sectionRe.FindStringSubmatch(line); m != nil {
			endSection()
			letter, section = m[1], m[1]+". "+m[2]
			header, para, sectionHasRows, paraDone = nil, nil, false, false
			continue
		}
		if strings.HasPrefix(line, "## ") {
			endSection()
			letter, section = "", ""
			continue
		}
		if letter == "" {
			continue
		}
		if !strings.HasPrefix(line, "|") {
			switch t := strings.TrimSpace(line); {
			case t == "" && len(para) > 0:
				paraDone = true
			case t != "" && !paraDone:
				para = append(para, t)
			}
			continue
		}
		cells := splitRow(line)
		if header == nil {
			header = cells
			continue
		}
		if len(cells) == 0 || !rowIDRe.MatchString(cells[0]) {
			continue // the |---| line
		}
		r := Row{ID: cells[0], Section: section}
		if len(cells) > 1 {
			r.Behaviour = cells[1]
		}
		for i, h := range header {
			if i > 1 && i < len(cells) && strings.Contains(strings.ToLower(h), "observable") && cells[i] != "—" {
				r.Observable = cells[i]
			}
		}
		rows = append(rows, r)
		sectionHasRows = true
	}
	endSection()
	return rows
}

// splitRow splits a markdown table row into trimmed cells. A `|` inside a
// code span does not end a cell.
func splitRow(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "|")
	line = strings.TrimSuffix(line, "|")
	var cells []string
	var cur strings.Builder
	open := 0 // length of the backtick run that opened the current code span
	for i := 0; i < len(line); {
		if line[i] == '`' {
			n := 0
			for i+n < len(line) && line[i+n] == '`' {
				n++
			}
			switch {
			case open == 0:
				open = n
			case open == n:
				open = 0
			}
			cur.WriteString(line[i : i+n])
			i += n
			continue
		}
		if line[i] == '|' && open == 0 {
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		} else {
			cur.WriteByte(line[i])
		}
		i++
	}
	return append(cells, strings.TrimSpace(cur.String()))
}
