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
	// Focus and Skip are ginkgo regular expressions on the spec's full
	// text.
	Focus string `json:"focus"`
	Skip  string `json:"skip"`
	// Nodes is how many ginkgo processes run the specs (1: e2e.test
	// alone).
	Nodes int `json:"nodes"`
}

// RowRule traces the specs whose text matches Match to catalog rows.
type RowRule struct {
	Match string   `json:"match"`
	Rows  []string `json:"rows"`

	re *regexp.Regexp
}

// Catalog is jobs.yaml: the jobs, the e2e flags they share, the row rules.
type Catalog struct {
	Jobs []Job     `json:"jobs"`
	Args []string  `json:"args"`
	Rows []RowRule `json:"rows"`
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
// row patterns valid regular expressions (RE2, as ginkgo's).
func LoadCatalog(data []byte) (*Catalog, error) {
	var c Catalog
	if err := yaml.UnmarshalStrict(data, &c); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for i, j := range c.Jobs {
		if j.Name == "" || seen[j.Name] {
			return nil, fmt.Errorf("jobs[%d]: missing or duplicate name %q", i, j.Name)
		}
		seen[j.Name] = true
		if j.Nodes < 1 {
			return nil, fmt.Errorf("jobs[%d] (%s): nodes must be at least 1", i, j.Name)
		}
		for field, re := range map[string]string{"focus": j.Focus, "skip": j.Skip} {
			if _, err := regexp.Compile(re); err != nil {
				return nil, fmt.Errorf("jobs[%d] (%s): %s: %w", i, j.Name, field, err)
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
