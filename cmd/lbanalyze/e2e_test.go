//go:build e2e

// The end-to-end test opens the HTML report in headless Chromium. It runs
// only with the e2e build tag (make e2e), and skips, saying why, when no
// Chromium is found: set LBANALYZE_CHROMIUM to its path, or apt-get install
// chromium.

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lbanalyze/lbanalyze/internal/synth"
)

const hostileID = `<script>alert(1)</script>"&'`

// probe runs in the page after its own script: it records what a person
// would see (the tables, the charts laid out, the hostile id as text), sorts
// the episode table by clicking the "turns" header twice, and writes it all
// as JSON into the page, which --dump-dom then prints.
const probe = `<script>
(function () {
  var out = {scripts: document.scripts.length, alerted: !!window.__alerted};
  var t = document.getElementById("episodes-table");
  out.rows = t.tBodies[0].rows.length;
  out.metrics = document.getElementById("metrics-table").tBodies[0].rows.length;
  out.patterns = Array.prototype.map.call(document.querySelectorAll("table.patterns"), function (x) { return x.tBodies[0].rows.length; });
  out.charts = Array.prototype.map.call(document.querySelectorAll("svg"), function (s) {
    var r = s.getBoundingClientRect();
    return {w: Math.round(r.width), h: Math.round(r.height), texts: s.querySelectorAll("text").length};
  });
  var turns = function () { return Array.prototype.map.call(t.tBodies[0].rows, function (r) { return r.cells[1].textContent; }); };
  out.before = turns();
  var th = t.tHead.rows[0].cells[1];
  th.click(); out.ascending = turns(); out.sortAsc = th.getAttribute("aria-sort");
  th.click(); out.descending = turns(); out.sortDesc = th.getAttribute("aria-sort");
  var hostile = HOSTILE;
  out.hostileInTable = Array.prototype.some.call(t.querySelectorAll("a"), function (a) { return a.textContent.indexOf(hostile) >= 0; });
  out.hostileInChart = Array.prototype.some.call(document.querySelectorAll("svg text"), function (x) { return x.textContent.indexOf(hostile) >= 0; });
  var pre = document.createElement("pre");
  pre.id = "e2e";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>
`

type probeResult struct {
	Scripts                        int
	Alerted                        bool
	Rows, Metrics                  int
	Patterns                       []int
	Charts                         []struct{ W, H, Texts int }
	Before, Ascending, Descending  []string
	SortAsc, SortDesc              string
	HostileInTable, HostileInChart bool
}

func TestE2EReport(t *testing.T) {
	chromium := findChromium()
	if chromium == "" {
		t.Skip("e2e: SKIPPED: no Chromium found (apt-get install chromium, or set LBANALYZE_CHROMIUM)")
	}
	start := time.Now()
	work := t.TempDir()
	// The bundled dataset when it is there, else the fixture logs; and a log
	// whose id and objective are markup, which must show as text.
	data := filepath.Join("..", "..", "testdata", "episodes")
	if _, err := os.Stat(data); err != nil {
		data = filepath.Join(work, "ds")
		for _, name := range []string{"premature.jsonl", "recorded-v2.jsonl", "two-episodes.jsonl"} {
			copyFile(t, filepath.Join("testdata", "logs", name), filepath.Join(data, strings.TrimSuffix(name, ".jsonl"), "episode_log.jsonl"))
		}
	}
	hostile := filepath.Join(work, "hostile", "episode_log.jsonl")
	os.MkdirAll(filepath.Dir(hostile), 0o755)
	if err := os.WriteFile(hostile, render(synth.Steps{ID: hostileID, N: 80, Changes: map[int]int{70: 5},
		Objectives: map[int][]string{20: {"<img src=x onerror=alert(2)>"}}}), 0o644); err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(work, "report.html")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"batch", "--format", "json", "--html", report, data, hostile}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("batch: exit %d: %s", code, stderr.String())
	}
	var summary struct {
		N       int
		Metrics []json.RawMessage
	}
	if err := json.Unmarshal(stdout.Bytes(), &summary); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}

	// The probe: a copy of the page with a guard against alert() at the top
	// (a script smuggled in by a log would run before the probe) and the
	// probe at the bottom.
	probed := strings.Replace(string(page), "<head>", "<head>\n<script>window.alert = function () { window.__alerted = true; };</script>", 1)
	// The id as a JS string; "<" escaped, or its "</script>" would end the probe.
	jsHostile := strings.ReplaceAll(strconv.Quote(hostileID), "<", `\u003c`)
	probed = strings.Replace(probed, "</body>", strings.Replace(probe, "HOSTILE", jsHostile, 1)+"</body>", 1)
	var got probeResult
	runProbe(t, chromium, work, probed, "", &got)

	if got.Scripts != 3 || got.Alerted {
		t.Errorf("%d scripts ran (want 3: the report's, the guard and the probe), alert called: %v", got.Scripts, got.Alerted)
	}
	if len(got.Patterns) != 2 || got.Patterns[0] != 6 || got.Patterns[1] != 2 {
		t.Errorf("pattern summary tables with %v rows, want 6 patterns and 2 policies", got.Patterns)
	}
	if got.Rows != summary.N || got.Metrics != len(summary.Metrics) {
		t.Errorf("tables: %d episode rows (want %d), %d metric rows (want %d, as the JSON)", got.Rows, summary.N, got.Metrics, len(summary.Metrics))
	}
	if len(got.Charts) != summary.N+2 {
		t.Errorf("%d charts, want %d (a timeline an episode and the two dataset charts)", len(got.Charts), summary.N+2)
	}
	for i, c := range got.Charts {
		if c.W < 600 || c.H < 300 || c.Texts < 10 {
			t.Errorf("chart %d laid out at %d×%d px with %d texts: not rendered", i, c.W, c.H, c.Texts)
		}
	}
	asc, desc := numbers(t, got.Ascending), numbers(t, got.Descending)
	if !slices.IsSorted(asc) || !slices.Equal(desc, reversed(asc)) || got.SortAsc != "ascending" || got.SortDesc != "descending" {
		t.Errorf("sorting by turns: before %v, after one click %v (%s), after two %v (%s)", got.Before, got.Ascending, got.SortAsc, got.Descending, got.SortDesc)
	}
	if slices.Equal(got.Before, got.Ascending) && slices.Equal(got.Before, got.Descending) {
		t.Errorf("the turns column is the same in every order (%v): the sort test proves nothing", got.Before)
	}
	if !got.HostileInTable || !got.HostileInChart {
		t.Errorf("the id %q does not show as text: in the table %v, in a chart %v", hostileID, got.HostileInTable, got.HostileInChart)
	}

	// Screenshots a person can look at, kept after the test in a temporary
	// directory: the top of the report (tables, review list), and its charts
	// with the first timeline. Headless Chromium paints nothing when it
	// scrolls to a fragment, so the second is a page of the report's style
	// and those sections only.
	shots, err := os.MkdirTemp("", "lbanalyze-e2e-")
	if err != nil {
		t.Fatal(err)
	}
	p := string(page)
	head := p[:strings.Index(p, "<body>")+len("<body>")]
	charts := p[strings.Index(p, `<h2 id="charts">`):strings.Index(p, `<h2 id="review">`)]
	first := p[strings.Index(p, `<section id="ep-1">`):]
	first = first[:strings.Index(first, "</section>")+len("</section>")]
	chartsPage := filepath.Join(work, "charts.html")
	if err := os.WriteFile(chartsPage, []byte(head+charts+first+"</body></html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, s := range []struct {
		name, url string
		height    int
	}{{"report.png", report, 1600}, {"charts.png", chartsPage, 2800}} {
		out := filepath.Join(shots, s.name)
		chrome(t, chromium, fmt.Sprintf("--window-size=1280,%d", s.height), "--hide-scrollbars", "--screenshot="+out, "file://"+s.url)
		checkScreenshot(t, out, 1280, s.height)
		t.Logf("screenshot: %s", out)
	}
	t.Logf("e2e: %d episodes from %s, in %s", summary.N, data, time.Since(start).Round(time.Millisecond))
}

// checkScreenshot decodes a screenshot: its size, and enough ink on it that
// something was painted (a blank page is a few percent at most).
func checkScreenshot(t *testing.T, path string, w, h int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
		t.Errorf("%s: %v, want %d×%d", path, b.Size(), w, h)
	}
	ink, all := 0, 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r < 0xe000 || g < 0xe000 || bl < 0xe000 {
				ink++
			}
			all++
		}
	}
	if ink*100 < all*3 {
		t.Errorf("%s: %d of %d sampled pixels are not white: blank?", path, ink, all)
	}
}

// findChromium is $LBANALYZE_CHROMIUM, or the first Chromium on PATH.
func findChromium() string {
	if p := os.Getenv("LBANALYZE_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// chrome runs headless Chromium with a fresh profile and nothing that
// reaches the network, and returns its standard output.
func chrome(t *testing.T, chromium string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir(), "--virtual-time-budget=5000"}
	cmd := exec.CommandContext(ctx, chromium, append(base, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", chromium, strings.Join(args, " "), err, stderr.String())
	}
	return stdout.Bytes()
}

// runProbe opens page, which holds a probe that writes what it found as JSON
// into <pre id="e2e">, in headless Chromium (as dir/probe.html, with fragment
// and the extra args) and decodes what it found into got.
func runProbe(t *testing.T, chromium, dir, page, fragment string, got any, args ...string) {
	t.Helper()
	path := filepath.Join(dir, "probe.html")
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	dom := chrome(t, chromium, append(args, "--dump-dom", "file://"+path+fragment)...)
	m := regexp.MustCompile(`<pre id="e2e">([^<]*)</pre>`).FindSubmatch(dom)
	if m == nil {
		t.Fatalf("the probe left no result: did the page's scripts run?\n%.2000s", dom)
	}
	if err := json.Unmarshal([]byte(html.UnescapeString(string(m[1]))), got); err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Dir(dst), 0o755)
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func numbers(t *testing.T, cells []string) []int {
	t.Helper()
	out := make([]int, len(cells))
	for i, c := range cells {
		n, err := strconv.Atoi(c)
		if err != nil {
			t.Fatalf("turns cell %q: %v", c, err)
		}
		out[i] = n
	}
	return out
}

func reversed(s []int) []int {
	r := slices.Clone(s)
	slices.Reverse(r)
	return r
}

// sweepProbe records what the sweep page shows: its front table, the TOML
// block, the answer's figures (rows of a table) and the charts as laid out.
const sweepProbe = `<script>
(function () {
  var out = {scripts: document.scripts.length};
  var t = document.getElementById("front-table");
  out.rows = t.tBodies[0].rows.length;
  out.answer = t.querySelectorAll("tr.answer").length;
  out.now = t.querySelectorAll("tr.now").length;
  var toml = document.getElementById("toml");
  out.toml = toml ? toml.textContent : "";
  out.lines = Array.prototype.map.call(document.querySelectorAll("table.figures th"), function (th) { return th.textContent; }).join(",");
  out.charts = Array.prototype.map.call(document.querySelectorAll("svg"), function (s) {
    var r = s.getBoundingClientRect();
    return {w: Math.round(r.width), h: Math.round(r.height), texts: s.querySelectorAll("text").length};
  });
  var pre = document.createElement("pre");
  pre.id = "e2e";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>
`

func TestE2ESweep(t *testing.T) {
	chromium := findChromium()
	if chromium == "" {
		t.Skip("e2e: SKIPPED: no Chromium found (apt-get install chromium, or set LBANALYZE_CHROMIUM)")
	}
	data := filepath.Join("..", "..", "testdata", "episodes")
	if _, err := os.Stat(data); err != nil {
		t.Skipf("e2e: SKIPPED: no bundled dataset at %s", data)
	}
	work := t.TempDir()
	page, plots := filepath.Join(work, "sweep.html"), filepath.Join(work, "plots")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"sweep", "--format", "json", "--html", page, "--plots", plots, data}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("sweep: exit %d: %s", code, stderr.String())
	}
	var res struct {
		Front   []json.RawMessage `json:"front"`
		Configs []struct {
			Pareto bool `json:"pareto"`
		} `json:"configs"`
		Answer struct {
			Verdict string `json:"verdict"`
			Chosen  *int   `json:"chosen_index"` // the config shipped or leading; nil for now
		} `json:"answer"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"tradeoff.png", "tradeoff.svg", "heatmap.png", "heatmap.svg"} {
		if st, err := os.Stat(filepath.Join(plots, name)); err != nil || st.Size() < 10000 {
			t.Errorf("--plots: %s: %v", name, err)
		}
	}
	html0, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Scripts, Rows, Answer, Now int
		TOML                       string
		Lines                      string
		Charts                     []struct{ W, H, Texts int }
	}
	runProbe(t, chromium, work, strings.Replace(string(html0), "</body>", sweepProbe+"</body>", 1), "", &got)
	if got.Scripts != 1 {
		t.Errorf("%d scripts, want 1 (the probe's): the sweep page has none", got.Scripts)
	}
	rows := len(res.Front) + 1 // and now
	if c := res.Answer.Chosen; c != nil && !res.Configs[*c].Pareto {
		rows++ // the answer's, ranked among them
	}
	if got.Rows != rows || got.Now != 1 || got.Answer != 1 {
		t.Errorf("front table: %d rows (want %d: the front, the answer's and now), %d answer rows, %d now", got.Rows, rows, got.Answer, got.Now)
	}
	// A block to paste only with a ship (the bundled set's answer is no
	// clear winner: README, "Quick start").
	if shipped := res.Answer.Verdict == "ship"; shipped != strings.Contains(got.TOML, "[tool.zorkgpt.loop_break]") ||
		shipped && !strings.Contains(got.TOML, "max_turns_stuck = ") {
		t.Errorf("answer %s, the TOML block shows %q", res.Answer.Verdict, got.TOML)
	}
	if !strings.Contains(got.Lines, "held out") || !strings.Contains(got.Lines, "versus now") {
		t.Errorf("the answer's figures are labelled %q", got.Lines)
	}
	if len(got.Charts) != 2 {
		t.Errorf("%d charts, want 2 (trade-off and heat map)", len(got.Charts))
	}
	for i, c := range got.Charts {
		if c.W < 600 || c.H < 300 || c.Texts < 20 {
			t.Errorf("chart %d laid out at %d×%d px with %d texts: not rendered", i, c.W, c.H, c.Texts)
		}
	}
	shots, err := os.MkdirTemp("", "lbanalyze-e2e-sweep-")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(shots, "sweep.png")
	chrome(t, chromium, "--window-size=1280,2400", "--hide-scrollbars", "--screenshot="+out, "file://"+page)
	checkScreenshot(t, out, 1280, 2400)
	t.Logf("screenshot: %s", out)
}

// TestE2ELazyTimelines: past 100 episodes the report keeps its timelines
// gzipped and draws one when its section is linked to; the page stays small.
func TestE2ELazyTimelines(t *testing.T) {
	chromium := findChromium()
	if chromium == "" {
		t.Skip("e2e: SKIPPED: no Chromium found (apt-get install chromium, or set LBANALYZE_CHROMIUM)")
	}
	work := t.TempDir()
	data, report := filepath.Join(work, "eps"), filepath.Join(work, "report.html")
	var stderr bytes.Buffer
	if code := run([]string{"synth", "--episodes", "150", "--out", data}, nil, io.Discard, &stderr); code != 0 {
		t.Fatalf("synth: exit %d: %s", code, stderr.String())
	}
	if code := run([]string{"batch", "--html", report, data}, nil, io.Discard, &stderr); code != 0 {
		t.Fatalf("batch: exit %d: %s", code, stderr.String())
	}
	page, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("150 episodes: the page is %d bytes", len(page))
	if n := bytes.Count(page, []byte("<svg")); n != 2 {
		t.Errorf("%d inline SVGs, want the 2 dataset charts", n)
	}
	probe := `<script>
setTimeout(function () {
  var f = document.querySelector("#ep-5 figure"), s = f.querySelector("svg");
  var other = document.querySelector("#ep-6 figure svg");
  var pre = document.createElement("pre");
  pre.id = "e2e";
  pre.textContent = JSON.stringify({open: document.querySelector("#ep-5 details").open, texts: s ? s.querySelectorAll("text").length : 0,
    w: s ? Math.round(s.getBoundingClientRect().width) : 0, other: !!other});
  document.body.appendChild(pre);
}, 2000);
</script>
`
	var got struct {
		Open     bool
		Texts, W int
		Other    bool
	}
	runProbe(t, chromium, work, strings.Replace(string(page), "</body>", probe+"</body>", 1), "#ep-5", &got, "--window-size=1280,1000")
	if !got.Open || got.Texts < 10 || got.W < 600 || got.Other {
		t.Errorf("linked to #ep-5: open %v, its timeline %d texts at %d px; #ep-6 drawn too: %v (want open, drawn, and #ep-6 not)", got.Open, got.Texts, got.W, got.Other)
	}
}
