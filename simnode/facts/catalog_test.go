package facts

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSpec(t *testing.T) {
	rows := Rows()
	byID := map[string]Row{}
	for _, r := range rows {
		if _, dup := byID[r.ID]; dup {
			t.Errorf("row %s twice", r.ID)
		}
		byID[r.ID] = r
	}
	for _, id := range []string{"N1", "N9", "A1", "A24", "B1", "B16", "H1", "H9", "S1", "S5", "E"} {
		if byID[id].Behaviour == "" {
			t.Errorf("row %s: no behaviour text (%+v)", id, byID[id])
		}
	}
	if r := byID["B1"]; r.Section != "B. What a Windows node does (simnode must emulate; suites check through the API)" ||
		r.Observable == "" {
		t.Errorf("B1 = %+v", r)
	}
	// A10's observable has a | inside a code span.
	if r := byID["A10"]; r.Observable == "" || byID["A10"].Behaviour != "`runAsUserName` syntax" {
		t.Errorf("A10 = %+v", r)
	}
	if r := byID["E"]; r.Section != "E. What the simulated shell must understand (exec)" {
		t.Errorf("E = %+v", r)
	}
	if _, ok := byID["A14"]; ok {
		t.Error("A14 is not in the catalog")
	}
}

// TestSpecCopyIsCurrent compares the embedded copy with the catalog beside
// the repository, when it is there: `go generate ./reports` refreshes it.
func TestSpecCopyIsCurrent(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "spec", "windows-behaviors.md"))
	if err != nil {
		t.Skipf("no catalog beside the repository: %v", err)
	}
	if string(src) != catalog {
		t.Error("simnode/facts/windows-behaviors.md is stale: run `go generate ./reports`")
	}
}

// TestCheckCites: a citation of a row that is not in the catalog fails.
func TestCheckCites(t *testing.T) {
	if err := CheckCites([]string{"N1", "B4", "E", "H9"}); err != nil {
		t.Errorf("known rows refused: %v", err)
	}
	for _, bad := range []string{"B99", "A14", "n1", "", "X"} {
		if err := CheckCites([]string{"N1", bad}); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
