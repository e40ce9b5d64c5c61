package reports

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"time"
)

// Event is one event of a `go test -json` stream (the format of
// `go doc test2json`).
type Event struct {
	Time    time.Time `json:",omitzero"`
	Action  string
	Package string  `json:",omitempty"`
	Test    string  `json:",omitempty"`
	Elapsed float64 `json:",omitempty"` // seconds
	Output  string  `json:",omitempty"`
	// Key and Value of an attr event (t.Attr), Path of an artifacts event.
	Key   string `json:",omitempty"`
	Value string `json:",omitempty"`
	Path  string `json:",omitempty"`
}

// Actions of test2json events.
const (
	ActionStart  = "start"
	ActionRun    = "run"
	ActionPause  = "pause"
	ActionCont   = "cont"
	ActionPass   = "pass"
	ActionBench  = "bench"
	ActionFail   = "fail"
	ActionOutput = "output"
	ActionSkip   = "skip"
)

// DecodeEvents reads a `go test -json` stream and calls emit for every
// event. Lines that are not JSON events (`go test` prints build errors that
// way) become output events of pkg, so that nothing is lost.
func DecodeEvents(r io.Reader, pkg string, emit func(Event)) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 64*1024*1024)
	for sc.Scan() {
		line := sc.Bytes()
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var e Event
		if line[0] != '{' || json.Unmarshal(line, &e) != nil || e.Action == "" {
			emit(Event{Action: ActionOutput, Package: pkg, Output: string(line) + "\n"})
			continue
		}
		emit(e)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading test events: %w", err)
	}
	return nil
}

// ReadEvents reads a whole `go test -json` stream.
func ReadEvents(r io.Reader) ([]Event, error) {
	var events []Event
	err := DecodeEvents(r, "", func(e Event) { events = append(events, e) })
	return events, err
}

// EncodeEvents writes events as a `go test -json` stream.
func EncodeEvents(w io.Writer, events []Event) error {
	enc := json.NewEncoder(w)
	for _, e := range events {
		if err := enc.Encode(e); err != nil {
			return err
		}
	}
	return nil
}
