package reports

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Files are the files WriteAll writes into its directory.
var Files = []string{"junit.xml", "results.json", "summary.md", "report.html", "events.jsonl"}

// WriteAll writes the four reports of r and the raw events into dir
// (Files), making dir if needed.
func WriteAll(dir string, r *Report, events []Event) error {
	return writeFiles(dir, Files, map[string]func(io.Writer) error{
		"junit.xml":    func(w io.Writer) error { return WriteJUnit(w, r) },
		"results.json": func(w io.Writer) error { return WriteJSON(w, r) },
		"summary.md":   func(w io.Writer) error { return WriteMarkdown(w, r) },
		"report.html":  func(w io.Writer) error { return WriteHTML(w, r) },
		"events.jsonl": func(w io.Writer) error { return EncodeEvents(w, events) },
	})
}

// writeFiles writes each of names into dir with its writer, making dir if
// needed.
func writeFiles(dir string, names []string, writers map[string]func(io.Writer) error) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, name := range names {
		file, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		err = writers[name](file)
		if cerr := file.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
	}
	return nil
}
