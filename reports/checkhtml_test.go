package reports

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
)

// chromium finds a Chromium binary (Debian's package is `chromium`), or
// skips the test saying how to get one.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless_shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium binary on PATH (chromium, chromium-browser, google-chrome, headless_shell): apt-get install chromium to render report.html")
	return ""
}

// renderDOM opens page (a file URL, with a #fragment if any) in headless
// Chromium and returns the DOM after its scripts ran.
func renderDOM(t *testing.T, bin, page string) *html.Node {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--user-data-dir="+t.TempDir(), "--dump-dom", page)
	// Chromium writes caches and crash dumps under $HOME: not the user's.
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s --dump-dom %s: %v\n%s", bin, page, err, stderr.String())
	}
	doc, err := html.Parse(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func attr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

// text is n's text content with runs of white space made one space.
func text(n *html.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			b.WriteString(d.Data + " ")
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// renderedCell is a cell of the matrix as Chromium rendered it.
type renderedCell struct {
	platform, verdict, text, title string
}

// renderedRow is a row of the matrix as Chromium rendered it.
type renderedRow struct {
	workload string
	hidden   bool
	cells    []renderedCell
}

// readMatrix reads the rows of table#matrix out of a rendered DOM.
func readMatrix(t *testing.T, doc *html.Node) (platforms []string, rows []renderedRow) {
	t.Helper()
	var table *html.Node
	for n := range doc.Descendants() {
		if id, _ := attr(n, "id"); n.Type == html.ElementNode && n.Data == "table" && id == "matrix" {
			table = n
		}
	}
	if table == nil {
		t.Fatal("no table#matrix in the rendered page")
	}
	for n := range table.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		if p, ok := attr(n, "data-platform"); ok && n.Data == "th" {
			platforms = append(platforms, p)
		}
		if w, ok := attr(n, "data-workload"); ok && n.Data == "tr" {
			_, hidden := attr(n, "hidden")
			row := renderedRow{workload: w, hidden: hidden}
			for c := range n.ChildNodes() {
				if c.Type != html.ElementNode || c.Data != "td" {
					continue
				}
				if p, ok := attr(c, "data-platform"); ok {
					v, _ := attr(c, "data-verdict")
					title, _ := attr(c, "title")
					row.cells = append(row.cells, renderedCell{platform: p, verdict: v, text: text(c), title: title})
				}
			}
			rows = append(rows, row)
		}
	}
	return platforms, rows
}

// TestCheckHTMLInChromium opens report.html of the handmade check in
// headless Chromium and reads the rendered matrix back: each cell's verdict,
// its badge and findings as shown, its tooltip, and the verdict filter the
// page's script applies from its #fragment.
func TestCheckHTMLInChromium(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	if err := WriteCheck(dir, handmade(t)); err != nil {
		t.Fatal(err)
	}
	page := "file://" + filepath.ToSlash(filepath.Join(dir, "report.html"))

	type cell struct{ verdict, shows, title string }
	want := map[string][]cell{ // workload → eks, gke, openshift
		"DaemonSet monitoring/win-exporter": {
			{"fail", "fail 2 daemonset-no-windows-pods rows S2 DaemonSet monitoring/win-exporter targets Windows nodes", "fix: add a toleration for the taint key \"os\" (EKS)"},
			{"pass", "pass windows/2019: 1, windows/2022: 2", "pods: windows/2019: 1, windows/2022: 2"},
			{"error", "not judged", "💥 not judged"},
		},
		"DaemonSet monitoring/log-shipper": {
			{"fail", "linux-pod-on-windows pod log-shipper-q8f7d rows B4, S1", "error linux-pod-on-windows (pod log-shipper-q8f7d)"},
			{"fail", "no matching manifest for windows(10.0.17763)/amd64", "fix: add nodeSelector: {kubernetes.io/os: linux}"},
			{"error", "not judged", "not judged"},
		},
		"Deployment default/web": {
			{"warn", "warn 1 linux-only-security-context rows A4 container web sets securityContext.runAsUser (Linux only); the Windows kubelet ignores it | see <runAsUserName>", "warning linux-only-security-context"},
			{"pass", "pass windows/2022: 2", "pods: windows/2022: 2"},
			{"error", "not judged", "not judged"},
		},
		"Deployment default/api": {
			{"pass", "pass linux: 1 · expected: linux only", "pods: linux: 1"},
			{"pass", "pass linux: 1 · expected: linux only", "pods: linux: 1"},
			{"error", "not judged", "not judged"},
		},
	}
	for _, tt := range []struct {
		fragment string
		hidden   []string // rows the filter hides
	}{
		{"", nil},
		{"#fail", []string{"Deployment default/web", "Deployment default/api"}},
		{"#warn", []string{"DaemonSet monitoring/win-exporter", "DaemonSet monitoring/log-shipper", "Deployment default/api"}},
	} {
		t.Run("page"+tt.fragment, func(t *testing.T) {
			platforms, rows := readMatrix(t, renderDOM(t, bin, page+tt.fragment))
			if !slices.Equal(platforms, []string{"eks", "gke", "openshift"}) {
				t.Errorf("platform columns %v, want eks, gke, openshift", platforms)
			}
			if len(rows) != len(want) {
				t.Errorf("%d rows rendered, want %d", len(rows), len(want))
			}
			for _, row := range rows {
				if row.hidden != slices.Contains(tt.hidden, row.workload) {
					t.Errorf("row %s: hidden=%v with filter %q", row.workload, row.hidden, tt.fragment)
				}
				cells := want[row.workload]
				if len(row.cells) != len(cells) {
					t.Errorf("row %s: %d cells, want %d", row.workload, len(row.cells), len(cells))
					continue
				}
				for i, c := range row.cells {
					w := cells[i]
					if c.platform != platforms[i] || c.verdict != w.verdict || !strings.Contains(c.text, w.shows) || !strings.Contains(c.title, w.title) {
						t.Errorf("%s on %s: rendered verdict %q, text %q, title %q; want %q, text with %q, title with %q",
							row.workload, c.platform, c.verdict, c.text, c.title, w.verdict, w.shows, w.title)
					}
				}
			}
		})
	}
}
