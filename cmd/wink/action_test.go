package main

// wink's GitHub Action: action.yml at the repository root (`wink check` on
// a chart repository's charts), its shell steps in .github/action/run.sh.
//
// run.sh is the action's logic, one subcommand per step: build (go build
// of the action's own checkout into $RUNNER_TEMP/wink, reused when an
// earlier use of the action in the job built it), check (wink check with
// the inputs, which action.yml passes as INPUT_* variables: a composite
// action's run steps see its inputs only as ${{ inputs.x }}), and summary
// (summary.md appended to $GITHUB_STEP_SUMMARY). This test reads
// action.yml and runs its steps in order with bash as the runner would:
// expressions substituted, `if: always()` steps run after a failure, the
// `uses:` steps checked for pinned versions and skipped.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// actionFile is the part of action.yml a runner reads.
type actionFile struct {
	Inputs  map[string]actionInput `json:"inputs"`
	Outputs map[string]struct {
		Value string `json:"value"`
	} `json:"outputs"`
	Runs struct {
		Using string       `json:"using"`
		Steps []actionStep `json:"steps"`
	} `json:"runs"`
}

type actionInput struct {
	Required bool   `json:"required"`
	Default  string `json:"default"`
}

type actionStep struct {
	Name  string            `json:"name"`
	ID    string            `json:"id"`
	Uses  string            `json:"uses"`
	If    string            `json:"if"`
	Shell string            `json:"shell"`
	Run   string            `json:"run"`
	Env   map[string]string `json:"env"`
	With  map[string]scalar `json:"with"`
}

// scalar is a YAML scalar the runner reads as a string (true, 5, "x").
type scalar string

func (s *scalar) UnmarshalJSON(data []byte) error {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*s = scalar(fmt.Sprint(v))
	return nil
}

// root is the repository root: the action's path.
func root(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func readAction(t *testing.T) actionFile {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root(t), "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a actionFile
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if a.Runs.Using != "composite" {
		t.Fatalf("action.yml: runs.using %q, want composite", a.Runs.Using)
	}
	return a
}

// pinned is a `uses:` reference at a release tag or a commit, not a branch.
var pinned = regexp.MustCompile(`^[\w.-]+/[\w.-]+(/[\w./-]+)?@(v\d+(\.\d+){0,2}|[0-9a-f]{40})$`)

var expression = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// runner runs the steps of action.yml as GitHub's runner would, on this
// machine: the workspace, RUNNER_TEMP and the step summary are temp paths.
type runner struct {
	action    actionFile
	path      string // the action's checkout: GITHUB_ACTION_PATH
	workspace string
	temp      string
	summary   string
	env       []string
	// outputs of the steps run so far, by step id and name.
	outputs map[string]map[string]string
}

func newRunner(t *testing.T, env ...string) *runner {
	t.Helper()
	dir := t.TempDir()
	r := &runner{action: readAction(t), path: root(t), workspace: filepath.Join(dir, "workspace"), temp: filepath.Join(dir, "runner-temp"),
		summary: filepath.Join(dir, "step-summary.md"), outputs: map[string]map[string]string{}}
	for _, d := range []string{r.workspace, r.temp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	r.env = append(os.Environ(), "GITHUB_ACTION_PATH="+r.path, "GITHUB_WORKSPACE="+r.workspace, "RUNNER_TEMP="+r.temp,
		"GITHUB_STEP_SUMMARY="+r.summary, "GITHUB_ACTIONS=true", "RUNNER_OS=Linux")
	r.env = append(r.env, env...)
	return r
}

// expand substitutes the ${{ }} expressions of s the action uses.
func (r *runner) expand(t *testing.T, s string, inputs map[string]string) string {
	t.Helper()
	return expression.ReplaceAllStringFunc(s, func(m string) string {
		expr := expression.FindStringSubmatch(m)[1]
		switch {
		case strings.HasPrefix(expr, "inputs."):
			name := strings.TrimPrefix(expr, "inputs.")
			in, ok := r.action.Inputs[name]
			if !ok {
				t.Fatalf("action.yml uses ${{ %s }}: no input %q is declared", expr, name)
			}
			if v, given := inputs[name]; given {
				return v
			}
			return in.Default
		case expr == "github.action_path":
			return r.path
		case expr == "runner.temp":
			return r.temp
		case strings.HasPrefix(expr, "steps."):
			// steps.<id>.outputs.<name>: "" until the step ran, as on
			// the runner.
			id, name, ok := strings.Cut(strings.TrimPrefix(expr, "steps."), ".outputs.")
			if !ok || !r.hasStep(id) {
				t.Fatalf("action.yml: ${{ %s }} names no step output of a step of action.yml", expr)
			}
			return r.outputs[id][name]
		}
		t.Fatalf("action.yml: expression ${{ %s }} is not one this test knows: teach expand", expr)
		return ""
	})
}

func (r *runner) hasStep(id string) bool {
	return slices.ContainsFunc(r.action.Runs.Steps, func(s actionStep) bool { return s.ID == id })
}

// readOutputs reads a step's $GITHUB_OUTPUT file (name=value lines).
func readOutputs(t *testing.T, path string) map[string]string {
	t.Helper()
	out := map[string]string{}
	f, err := os.Open(path)
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), "=")
		if !ok {
			t.Fatalf("$GITHUB_OUTPUT line %q: want name=value", sc.Text())
		}
		out[name] = value
	}
	return out
}

// result is how a run of the action went.
type result struct {
	code    int      // exit code of the first failed step, 0 if none
	ran     []string // the steps run, by name (uses: steps by their action)
	log     string
	summary string            // what the steps appended to $GITHUB_STEP_SUMMARY
	outputs map[string]string // the action's outputs
}

// run runs the action's steps in order with the given inputs: a step with
// no `if` runs while no step failed, one with `if: always()` runs anyway;
// `uses:` steps are checked for a pinned version and counted as run, not
// run.
func (r *runner) run(t *testing.T, inputs map[string]string) result {
	t.Helper()
	for name := range inputs {
		if _, ok := r.action.Inputs[name]; !ok {
			t.Fatalf("the test gives input %q, which action.yml does not declare", name)
		}
	}
	var res result
	var log bytes.Buffer
	for i, st := range r.action.Runs.Steps {
		name := st.Name
		if name == "" {
			name = st.Uses
		}
		switch st.If {
		case "":
			if res.code != 0 {
				continue
			}
		case "always()":
		default:
			t.Fatalf("step %d (%s): condition %q is not one this test knows", i, name, st.If)
		}
		res.ran = append(res.ran, name)
		if st.Uses != "" {
			if !pinned.MatchString(st.Uses) {
				t.Errorf("step %d uses %q: pin a release tag (@v4) or a commit", i, st.Uses)
			}
			for _, v := range st.With {
				r.expand(t, string(v), inputs) // every expression must resolve
			}
			continue
		}
		if st.Shell != "bash" {
			t.Fatalf("step %d (%s): shell %q; a composite step needs shell: bash", i, name, st.Shell)
		}
		script := filepath.Join(t.TempDir(), "step.sh")
		if err := os.WriteFile(script, []byte(r.expand(t, st.Run, inputs)), 0o644); err != nil {
			t.Fatal(err)
		}
		// What the runner runs for shell: bash.
		cmd := exec.CommandContext(t.Context(), "bash", "--noprofile", "--norc", "-eo", "pipefail", script)
		cmd.Dir, cmd.Stdout, cmd.Stderr = r.workspace, &log, &log
		output := filepath.Join(t.TempDir(), "github-output")
		cmd.Env = append(slices.Clone(r.env), "GITHUB_OUTPUT="+output)
		for k, v := range st.Env {
			cmd.Env = append(cmd.Env, k+"="+r.expand(t, v, inputs))
		}
		log.WriteString("\n--- step " + name + "\n")
		if err := cmd.Run(); err != nil {
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("step %s: %v", name, err)
			}
			res.code = ee.ExitCode()
		}
		if st.ID != "" {
			r.outputs[st.ID] = readOutputs(t, output)
		}
	}
	res.log = log.String()
	summary, _ := os.ReadFile(r.summary)
	res.summary = string(summary)
	res.outputs = map[string]string{}
	for name, o := range r.action.Outputs {
		res.outputs[name] = r.expand(t, o.Value, inputs)
	}
	return res
}

// fakeWink is a stand-in for `wink check` until the real one is built: it
// records its arguments in $FAKE_WINK_ARGS, writes summary.md into its
// --output directory and exits with $FAKE_WINK_EXIT.
const fakeWink = `#!/bin/sh
printf '%s\n' "$@" >"$FAKE_WINK_ARGS"
out=wink-check-report
while [ $# -gt 0 ]; do
  case "$1" in --output) out="$2"; shift ;; --) break ;; esac
  shift
done
mkdir -p "$out" && echo "# fake wink check: exit $FAKE_WINK_EXIT" >"$out/summary.md"
exit "$FAKE_WINK_EXIT"
`

func TestActionSteps(t *testing.T) {
	all := []string{"actions/setup-go@v5", "cache key", "actions/cache@v4", "build wink", "wink check", "summary", "actions/upload-artifact@v4"}
	for _, tt := range []struct {
		name     string
		inputs   map[string]string
		exit     string // the fake wink's exit code
		wantCode int
		wantArgs []string // nil: wink must not run
		summary  string
		ran      []string
	}{
		{
			name: "every input reaches wink check",
			inputs: map[string]string{"charts": "charts/agent, charts/other\n", "values": "ci/a.yaml\nci/b.yaml", "platforms": "eks, gke,aks",
				"set": "image.tag=1.2\n  tolerations[0].key=os,x  \n", "expect": "ci/expect.yaml", "timeout": "5m"},
			exit: "0",
			wantArgs: []string{"check", "--output", "wink-check-report", "-f", "ci/a.yaml", "-f", "ci/b.yaml", "--platform", "eks", "--platform", "gke", "--platform", "aks",
				"--set", "image.tag=1.2", "--set", "tolerations[0].key=os,x", "--expect", "ci/expect.yaml", "--timeout", "5m", "--", "charts/agent", "charts/other"},
			summary: "# fake wink check: exit 0", ran: all,
		},
		{
			name: "findings fail the step, the summary and the upload run anyway", inputs: map[string]string{"charts": "charts/agent", "output": "out/check"},
			exit: "1", wantCode: 1, wantArgs: []string{"check", "--output", "out/check", "--", "charts/agent"},
			summary: "# fake wink check: exit 1", ran: all,
		},
		{
			name: "a usage error of wink check fails the step with 2", inputs: map[string]string{"charts": "charts/agent", "platforms": "azure"},
			exit: "2", wantCode: 2, wantArgs: []string{"check", "--output", "wink-check-report", "--platform", "azure", "--", "charts/agent"},
			summary: "# fake wink check: exit 2", ran: all,
		},
		{
			name: "no charts is a usage error before wink runs", inputs: map[string]string{"charts": " , \n"},
			exit: "0", wantCode: 2, summary: "wink check wrote no wink-check-report/summary.md", ran: all,
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			args := filepath.Join(t.TempDir(), "args")
			r := newRunner(t, "FAKE_WINK_ARGS="+args, "FAKE_WINK_EXIT="+tt.exit)
			// The build step reuses a wink built earlier in the job.
			if err := os.WriteFile(filepath.Join(r.temp, "wink"), []byte(fakeWink), 0o755); err != nil {
				t.Fatal(err)
			}
			res := r.run(t, tt.inputs)
			if res.code != tt.wantCode {
				t.Errorf("exit code %d, want %d\n%s", res.code, tt.wantCode, res.log)
			}
			if !slices.Equal(res.ran, tt.ran) {
				t.Errorf("steps run %q, want %q", res.ran, tt.ran)
			}
			got, err := os.ReadFile(args)
			switch {
			case tt.wantArgs == nil && err == nil:
				t.Errorf("wink ran with %q; it must not", got)
			case tt.wantArgs != nil && err != nil:
				t.Errorf("wink did not run: %v\n%s", err, res.log)
			case tt.wantArgs != nil && !slices.Equal(strings.Split(strings.TrimSuffix(string(got), "\n"), "\n"), tt.wantArgs):
				t.Errorf("wink args\n%q\nwant\n%q", strings.Split(strings.TrimSuffix(string(got), "\n"), "\n"), tt.wantArgs)
			}
			if !strings.Contains(res.summary, tt.summary) {
				t.Errorf("step summary %q, want it to contain %q", res.summary, tt.summary)
			}
			if tt.wantArgs != nil && res.outputs["report"] != tt.wantArgs[2] {
				t.Errorf("output report %q, want %q", res.outputs["report"], tt.wantArgs[2])
			}
			if key := r.outputs["key"]["key"]; !strings.HasPrefix(key, "wink-Linux-") || len(key) < 40 {
				t.Errorf("cache key %q, want wink-Linux-<arch>-<go>-<hash of the checkout>", key)
			}
			if tt.wantCode != 0 && !strings.Contains(res.log, "::error title=wink check::") {
				t.Errorf("a failed check gives no error annotation:\n%s", res.log)
			}
		})
	}
}

// TestActionRealWink runs the action with the wink of $WINK_BINARY (make
// test sets it) on a small clean chart for the generic platform: exit 0, the
// summary appended, the reports written.
func TestActionRealWink(t *testing.T) {
	bin := os.Getenv("WINK_BINARY")
	if bin == "" {
		t.Skip("WINK_BINARY is not set (make test sets it to bin/wink)")
	}
	if out, err := exec.Command(bin, "check", "--help").CombinedOutput(); err != nil {
		t.Skipf("%s has no check command (%v: %s): wink check is not built in yet", bin, err, bytes.TrimSpace(out))
	}
	chart := filepath.Join(root(t), "suites", "charts", "testdata", "windows-hello", "chart")
	r := newRunner(t, "WINK_HOME="+t.TempDir())
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.temp, "wink"), data, 0o755); err != nil {
		t.Fatal(err)
	}
	res := r.run(t, map[string]string{"charts": chart, "platforms": "generic", "timeout": "5m"})
	if res.code != 0 {
		t.Fatalf("exit code %d, want 0\n%s", res.code, res.log)
	}
	if !strings.Contains(res.summary, "wink check") {
		t.Errorf("step summary: %q", res.summary)
	}
	for _, name := range []string{"junit.xml", "results.json", "summary.md", "report.html"} {
		if _, err := os.Stat(filepath.Join(r.workspace, "wink-check-report", name)); err != nil {
			t.Errorf("report: %v", err)
		}
	}
}
