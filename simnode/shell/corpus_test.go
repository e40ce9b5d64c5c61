package shell

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// corpusCase is one script idiom of testdata/corpus/<language>.yaml: a
// command written in the patterns of public charts' init containers, hooks,
// probes and entrypoints, with what the real image gives (issue 18).
type corpusCase struct {
	// Name says what the idiom does.
	Name string `json:"name"`
	// Source cites where the expected behaviour comes from: the language's
	// documentation page (Microsoft Learn for cmd and PowerShell, POSIX or
	// busybox for sh) or the upstream test.
	Source string `json:"source"`
	// OS is windows or linux; Image the image reference the container runs
	// ("" an open image of that OS).
	OS    string `json:"os"`
	Image string `json:"image,omitempty"`
	// Argv is the container's command as the kubelet passes it.
	Argv  []string `json:"argv"`
	Stdin string   `json:"stdin,omitempty"`
	// Files are written into the container before it runs (path → text).
	Files map[string]string `json:"files,omitempty"`
	// Stdout and Stderr are exact; StderrPrefix only the start of stderr.
	Stdout       string `json:"stdout"`
	Stderr       string `json:"stderr,omitempty"`
	StderrPrefix string `json:"stderrPrefix,omitempty"`
	Code         int    `json:"code"`
	// After are files the script leaves (path → text).
	After map[string]string `json:"after,omitempty"`
}

// TestCorpus runs every idiom of testdata/corpus: output, exit code and
// file effects as the real image gives them.
func TestCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/corpus/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var cases []corpusCase
		if err := yaml.UnmarshalStrict(data, &cases); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		lang := strings.TrimSuffix(filepath.Base(file), ".yaml")
		for _, c := range cases {
			t.Run(lang+"/"+c.Name, func(t *testing.T) {
				if c.Source == "" {
					t.Fatalf("%s: case %q cites no source", file, c.Name)
				}
				osys := Linux
				if c.OS == "windows" {
					osys = Windows
				}
				f := newFixture(osys)
				if c.Image != "" {
					f.env.Image = ImageOf(osys, c.Image, false)
				}
				for p, text := range c.Files {
					f.fs.add(p, text)
				}
				res := f.run(t, c.Argv, c.Stdin)
				if res.stdout != c.Stdout {
					t.Errorf("stdout %q, want %q", res.stdout, c.Stdout)
				}
				switch {
				case c.StderrPrefix != "" && !strings.HasPrefix(res.stderr, c.StderrPrefix):
					t.Errorf("stderr %q, want prefix %q", res.stderr, c.StderrPrefix)
				case c.StderrPrefix == "" && res.stderr != c.Stderr:
					t.Errorf("stderr %q, want %q", res.stderr, c.Stderr)
				}
				if res.code != c.Code {
					t.Errorf("exit code %d, want %d", res.code, c.Code)
				}
				for p, want := range c.After {
					if got, ok := f.fs.get(p); !ok || got != want {
						t.Errorf("%s holds %q (exists %v), want %q", p, got, ok, want)
					}
				}
			})
		}
	}
}
