package reports

import (
	"encoding/json"
	"io"
)

// WriteJSON writes the report as results.json: totals, the packages, one
// result per feature (its rows, area, needs, status, duration, failure,
// evidence and assessments) and every catalog row with the tests that
// check it.
func WriteJSON(w io.Writer, r *Report) error {
	return encodeJSON(w, r)
}

// encodeJSON writes v as indented JSON, leaving <, > and & as they are.
func encodeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// ReadJSON reads a report written by WriteJSON.
func ReadJSON(rd io.Reader) (*Report, error) {
	var r Report
	if err := json.NewDecoder(rd).Decode(&r); err != nil {
		return nil, err
	}
	return &r, nil
}
