package charts

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"html"
	"image/png"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/internal/sweep"
	"github.com/lbanalyze/lbanalyze/policy"
)

var (
	sweepOnce   sync.Once
	sweepResult *sweep.Result
)

// sweepOf is a sweep over the test dataset of 40 episodes: three policies,
// max_turns_stuck 10 to 80 by 10, intervals 1, 5 and 10 (72 configs).
func sweepOf(t testing.TB) *sweep.Result {
	t.Helper()
	sweepOnce.Do(func() {
		d := dataset(t, 40)
		eps := make([]*episode.Episode, len(d.Episodes))
		for i := range d.Episodes {
			eps[i] = d.Episodes[i].Ep
		}
		var grid []policy.Policy
		for _, n := range []policy.Name{policy.Score, policy.ScoreOrObjective, policy.Window} {
			for w := 10; w <= 80; w += 10 {
				for _, iv := range []int{1, 5, 10} {
					p := policy.Policy{Name: n}.With(policy.MaxTurnsStuck, w).With(policy.CheckInterval, iv)
					grid = append(grid, p)
				}
			}
		}
		sweepResult = sweep.Run(eps, grid, scorePolicy, sweep.Options{Costs: metrics.Costs{CallsPerTurn: 4}, MaxFalseRate: 0.30, MaxCensored: 0.10, Folds: 5, Jobs: 2})
	})
	return sweepResult
}

// TestSweepPNG decodes the sweep charts: their size, every policy's colour
// in the trade-off's plot area, and the viridis cells of the heat map.
func TestSweepPNG(t *testing.T) {
	r := sweepOf(t)
	if r.Answer == nil {
		t.Fatalf("the test sweep has no answer (%s): the charts would not show one", r.NoAnswer)
	}
	for _, tc := range []struct {
		name  string
		chart *Chart
	}{{"trade-off", TradeOff(r)}, {"heat map", heatMap(t, r)}} {
		a := written(t, tc.chart.Write, PNG)
		if written(t, tc.chart.Write, PNG) != a {
			t.Errorf("%s: two renderings differ", tc.name)
		}
		img, err := png.Decode(strings.NewReader(a))
		if err != nil {
			t.Fatal(err)
		}
		if sz := img.Bounds().Size(); sz.X != 1200 || sz.Y < 600 || sz.Y > 1000 {
			t.Errorf("%s: size %v", tc.name, sz)
		}
		switch tc.name {
		case "trade-off":
			for _, n := range []policy.Name{policy.Score, policy.ScoreOrObjective, policy.Window} {
				if c := countColor(img, PolicyColor(n), 1200-legendWidth); c < 30 {
					t.Errorf("trade-off: %d pixels of %s's colour in the plot area", c, n)
				}
			}
		case "heat map":
			// The palette's ends and middle: cells of the scale are drawn.
			seen := map[[3]uint8]bool{}
			bd := img.Bounds()
			for y := bd.Min.Y; y < bd.Max.Y; y += 2 {
				for x := bd.Min.X; x < 1200-legendWidth; x += 2 {
					r, g, b, _ := img.At(x, y).RGBA()
					seen[[3]uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8)}] = true
				}
			}
			found := 0
			for v := 0.0; v <= 1; v += 0.125 {
				c := viridis(v)
				if seen[[3]uint8{c.R, c.G, c.B}] {
					found++
				}
			}
			if found < 2 {
				t.Errorf("heat map: %d of the palette's stops drawn", found)
			}
		}
	}
}

// TestViridis: the palette's ends are viridis's, and it gets lighter
// monotonically (what makes it read in greyscale).
func TestViridis(t *testing.T) {
	if c := viridis(0); hexColor(c) != "#440154" {
		t.Errorf("viridis(0) = %s", hexColor(c))
	}
	if c := viridis(1); hexColor(c) != "#fde725" {
		t.Errorf("viridis(1) = %s", hexColor(c))
	}
	lum := func(v float64) float64 {
		c := viridis(v)
		return 0.299*float64(c.R) + 0.587*float64(c.G) + 0.114*float64(c.B)
	}
	for v := 0.0; v < 1; v += 0.05 {
		if lum(v+0.05) < lum(v) {
			t.Errorf("viridis darkens from %.2f to %.2f", v, v+0.05)
		}
	}
}

// TestNowOutlineStandsOut: now's outline in the heat map has near-black and
// near-white along it on every kind of cell (light or dark, hatched or not,
// the answer's too), so that it shows against any of them.
func TestNowOutlineStandsOut(t *testing.T) {
	h := heatCells{lo: 0, hi: 100}
	for _, tc := range []struct {
		name string
		cell heatCell
	}{
		{"dark", heatCell{saved: 0}},
		{"dark, hatched", heatCell{saved: 0, over: true}},
		{"light", heatCell{saved: 100}},
		{"light, hatched", heatCell{saved: 100, over: true}},
		{"middle, hatched and ringed", heatCell{saved: 50, over: true, censored: true}},
		{"the answer's, hatched", heatCell{saved: 30, over: true, answer: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// One cell filling a 120×120 px canvas.
			tc.cell.current = true
			h.cells = []heatCell{tc.cell}
			img := vgimg.NewWith(vgimg.UseWH(Px(120), Px(120)), vgimg.UseDPI(DPI))
			p := plot.New()
			p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = -0.5, 0.5, -0.5, 0.5
			h.Plot(draw.New(img), p)
			// now's outline runs 2.5 px inside the cell (5 px inside the
			// answer's): the column along its left side.
			x := 2
			if tc.cell.answer {
				x = 5
			}
			dark, bright := 0, 0
			for y := 20; y < 100; y++ {
				r, g, b, _ := img.Image().At(x, y).RGBA()
				switch {
				case r < 0x3000 && g < 0x3000 && b < 0x3000:
					dark++
				case r > 0xd000 && g > 0xd000 && b > 0xd000:
					bright++
				}
			}
			if dark < 10 || bright < 10 {
				t.Errorf("along now's outline: %d near-black and %d near-white pixels of 80, want 10 or more of each", dark, bright)
			}
		})
	}
}

// TestSweepHTML: the sweep page holds the front table (a row a class of the
// front, the leader's and the current setting), the answer as HTML (each
// line a row of a table, not terminal text), the block to paste when it
// ships (TestSweepHTMLShips), the two charts inline, and nothing fetched from
// anywhere. sweepOf's answer keeps now: the page has no block to paste.
func TestSweepHTML(t *testing.T) {
	r := sweepOf(t)
	if r.Answer == nil || r.Answer.Verdict == sweep.Ship {
		t.Fatalf("sweepOf answers %+v, want it to keep now", r.Answer)
	}
	page := sweepPage(t, r)
	if strings.Contains(page, `<pre id="toml">`) {
		t.Error("a block to paste, though the answer keeps now")
	}
}

// TestSweepHTMLShips: handSet's answer as in the sweep package's tests, 200
// whole logs of 100 turns, 100 of them flat after +5 at turn 5 and 100
// gaining 5 every 15 turns: score-or-objective 35/10 saves 10 turns more
// than now (40/10) on each of the first, with no false termination. The
// page holds its block to paste.
func TestSweepHTMLShips(t *testing.T) {
	var eps []*episode.Episode
	for i := range 200 {
		p := plan{id: fmt.Sprintf("2025-11-12T%02d:%02d:00", 10+i/60, i%60), n: 100, changes: map[int]int{5: 5}, end: episode.EndMaxTurns}
		if i >= 100 {
			p.changes = map[int]int{15: 5, 30: 10, 45: 15, 60: 20, 75: 25, 90: 30}
		}
		eps = append(eps, p.episode())
	}
	sor := func(w int) policy.Policy {
		return v2Policy.With(policy.MaxTurnsStuck, w).With(policy.CheckInterval, 10)
	}
	r := sweep.Run(eps, []policy.Policy{sor(10), sor(35), sor(40)}, sor(40),
		sweep.Options{Costs: metrics.Costs{CallsPerTurn: 4}, MaxFalseRate: 0.05, MaxCensored: 0.10, Folds: 5, Jobs: 2})
	if a := r.Answer; a == nil || a.Verdict != sweep.Ship || r.Configs[a.Config].Policy != sor(35) {
		t.Fatalf("answer %+v (%s), want to ship 35/10", a, r.NoAnswer)
	}
	page := sweepPage(t, r)
	block := r.Answer.Block
	if block == "" || !strings.Contains(html.UnescapeString(page), `<pre id="toml"><code>`+block) {
		t.Errorf("the page lacks the TOML block %q", block)
	}
	if !strings.Contains(page, "[tool.zorkgpt.loop_break]") {
		t.Error("no [tool.zorkgpt.loop_break] in the page")
	}
}

// sweepPage renders r's page twice (the same bytes), checks what every page
// holds, and gives it.
func sweepPage(t *testing.T, r *sweep.Result) string {
	t.Helper()
	page := written(t, WriteSweepHTML, r)
	if written(t, WriteSweepHTML, r) != page {
		t.Error("two renderings differ")
	}
	table := page[strings.Index(page, `<table id="front-table">`):]
	table = table[:strings.Index(table, "</table>")]
	// A row a class of the front, the rule's choices' classes where the
	// front does not hold them, and now.
	rows := 1
	for _, i := range r.Front {
		rows += b2i(r.Configs[i].Class >= 0) // now's class is the row of now
	}
	for _, c := range []int{leaderOf(r), bestOf(r)} {
		if c >= 0 && !slices.Contains(r.Front, r.Configs[c].Class) {
			rows++
		}
	}
	if got := strings.Count(table, "<tr") - 1; got != rows {
		t.Errorf("%d front rows, want %d (the front, the choices' and now)", got, rows)
	}
	if n := strings.Count(table, `class="answer`); n != 1 {
		t.Errorf("%d answer rows, want 1", n)
	}
	if n := strings.Count(page, "<svg"); n != 2 {
		t.Errorf("%d charts, want 2", n)
	}
	text := html.UnescapeString(page)
	for _, s := range r.Sections() {
		if !strings.Contains(text, `<p class="headline">`+s.Headline+"</p>") {
			t.Errorf("the page lacks the headline %q", s.Headline)
		}
		for _, l := range s.Lines {
			if !strings.Contains(text, "<tr><th>"+l.Label+"</th><td>"+l.Text+"</td></tr>") {
				t.Errorf("the page lacks the line %q as a table row", l.Label+": "+l.Text)
			}
		}
	}
	if strings.Contains(page, `class="lines"`) || strings.Contains(page, "\n  ") {
		t.Error("the answer is pasted terminal text")
	}
	rest := strings.NewReplacer(`xmlns="http://www.w3.org/2000/svg"`, "", `xmlns:xlink="http://www.w3.org/1999/xlink"`, "").Replace(page)
	for _, bad := range []string{"http:", "https:", "src=", "<link", "url(", "<script"} {
		if strings.Contains(rest, bad) {
			t.Errorf("the page holds %q", bad)
		}
	}
	return page
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// leaderOf and bestOf are the configs the answer and the best overall
// chose, -1 for none (or now).
func leaderOf(r *sweep.Result) int {
	if r.Answer == nil {
		return -1
	}
	return r.Answer.Config
}

func bestOf(r *sweep.Result) int {
	if r.BestOverall == nil {
		return -1
	}
	return r.BestOverall.Config
}

// TestSweepHTMLTokens: with a column of tokens saved the front table's note is
// still the last cell of a row, of words, not a number: every row has as many
// number cells as the header has columns but the config and the note.
func TestSweepHTMLTokens(t *testing.T) {
	r := sweepOf(t)
	for _, tokens := range []bool{false, true} {
		r.Tokens = tokens
		page := written(t, WriteSweepHTML, r)
		table := page[strings.Index(page, `<table id="front-table">`):]
		table = table[:strings.Index(table, "</table>")]
		want := len(r.FrontHeader()) - 2
		for i, row := range strings.Split(table, "<tr")[2:] { // the header row first
			last := row[strings.LastIndex(row, "<td"):]
			if got := strings.Count(row, `<td class="num">`); got != want || !strings.HasPrefix(last, "<td>") {
				t.Errorf("tokens %v, row %d: %d number cells, want %d, and the last of words: %s", tokens, i, got, want, row)
			}
		}
	}
}

// TestTimelineCap: a grid of many settings draws at most MaxResultsDrawn
// results, says so in the legend, and stays a sane height.
func TestTimelineCap(t *testing.T) {
	var ps []policy.Policy
	for w := 10; w < 10+400; w++ {
		p := scorePolicy.With(policy.MaxTurnsStuck, w)
		ps = append(ps, p)
	}
	e := premature.analyse(ps...)
	ch := Timeline(&e)
	if h := float64(ch.Height / Px(1)); h > 1200 {
		t.Errorf("%d results: %v px high", len(ps), h)
	}
	if want := "376 more results, not drawn"; !strings.Contains(written(t, ch.Write, SVG), want) {
		t.Errorf("the legend does not say %q", want)
	}
}

// TestLazyHTML: past MaxEpisodeRows episodes the timelines are not inline
// but gzipped in chunks, and each chunk inflates to its timelines' SVG.
func TestLazyHTML(t *testing.T) {
	d := dataset(t, MaxEpisodeRows+20)
	page := written(t, WriteHTML, d)
	if n := strings.Count(page, "<svg"); n != 2 {
		t.Errorf("%d inline charts, want the 2 dataset charts", n)
	}
	if n := strings.Count(page, `<figure class="lazy"`); n != len(d.Episodes) {
		t.Errorf("%d lazy figures, want %d", n, len(d.Episodes))
	}
	chunks := regexp.MustCompile(`<div hidden id="chunk-\d+" data-gz="([A-Za-z0-9_-]*)"></div>`).FindAllStringSubmatch(page, -1)
	if want := (len(d.Episodes) + timelinesPerChunk - 1) / timelinesPerChunk; len(chunks) != want {
		t.Fatalf("%d chunks, want %d", len(chunks), want)
	}
	total := 0
	for _, c := range chunks {
		z, err := base64.RawURLEncoding.DecodeString(c[1])
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(bytes.NewReader(z))
		if err != nil {
			t.Fatal(err)
		}
		text, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		svgs := strings.Split(strings.TrimSuffix(string(text), chunkSeparator), chunkSeparator)
		for _, s := range svgs {
			if !strings.HasPrefix(s, "<svg") || !strings.HasSuffix(strings.TrimSpace(s), "</svg>") {
				t.Errorf("a chunk holds %.60q…", s)
			}
		}
		total += len(svgs)
	}
	if total != len(d.Episodes) {
		t.Errorf("%d timelines in the chunks, want %d", total, len(d.Episodes))
	}
}

// heatMap is the heat map of r, which must have one.
func heatMap(t testing.TB, r *sweep.Result) *Chart {
	t.Helper()
	ch, whyNot := HeatMap(r)
	if ch == nil {
		t.Fatalf("no heat map: %s", whyNot)
	}
	return ch
}

// TestNoHeatMapSaysWhy: without a heat map, the reason is the real one: no
// answer, and nothing to draw for the current setting's policy instead (a
// harness's no stop rule); or a grid of one setting of the answer's policy.
// The sweep page says it where the chart would be.
func TestNoHeatMapSaysWhy(t *testing.T) {
	none := policy.Policy{Name: policy.None}
	at := func(n policy.Name, w, iv int) policy.Policy {
		return policy.Policy{Name: n}.With(policy.MaxTurnsStuck, w).With(policy.CheckInterval, iv)
	}
	var grid []policy.Policy
	for _, w := range []int{20, 40} {
		for _, iv := range []int{5, 10} {
			grid = append(grid, at(policy.Score, w, iv))
		}
	}
	for _, tc := range []struct {
		name     string
		episodes int
		grid     []policy.Policy
		current  policy.Policy
		want     string
	}{
		{"no answer, now no stop rule", 5, grid, none,
			"there is no answer to draw it for, and the grid has no max_turns_stuck × check_interval of the current setting's policy, none, to draw instead"},
		{"no answer, now in the grid once", 5, []policy.Policy{at(policy.Score, 40, 10), at(policy.Window, 40, 10), at(policy.Window, 50, 10)}, at(policy.Score, 40, 10),
			"there is no answer to draw it for, and the grid has only one max_turns_stuck × check_interval of the current setting's policy, score, to draw instead"},
		// score is the only policy of the grid ZorkGPT runs: it leads, as
		// every episode is whole and flat after turn 5 (flat: score 40/10
		// stops each at 50, truly stuck, where now never stops).
		{"a leader alone of its policy", -40, []policy.Policy{at(policy.Score, 40, 10), at(policy.Window, 30, 10), at(policy.Window, 50, 10)}, none,
			"the grid has only one max_turns_stuck × check_interval of the policy of the change that leads, score (give --max-turns-stuck or --check-interval more than one value)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var eps []*episode.Episode
			if tc.episodes < 0 { // that many flat
				for i := range -tc.episodes {
					eps = append(eps, plan{id: fmt.Sprintf("flat-%02d", i), n: 100, changes: map[int]int{5: 5}, end: episode.EndMaxTurns}.episode())
				}
			} else {
				d := dataset(t, tc.episodes)
				for i := range d.Episodes {
					eps = append(eps, d.Episodes[i].Ep)
				}
			}
			r := sweep.Run(eps, tc.grid, tc.current, sweep.Options{MaxFalseRate: 1, MaxCensored: 1, Folds: 2, Costs: metrics.Costs{CallsPerTurn: 4}, Jobs: 2})
			ch, whyNot := HeatMap(r)
			if ch != nil || whyNot != tc.want {
				t.Errorf("got a chart: %v, why not: %q\nwant %q", ch != nil, whyNot, tc.want)
			}
			page := written(t, WriteSweepHTML, r)
			if want := html.EscapeString("No heat map: " + tc.want + "."); !strings.Contains(page, want) {
				t.Errorf("the page does not say %q", want)
			}
			if n := strings.Count(page, "<svg"); n != 1 {
				t.Errorf("the page holds %d charts, want 1 (the trade-off)", n)
			}
		})
	}
}

// TestTradeOffNoEmptyZoom: the trade-off chart zooms in on the target's
// corner only when some config there saves a turn. With a score gain at
// turn 160 of 200, every config of score 10/10 … 100/10 stops every episode
// before it (a false termination each), and only now, no stop rule, sits in
// the corner, saving nothing. With half the episodes flat from turn 5 and
// half gaining at turn 45, 10/10 to 30/10 stop half before that gain (50%)
// while 40/10 and up stop none prematurely, saving turns, in the corner.
func TestTradeOffNoEmptyZoom(t *testing.T) {
	var grid []policy.Policy
	for w := 10; w <= 100; w += 10 {
		grid = append(grid, policy.Policy{Name: policy.Score}.With(policy.MaxTurnsStuck, w))
	}
	none := policy.Policy{Name: policy.None}
	for _, tc := range []struct {
		name  string
		gains []map[int]int // the score changes of each episode, in turn
		zoom  bool
	}{
		{"every config stops early", []map[int]int{{160: 10}}, false},
		{"some configs never do", []map[int]int{{5: 5}, {5: 5, 45: 10}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var eps []*episode.Episode
			for i := range 10 { // too few for an answer, which would be marked
				eps = append(eps, plan{id: fmt.Sprintf("2025-11-20T%02d:00:00", i), n: 200, changes: tc.gains[i%len(tc.gains)], end: episode.EndMaxTurns}.episode())
			}
			r := sweep.Run(eps, grid, none, sweep.Options{MaxFalseRate: 0.05, MaxCensored: 0.10, Costs: metrics.Costs{CallsPerTurn: 4}, Jobs: 2})
			if r.Answer != nil {
				t.Fatal("an answer")
			}
			for i := range r.Configs {
				c := &r.Configs[i]
				want := 1.0
				if len(tc.gains) == 2 {
					want = map[bool]float64{true: 0.5, false: 0}[c.Policy.MaxTurnsStuck() <= 30]
				}
				if f := r.FalseRate(c); f != want {
					t.Fatalf("%s: false-termination rate %v, want %v", c.Policy, f, want)
				}
			}
			texts := svgTexts(t, TradeOff(r))
			if zoom := slices.ContainsFunc(texts, func(s string) bool { return strings.HasPrefix(s, "near the target") }); zoom != tc.zoom {
				t.Errorf("zoomed in %v, want %v", zoom, tc.zoom)
			}
		})
	}
}
