package shell

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
	"sigs.k8s.io/yaml"

	"wink.dev/wink/simnode/shell/cmd"
	"wink.dev/wink/simnode/shell/posix"
	"wink.dev/wink/simnode/shell/powershell"
	"wink.dev/wink/simnode/shell/powershell/parser"
	"wink.dev/wink/simnode/shell/process"
)

// The mined corpus, testdata/mined: scripts taken from public charts,
// manifests, images and docs that wink's other tests never named, each
// with its source (testdata/mined/README.md has the format).

// minedLanguage is one directory of testdata/mined.
type minedLanguage struct {
	dir string
	// ext is the scripts' file extension.
	ext string
	// comment starts the header lines (source:, image:).
	comment string
	os      OS
	parse   func(string) error
	// scriptPath is where an expectation's script is put in the container,
	// and argv how it is run, unless the expectation says otherwise.
	scriptPath string
	argv       []string
}

var minedLanguages = []minedLanguage{
	{dir: "powershell", ext: ".ps1", comment: "#", os: Windows, parse: powershell.Parse,
		scriptPath: `C:\mined\script.ps1`, argv: []string{"powershell", "-NoProfile", "-File", `C:\mined\script.ps1`}},
	{dir: "cmd", ext: ".cmd", comment: "REM", os: Windows, parse: cmd.Parse,
		scriptPath: `C:\mined\script.cmd`, argv: []string{"cmd", "/c", `C:\mined\script.cmd`}},
	{dir: "sh", ext: ".sh", comment: "#", os: Linux, parse: posix.Parse,
		scriptPath: "/mined/script.sh", argv: []string{"sh", "/mined/script.sh"}},
}

// minedScript is one script of the corpus.
type minedScript struct {
	lang   minedLanguage
	name   string
	text   string
	source string
	image  string
}

// minedExpect is <script>.expect.yaml: what the real image gives for the
// script, written from the language's or the program's documentation.
type minedExpect struct {
	// Docs cites the documentation the expectation is written from.
	Docs string `json:"docs"`
	// Argv runs the script; default: the language's (minedLanguage.argv).
	Argv  []string `json:"argv,omitempty"`
	Stdin string   `json:"stdin,omitempty"`
	// Vars are environment variables of the container (the pod's env).
	Vars map[string]string `json:"vars,omitempty"`
	// Files are written into the container before it runs (path → text).
	Files        map[string]string `json:"files,omitempty"`
	Stdout       string            `json:"stdout"`
	Stderr       string            `json:"stderr,omitempty"`
	StderrPrefix string            `json:"stderrPrefix,omitempty"`
	Code         int               `json:"code"`
	// Known, when set, says why wink does not match yet: the case is
	// counted as a mismatch, not failed.
	Known string `json:"known,omitempty"`
}

// loadMined reads every script of testdata/mined, checking its header.
func loadMined(t *testing.T) []minedScript {
	t.Helper()
	var scripts []minedScript
	for _, lang := range minedLanguages {
		files, err := filepath.Glob(filepath.Join("testdata/mined", lang.dir, "*"+lang.ext))
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			s := minedScript{lang: lang, name: strings.TrimSuffix(filepath.Base(file), lang.ext), text: string(data)}
			s.source, s.image = minedHeader(s.text, lang.comment)
			if s.source == "" {
				t.Errorf("%s: no %q line: every mined script names where it was taken from", file, lang.comment+" source:")
			}
			scripts = append(scripts, s)
		}
	}
	return scripts
}

// minedHeader reads "<comment> source: URL" and "<comment> image: REF"
// from the script's leading comment lines.
func minedHeader(text, comment string) (source, image string) {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
		if strings.HasPrefix(line, "#!") || strings.HasPrefix(strings.ToLower(line), "@echo off") {
			continue
		}
		rest, ok := cutFold(line, comment)
		if !ok {
			break
		}
		rest = strings.TrimSpace(rest)
		if v, ok := cutFold(rest, "source:"); ok {
			source = strings.TrimSpace(v)
		} else if v, ok := cutFold(rest, "image:"); ok {
			image = strings.TrimSpace(v)
		}
	}
	return source, image
}

func cutFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

// TestMinedParse: every mined script is valid for its real interpreter,
// so every one must parse here; a parse error is a wink bug. The figures
// are logged for the README (go test -run TestMinedParse -v).
func TestMinedParse(t *testing.T) {
	scripts := loadMined(t)
	total := map[string]int{}
	parsed := map[string]int{}
	for _, s := range scripts {
		total[s.lang.dir]++
		if err := s.lang.parse(s.text); err != nil {
			t.Errorf("%s/%s%s (%s) does not parse: %v", s.lang.dir, s.name, s.lang.ext, s.source, err)
			continue
		}
		parsed[s.lang.dir]++
	}
	for _, lang := range minedLanguages {
		t.Logf("mined corpus: %s %d of %d scripts parse", lang.dir, parsed[lang.dir], total[lang.dir])
	}
}

// TestMinedBehaviour runs the scripts that have an expectation: output and
// exit code as the documentation says the real image gives them. A case
// marked known counts as a mismatch and does not fail; the share that
// matches is logged for the README.
func TestMinedBehaviour(t *testing.T) {
	matched, cases := map[string]int{}, map[string]int{}
	var known []string
	for _, s := range loadMined(t) {
		file := filepath.Join("testdata/mined", s.lang.dir, s.name+".expect.yaml")
		data, err := os.ReadFile(file)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		var want minedExpect
		if err := yaml.UnmarshalStrict(data, &want); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if want.Docs == "" {
			t.Errorf("%s: no docs: an expectation cites the documentation it is written from", file)
		}
		cases[s.lang.dir]++
		t.Run(s.lang.dir+"/"+s.name, func(t *testing.T) {
			f := newFixture(s.lang.os)
			// the image the source names, else an open image of its OS
			f.env.Image = ImageOf(s.lang.os, s.image, false)
			for k, v := range want.Vars {
				f.env.Vars[k] = v
			}
			f.fs.add(s.lang.scriptPath, s.text)
			for p, text := range want.Files {
				f.fs.add(p, text)
			}
			argv := want.Argv
			if argv == nil {
				argv = s.lang.argv
			}
			res := f.run(t, argv, want.Stdin)
			var diffs []string
			if res.stdout != want.Stdout {
				diffs = append(diffs, fmt.Sprintf("stdout %q, want %q", res.stdout, want.Stdout))
			}
			switch {
			case want.StderrPrefix != "" && !strings.HasPrefix(res.stderr, want.StderrPrefix):
				diffs = append(diffs, fmt.Sprintf("stderr %q, want prefix %q", res.stderr, want.StderrPrefix))
			case want.StderrPrefix == "" && res.stderr != want.Stderr:
				diffs = append(diffs, fmt.Sprintf("stderr %q, want %q", res.stderr, want.Stderr))
			}
			if res.code != want.Code {
				diffs = append(diffs, fmt.Sprintf("exit code %d, want %d", res.code, want.Code))
			}
			switch {
			case want.Known != "" && len(diffs) == 0:
				t.Errorf("matches now: remove known %q from %s", want.Known, file)
			case want.Known != "":
				known = append(known, s.lang.dir+"/"+s.name+": "+want.Known)
			case len(diffs) > 0:
				t.Errorf("%s (docs %s):\n%s", s.source, want.Docs, strings.Join(diffs, "\n"))
			default:
				matched[s.lang.dir]++
			}
		})
	}
	sort.Strings(known)
	for _, lang := range minedLanguages {
		t.Logf("mined corpus: %s %d of %d documented behaviours match", lang.dir, matched[lang.dir], cases[lang.dir])
	}
	for _, k := range known {
		t.Logf("known mismatch: %s", k)
	}
}

// minedUnsimulated is testdata/mined/sh-unsimulated.yaml: the commands the
// mined sh scripts run that wink does not simulate, each with why (a name
// may be a path.Match pattern, such as *.sh).
type minedUnsimulated map[string]string

// why is the reason name is not simulated, "" when the list lacks it.
func (u minedUnsimulated) why(name string) string {
	if r, ok := u[name]; ok {
		return r
	}
	for pat, r := range u {
		if ok, _ := path.Match(pat, name); ok {
			return r
		}
	}
	return ""
}

// shCommands are the commands script runs by a literal name (the first
// word of a simple command), less the shell's builtins and the script's own
// functions.
func shCommands(script string) ([]string, error) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(script), "")
	if err != nil {
		return nil, err
	}
	funcs := map[string]bool{}
	syntax.Walk(f, func(n syntax.Node) bool {
		if d, ok := n.(*syntax.FuncDecl); ok {
			funcs[d.Name.Value] = true
		}
		return true
	})
	seen := map[string]bool{}
	var names []string
	syntax.Walk(f, func(n syntax.Node) bool {
		c, ok := n.(*syntax.CallExpr)
		if !ok || len(c.Args) == 0 {
			return true
		}
		args := c.Args
		// exec [-cl] [-a NAME] CMD and command CMD run CMD
		if len(args) > 1 && args[0].Lit() == "exec" {
			args = args[1:]
			for len(args) > 1 && strings.HasPrefix(args[0].Lit(), "-") {
				if args[0].Lit() == "-a" {
					args = args[1:]
				}
				args = args[1:]
			}
		}
		if len(args) > 1 && args[0].Lit() == "command" && !strings.HasPrefix(args[1].Lit(), "-") {
			args = args[1:]
		}
		name := args[0].Lit()
		if name == "" || funcs[name] || interp.IsBuiltin(name) || seen[name] {
			return true
		}
		seen[name] = true
		names = append(names, name)
		return true
	})
	return names, nil
}

// TestMinedShCommands: every command a mined sh script runs is simulated
// (the Linux program table) or on the reasoned list of
// testdata/mined/sh-unsimulated.yaml. The figures are logged for the README.
func TestMinedShCommands(t *testing.T) {
	data, err := os.ReadFile("testdata/mined/sh-unsimulated.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var listed minedUnsimulated
	if err := yaml.UnmarshalStrict(data, &listed); err != nil {
		t.Fatal(err)
	}
	uses := map[string]int{}
	for _, s := range loadMined(t) {
		if s.lang.dir != "sh" {
			continue
		}
		names, err := shCommands(s.text)
		if err != nil {
			t.Errorf("sh/%s: %v", s.name, err)
			continue
		}
		for _, n := range names {
			uses[n]++
		}
	}
	var simulated, unsimulated, missing []string
	for n := range uses {
		base := process.ProgramName(n, false)
		switch {
		case Found(Linux, []string{base}):
			simulated = append(simulated, n)
		case listed.why(base) != "" || listed.why(n) != "":
			unsimulated = append(unsimulated, n)
		default:
			missing = append(missing, n)
		}
	}
	sort.Strings(missing)
	for _, n := range missing {
		t.Errorf("sh: %s (run by %d mined scripts) is neither simulated nor in testdata/mined/sh-unsimulated.yaml", n, uses[n])
	}
	t.Logf("mined corpus: sh scripts run %d commands: %d simulated, %d listed as not simulated, %d neither", len(uses), len(simulated), len(unsimulated), len(missing))
}

// minedUnsimulatedGroup is testdata/mined/powershell-unsimulated.yaml: commands wink
// neither simulates nor lists as in-box, in groups with the reason.
type minedUnsimulatedGroup struct {
	Reason string   `json:"reason"`
	Names  []string `json:"names"`
}

// TestMinedPowerShellCommands measures the commands the mined PowerShell scripts
// run: each is simulated, defined by a script of the corpus, in-box
// (process/inbox.yaml), run by its path (a program or script of the image:
// the open world), or in testdata/mined/powershell-unsimulated.yaml with a reason.
// The figures are logged for the README.
func TestMinedPowerShellCommands(t *testing.T) {
	data, err := os.ReadFile("testdata/mined/powershell-unsimulated.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var groups []minedUnsimulatedGroup
	if err := yaml.UnmarshalStrict(data, &groups); err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, g := range groups {
		if g.Reason == "" {
			t.Errorf("powershell-unsimulated.yaml: a group without a reason: %v", g.Names)
		}
		for _, n := range g.Names {
			listed[n] = true
		}
	}
	defined := map[string]bool{}
	used := map[string][]string{} // command -> scripts
	for _, s := range loadMined(t) {
		if s.lang.dir != "powershell" {
			continue
		}
		block, perr := parser.ParseScript(s.text)
		if perr != nil {
			continue // TestMinedParse reports it
		}
		seen := map[string]bool{}
		var walk func(n *parser.Node)
		walk = func(n *parser.Node) {
			if n == nil {
				return
			}
			if n.Kind == "function" {
				defined[strings.ToLower(n.Name)] = true
			}
			if n.Kind == "command" && n.Op == "" && len(n.Kids) > 0 && n.Kids[0].Kind == "bare" && !strings.Contains(n.Kids[0].Text, "$") {
				name := strings.ToLower(n.Kids[0].Text)
				if !seen[name] && !minedBlockKeywords[name] {
					seen[name] = true
					used[name] = append(used[name], s.name)
				}
			}
			for _, k := range n.Kids {
				walk(k)
			}
			for _, k := range n.Block {
				walk(k)
			}
			for _, a := range n.Args {
				walk(a.Value)
			}
		}
		for _, st := range block {
			walk(st)
		}
	}
	count := map[string]int{}
	var missing []string
	for name, scripts := range used {
		_, program := tables{}.Lookup(Windows, name)
		_, inBoxCmdlet := process.InBoxCmdlet(name)
		switch {
		case powershell.Simulates(name) || program:
			count["simulated"]++
		case defined[name]:
			count["defined by the scripts"]++
		case inBoxCmdlet || process.InBoxExecutable(name):
			count["in-box, not simulated"]++
		case strings.ContainsAny(name, `\/`) || strings.HasPrefix(name, "."):
			count["run by path"]++
		case listed[name]:
			count["listed with a reason"]++
		default:
			missing = append(missing, fmt.Sprintf("%s (%s)", name, strings.Join(scripts, ", ")))
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("mined command neither simulated nor listed (testdata/mined/powershell-unsimulated.yaml): %s", m)
	}
	t.Logf("mined corpus: powershell runs %d commands: %d simulated, %d defined by the scripts, %d in-box not simulated, %d run by path, %d listed with a reason, %d not accounted for",
		len(used), count["simulated"], count["defined by the scripts"], count["in-box, not simulated"], count["run by path"], count["listed with a reason"], len(missing))
}

// minedBlockKeywords are the named blocks of a function body (begin,
// process, end, dynamicparam), which the syntax tree holds as commands.
var minedBlockKeywords = map[string]bool{"begin": true, "process": true, "end": true, "dynamicparam": true}
