package reports

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestConverterMatchesGo converts the inputs of Go's own test2json golden
// tests (in GOROOT, when there is one) and compares with Go's expected
// events, writing the input line by line and in one piece.
func TestConverterMatchesGo(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", "cmd", "internal", "test2json", "testdata", "*.test"))
	if len(files) == 0 {
		t.Skip("no Go source tree: cmd/internal/test2json/testdata not found")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".test")
		t.Run(name, func(t *testing.T) {
			in, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			wantData, err := os.ReadFile(strings.TrimSuffix(file, ".test") + ".json")
			if err != nil {
				t.Fatal(err)
			}
			want, err := ReadEvents(bytes.NewReader(wantData))
			if err != nil {
				t.Fatal(err)
			}
			for mode, chunks := range map[string][][]byte{
				"lines": bytes.SplitAfter(in, []byte("\n")),
				"bulk":  {in},
			} {
				var got []Event
				c := NewConverter("", func() time.Time { return time.Time{} }, func(e Event) { got = append(got, e) })
				for _, chunk := range chunks {
					c.Write(chunk)
				}
				c.Close()
				for i := range got {
					got[i].Elapsed = 0 // Go's goldens have no timestamps
				}
				if g, w := dump(got), dump(want); g != w {
					t.Errorf("%s: events differ\n got:\n%s\nwant:\n%s", mode, g, w)
				}
			}
		})
	}
}

func dump(events []Event) string {
	var b strings.Builder
	for _, e := range events {
		data, _ := json.Marshal(e)
		b.Write(data)
		b.WriteByte('\n')
	}
	return b.String()
}
