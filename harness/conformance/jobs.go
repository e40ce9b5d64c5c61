package conformance

import (
	_ "embed"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"
)

//go:embed jobs.yaml
var jobsYAML []byte

// Job is one of SIG Windows' e2e jobs.
type Job struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Source is where the job's selection and parallelism were read.
	Source Source `json:"source"`
	// Focus and Skip are the job's own ginkgo regular expressions on the
	// spec's full text, as its prow job gives them.
	Focus string `json:"focus"`
	Skip  string `json:"skip"`
	// WinkSkip are the specs wink leaves out although the job runs them,
	// each with its reason; ginkgo gets them as a second --ginkgo.skip.
	WinkSkip []WinkSkip `json:"wink_skip,omitempty"`
	// Nodes is how many ginkgo processes run the specs (1: e2e.test
	// alone).
	Nodes int `json:"nodes"`

	focus, skip *regexp.Regexp
}

// Source traces a job to SIG Windows' CI configuration.
type Source struct {
	// ProwJob is the job's name in kubernetes/test-infra ("" for a job of
	// wink's own).
	ProwJob string `json:"prow_job,omitempty"`
	// File is the prow job's file in kubernetes/test-infra.
	File string `json:"file,omitempty"`
	// Commit is the test-infra commit that last changed the job's
	// selection.
	Commit string `json:"commit,omitempty"`
	// Script and ScriptCommit: the windows-testing script the job runs
	// and the commit that last changed what the job takes from it.
	Script       string `json:"script,omitempty"`
	ScriptCommit string `json:"script_commit,omitempty"`
	// From says which setting gives focus, skip and nodes.
	From string `json:"from"`
}

// WinkSkip is a spec the real job runs and wink does not.
type WinkSkip struct {
	Match  string `json:"match"`
	Reason string `json:"reason"`

	re *regexp.Regexp
}

// RowRule traces the specs whose text matches Match to catalog rows.
type RowRule struct {
	Match string   `json:"match"`
	Rows  []string `json:"rows"`

	re *regexp.Regexp
}

// ReadAt are the commits of the repositories the jobs were read from.
type ReadAt struct {
	TestInfra      string `json:"test_infra"`
	WindowsTesting string `json:"windows_testing"`
}

// Catalog is jobs.yaml: the jobs, the e2e flags they share, the row rules.
type Catalog struct {
	ReadAt ReadAt    `json:"read_at"`
	Jobs   []Job     `json:"jobs"`
	Args   []string  `json:"args"`
	Rows   []RowRule `json:"rows"`
}

var defaultCatalog = mustLoad(jobsYAML)

// Default returns the embedded jobs.yaml (read-only).
func Default() *Catalog { return defaultCatalog }

func mustLoad(data []byte) *Catalog {
	c, err := LoadCatalog(data)
	if err != nil {
		panic("harness/conformance: jobs.yaml: " + err.Error())
	}
	return c
}

// LoadCatalog parses and checks a jobs file: names unique, focus, skip and
// row patterns valid regular expressions (RE2, as ginkgo's), each wink
// skip with its reason.
func LoadCatalog(data []byte) (*Catalog, error) {
	var c Catalog
	if err := yaml.UnmarshalStrict(data, &c); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for i := range c.Jobs {
		j := &c.Jobs[i]
		if j.Name == "" || seen[j.Name] {
			return nil, fmt.Errorf("jobs[%d]: missing or duplicate name %q", i, j.Name)
		}
		seen[j.Name] = true
		if j.Nodes < 1 {
			return nil, fmt.Errorf("jobs[%d] (%s): nodes must be at least 1", i, j.Name)
		}
		var err error
		if j.focus, err = regexp.Compile(j.Focus); err != nil {
			return nil, fmt.Errorf("jobs[%d] (%s): focus: %w", i, j.Name, err)
		}
		if j.skip, err = regexp.Compile(j.Skip); err != nil {
			return nil, fmt.Errorf("jobs[%d] (%s): skip: %w", i, j.Name, err)
		}
		for k := range j.WinkSkip {
			w := &j.WinkSkip[k]
			if w.Reason == "" {
				return nil, fmt.Errorf("jobs[%d] (%s): wink_skip %q: no reason", i, j.Name, w.Match)
			}
			if w.re, err = regexp.Compile(w.Match); err != nil {
				return nil, fmt.Errorf("jobs[%d] (%s): wink_skip: %w", i, j.Name, err)
			}
		}
	}
	for i := range c.Rows {
		re, err := regexp.Compile(c.Rows[i].Match)
		if err != nil {
			return nil, fmt.Errorf("rows[%d]: match: %w", i, err)
		}
		if len(c.Rows[i].Rows) == 0 {
			return nil, fmt.Errorf("rows[%d] (%s): no rows", i, c.Rows[i].Match)
		}
		c.Rows[i].re = re
	}
	return &c, nil
}

// Job returns the job called name.
func (c *Catalog) Job(name string) (Job, error) {
	var names []string
	for _, j := range c.Jobs {
		if j.Name == name {
			return j, nil
		}
		names = append(names, j.Name)
	}
	return Job{}, fmt.Errorf("unknown job %q: choose one of %s", name, strings.Join(names, ", "))
}

// Selects reports whether the job's own focus and skip select a spec, as
// ginkgo matches them (internal/focus.go): against the suite's
// description, a space and the spec's full text. An empty focus selects
// every spec, an empty skip skips none.
func (j Job) Selects(suiteAndSpec string) bool {
	focus, skip := j.focus, j.skip
	if focus == nil {
		focus, skip = regexp.MustCompile(j.Focus), regexp.MustCompile(j.Skip)
	}
	return focus.MatchString(suiteAndSpec) && (j.Skip == "" || !skip.MatchString(suiteAndSpec))
}

// WinkSkips returns the wink skip that leaves a spec out, if any.
func (j Job) WinkSkips(suiteAndSpec string) (WinkSkip, bool) {
	for _, w := range j.WinkSkip {
		re := w.re
		if re == nil {
			re = regexp.MustCompile(w.Match)
		}
		if re.MatchString(suiteAndSpec) {
			return w, true
		}
	}
	return WinkSkip{}, false
}

// winkSkip is the wink skips as one ginkgo skip expression ("" for none).
func (j Job) winkSkip() string {
	parts := make([]string, len(j.WinkSkip))
	for i, w := range j.WinkSkip {
		parts[i] = w.Match
	}
	return strings.Join(parts, "|")
}

// RowsFor returns the catalog rows a spec's full text is traced to,
// sorted, without duplicates.
func (c *Catalog) RowsFor(spec string) []string {
	set := map[string]bool{}
	for _, r := range c.Rows {
		if r.re.MatchString(spec) {
			for _, row := range r.Rows {
				set[row] = true
			}
		}
	}
	out := make([]string, 0, len(set))
	for r := range set {
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}
