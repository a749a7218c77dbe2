package charts

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/policy"
)

var score30 = policy.Policy{Name: policy.Score}.WithTimer(policy.Timer{MaxTurnsStuck: 30, CheckInterval: 10, WarningThreshold: 20})

// The episodes of the golden charts, each showing what the others do not.
var (
	// score stops at 40 (the recording's own loop break, score-only, cut the
	// log there); score-or-objective does not stop by then: censored.
	censored = plan{id: "2025-11-13T09:30:00", n: 40, objectives: map[int]string{30: "Open the window"}, end: episode.EndStuckTermination}
	// Deaths (one with a penalty) and a game over; two settings of one policy.
	deaths = plan{id: "2025-11-14T08:00:00", n: 120, changes: map[int]int{10: 5, 55: -5, 100: 20},
		objectives: map[int]string{55: "Cross the chasm", 70: "Get the lamp", 71: "Light the lamp", 72: "Go down", 73: "Kill the troll", 74: "Take the sword", 75: "Go north"},
		deaths:     []int{55, 120}, end: episode.EndGameOver}
	// Three policies stop at three turns: score at 50 (5 + 40 → the next check),
	// window at 70 (30 + 40), score-or-objective at 80 (the completion at 30
	// resets at 31, 31 + 40 → 80).
	threeStops = plan{id: "2025-11-15T07:00:00", n: 200, changes: map[int]int{5: 5}, objectives: map[int]string{30: "Open the mailbox"}, end: episode.EndMaxTurns}
)

// TestGoldenSVG compares the SVG of each chart with testdata/NAME.svg, as
// text: read the diff before accepting it with -update.
func TestGoldenSVG(t *testing.T) {
	charts := goldenCharts(t)
	var tests []struct {
		name  string
		chart *Chart
	}
	for _, name := range slices.Sorted(maps.Keys(charts)) {
		tests = append(tests, struct {
			name  string
			chart *Chart
		}{name, charts[name]})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			svg := written(t, tc.chart.Write, SVG)
			path := filepath.Join("testdata", tc.name+".svg")
			if *update {
				if err := os.WriteFile(path, []byte(svg), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (go test ./charts -update writes it)", err)
			}
			if d := lineDiff(string(want), svg); d != "" {
				t.Errorf("%s differs (go test ./charts -update rewrites it; read the diff first):\n%s", path, d)
			}
		})
	}
}

// goldenCharts are the charts compared with testdata/NAME.svg, by name.
func goldenCharts(t testing.TB) map[string]*Chart {
	withDeaths := deaths.analyse(scorePolicy, score30, v2Policy)
	withPremature := premature.analyse(scorePolicy, v2Policy, window)
	withCensored := censored.analyse(scorePolicy, v2Policy)
	d := dataset(t, 12)
	return map[string]*Chart{
		"timeline-premature": Timeline(&withPremature),
		"timeline-deaths":    Timeline(&withDeaths),
		"timeline-censored":  Timeline(&withCensored),
		"terminations":       Terminations(d),
		"turns-saved":        TurnsSaved(d),
		"sweep-tradeoff":     TradeOff(sweepOf(t)),
		"sweep-heatmap":      heatMap(t, sweepOf(t)),
	}
}

// lineDiff shows the first lines that differ, with their numbers.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var out []string
	for i := 0; i < max(len(w), len(g)) && len(out) < 20; i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			out = append(out, fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, a, b))
		}
	}
	return strings.Join(out, "\n")
}

// TestDeterministic: the same input gives the same bytes, PNG and SVG.
func TestDeterministic(t *testing.T) {
	e := threeStops.analyse(scorePolicy, v2Policy, window)
	for _, f := range []Format{PNG, SVG} {
		first := written(t, Timeline(&e).Write, f)
		if written(t, Timeline(&e).Write, f) != first {
			t.Errorf("%s: two renderings differ", f)
		}
	}
}

// TestTimelinePNG decodes a timeline and finds each policy's line where its
// termination turn puts it: score at 50, window at 70, score-or-objective at
// 80, so that the three x positions keep the turns' proportions; the
// warning shading from turn 25 (5 + 20) to 50; the objective's marker at 30.
func TestTimelinePNG(t *testing.T) {
	e := threeStops.analyse(scorePolicy, v2Policy, window)
	for i, want := range []int{50, 80, 70} { // the premise, checked by the replay itself
		if got := e.Outcomes[i].TerminationTurn; got != want {
			t.Fatalf("%s stops at %d, the test expects %d", e.Outcomes[i].Policy, got, want)
		}
	}
	img, err := png.Decode(strings.NewReader(written(t, Timeline(&e).Write, PNG)))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 1200 || b.Dy() != 600 {
		t.Fatalf("size %v, want 1200×600", b.Size())
	}
	plotRight := 1200 - legendWidth // the legend is right of it, with thumbnails in the same colours
	x50 := lineColumn(t, img, PolicyColor(policy.Score), plotRight, 300)
	x80 := lineColumn(t, img, PolicyColor(policy.ScoreOrObjective), plotRight, 150)
	x70 := lineColumn(t, img, PolicyColor(policy.Window), plotRight, 80)
	px := func(turn float64) float64 { return float64(x50) + (turn-50)*float64(x80-x50)/30 }
	if !(x50 < x70 && x70 < x80) || abs(float64(x70)-px(70)) > 3 {
		t.Errorf("lines at x = %d (50), %d (70), %d (80): not in proportion", x50, x70, x80)
	}

	// The shading: yellow at 40% over white.
	shaded := func(c color.Color) bool {
		r, g, b, _ := c.RGBA()
		return near(r>>8, 249) && near(g>>8, 244) && near(b>>8, 179)
	}
	lo, hi := columns(img, shaded, plotRight)
	if abs(float64(lo)-px(25)) > 4 || abs(float64(hi)-px(50)) > 4 {
		t.Errorf("shading from x = %d to %d, want about %.0f (turn 25) to %.0f (turn 50)", lo, hi, px(25), px(50))
	}
	lo, hi = columns(img, func(c color.Color) bool { return sameColor(c, objectiveColor) }, plotRight)
	if mid := float64(lo+hi) / 2; abs(mid-px(30)) > 3 {
		t.Errorf("objective marker at x = %.0f, want about %.0f (turn 30)", mid, px(30))
	}
	if n := distinctColors(img); n < 20 {
		t.Errorf("only %d colours: blank?", n)
	}
}

// TestDatasetPNG decodes the dataset charts: their size, and marks of both
// policies' colours in the plot area.
func TestDatasetPNG(t *testing.T) {
	d := dataset(t, 12)
	for _, tc := range []struct {
		name  string
		chart *Chart
		h     int
	}{{"terminations", Terminations(d), 600}, {"turns saved", TurnsSaved(d), 600}} {
		img, err := png.Decode(strings.NewReader(written(t, tc.chart.Write, PNG)))
		if err != nil {
			t.Fatal(err)
		}
		if b := img.Bounds(); b.Dx() != 1200 || b.Dy() != tc.h {
			t.Errorf("%s: size %v, want 1200×%d", tc.name, b.Size(), tc.h)
		}
		for _, pol := range []policy.Policy{d.Baseline, d.After} {
			// 12 episodes, most stopped by both: marks of several pixels each.
			if n := countColor(img, PolicyColor(pol.Name), 1200-legendWidth); n < 100 {
				t.Errorf("%s: %d pixels of %s's colour in the plot area: its marks are missing", tc.name, n, pol)
			}
		}
	}
}

// lineColumn is the column left of xMax with the most pixels of colour c,
// which must hold at least minRun of them: a vertical line.
func lineColumn(t *testing.T, img image.Image, c color.NRGBA, xMax, minRun int) int {
	t.Helper()
	best, bestN := -1, 0
	b := img.Bounds()
	for x := b.Min.X; x < xMax; x++ {
		n := 0
		for y := b.Min.Y; y < b.Max.Y; y++ {
			if sameColor(img.At(x, y), c) {
				n++
			}
		}
		if n > bestN {
			best, bestN = x, n
		}
	}
	if bestN < minRun {
		t.Fatalf("no vertical line of colour %v (best column %d has %d pixels)", c, best, bestN)
	}
	return best
}

// columns gives the leftmost and rightmost columns left of xMax holding a
// pixel that matches.
func columns(img image.Image, match func(color.Color) bool, xMax int) (lo, hi int) {
	lo, hi = -1, -1
	b := img.Bounds()
	for x := b.Min.X; x < xMax; x++ {
		for y := b.Min.Y; y < b.Max.Y; y++ {
			if match(img.At(x, y)) {
				if lo < 0 {
					lo = x
				}
				hi = x
				break
			}
		}
	}
	return lo, hi
}

// countColor counts the pixels of colour c left of xMax.
func countColor(img image.Image, c color.NRGBA, xMax int) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < xMax; x++ {
			if sameColor(img.At(x, y), c) {
				n++
			}
		}
	}
	return n
}

func sameColor(a color.Color, b color.NRGBA) bool {
	r, g, bl, _ := a.RGBA()
	return r>>8 == uint32(b.R) && g>>8 == uint32(b.G) && bl>>8 == uint32(b.B)
}

func near(a uint32, b uint32) bool { return a+2 >= b && a <= b+2 }

func abs(x float64) float64 { return max(x, -x) }

func distinctColors(img image.Image) int {
	seen := map[color.Color]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			seen[img.At(x, y)] = true
		}
	}
	return len(seen)
}

// hostile is text a log may hold that must show as text, never as markup.
const hostile = `<script>alert(1)</script>"&'`

// TestEscaping: ids, objectives, actions and sources from a log show as
// text in the SVG (well-formed XML whose text is the log's) and in the HTML.
func TestEscaping(t *testing.T) {
	p := plan{id: hostile + "\x01", n: 60, changes: map[int]int{50: 5}, objectives: map[int]string{20: "<b>bold</b> & " + hostile},
		source: `"><img src=x onerror=alert(2)>.jsonl`}
	e := p.analyse(scorePolicy, v2Policy)
	e.Ep.Turns[10].Action = hostile
	e.Ep.Turns[10].Location = hostile
	svg, texts := timelineSVG(t, &e)
	// The control character became a space: XML does not allow it.
	for _, want := range []string{hostile + "  — final score 5", "<b>bold</b> & <script>"} {
		if !strings.Contains(texts, want) {
			t.Errorf("the SVG's text lacks %q", want)
		}
	}
	for _, bad := range []string{"<script", "<b>"} {
		if strings.Contains(svg, bad) {
			t.Errorf("the SVG holds %q as markup", bad)
		}
	}

	d := dataset(t, 4)
	d.Episodes = append(d.Episodes, e)
	h := written(t, WriteHTML, d)
	if n := strings.Count(h, "<script"); n != 1 {
		t.Errorf("%d <script elements, want 1 (the report's own)", n)
	}
	for _, bad := range []string{"<img", "<b>", "onerror=alert(2)>"} {
		if strings.Contains(h, bad) {
			t.Errorf("the HTML holds %q as markup", bad)
		}
	}
	for _, want := range []string{"&lt;script&gt;alert(1)&lt;/script&gt;&#34;&amp;&#39;", "&lt;b&gt;bold&lt;/b&gt; &amp; "} {
		if !strings.Contains(h, want) {
			t.Errorf("the HTML lacks the escaped text %q", want)
		}
	}
}

// printable makes log text fit for a chart.
func TestPrintable(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Open the window", "Open the window"},
		{"a\nb\tc\x00d", "a b c d"},
		{"bad \xff byte", "bad \uFFFD byte"},
		{"Search in the Room of the dam", "Search in the Room of…"}, // no space before the ellipsis
		{strings.Repeat("é", 25), strings.Repeat("é", 22) + "…"},    // cut in runes, not bytes
	}
	for _, tc := range tests {
		if got := printable(tc.in, 23); got != tc.want {
			t.Errorf("printable(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestTerminationsManyEpisodes: with more episodes than rows fit, the rows
// get thinner (and lose their labels) rather than the chart growing without
// bound: a PNG of it must stay a sane size.
func TestTerminationsManyEpisodes(t *testing.T) {
	for _, n := range []int{12, 400} {
		h := Terminations(dataset(t, n)).Height
		if h < Px(600) || h > Px(130+maxRowsHeight) {
			t.Errorf("%d episodes: %v px high, want 600 to %d", n, float64(h/Px(1)), 130+maxRowsHeight)
		}
	}
}

// The stop lines' labels sit in rows above the highest score; objective
// markers there take room too (triangle and number, 20.8 px; lifted over a
// death's cross, 16 px more), so that a label does not cover them. Markers
// lower than a tenth of the score range below the top take none.
func TestMarkerRoom(t *testing.T) {
	cases := []struct {
		pts  []objectiveMark
		want float64
	}{
		{nil, 0},
		{[]objectiveMark{{x: 10, y: 50}}, 20.8},
		{[]objectiveMark{{x: 10, y: 46}}, 20.8},
		{[]objectiveMark{{x: 10, y: 44}}, 0},
		{[]objectiveMark{{x: 10, y: 44}, {x: 90, y: 50, lifted: true}}, 36.8},
	}
	for _, c := range cases {
		if got := markerRoom(objectiveMarks{pts: c.pts}, 50, 50); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%+v: %v px, want %v", c.pts, got, c.want)
		}
	}
}

// Every registered policy is drawn in its Kind's colour, none in the grey
// kept for a name the registry does not know (and for "now" marks).
func TestEveryPolicyHasItsColour(t *testing.T) {
	for _, n := range policy.Names() {
		k, _ := policy.Lookup(n)
		if c := PolicyColor(n); c != k.Color || c == otherPolicyColor {
			t.Errorf("%s is drawn in %v, its Kind's colour is %v", n, c, k.Color)
		}
	}
	if c := PolicyColor("unknown"); c != otherPolicyColor {
		t.Errorf("an unknown policy is drawn in %v", c)
	}
}

// Counts in titles say "1 episode", not "1 episodes".
func TestStopsTitleCounts(t *testing.T) {
	s := side{"after", policy.Policy{Name: policy.Score}}
	for _, c := range []struct {
		n    int
		want string
	}{
		{1, "after score 40/10: stops 1 of 1 episode (1 false-termination candidate), saves 1 turn"},
		{2, "after score 40/10: stops 2 of 2 episodes (2 false-termination candidates), saves 2 turns"},
	} {
		if got := stopsTitle(s, c.n, c.n, c.n, c.n); got != c.want {
			t.Errorf("%q, want %q", got, c.want)
		}
	}
}

// TestTurnsSavedLeavesOutIdle: a policy that stops no episode (no stop rule,
// the baseline of a harness's logs) gets no empty panel of turns saved, but a
// line of the legend that says so; when no policy stops any, the chart says
// that where the marks would be. With one mark an episode and as histograms.
func TestTurnsSavedLeavesOutIdle(t *testing.T) {
	none := policy.Policy{Name: policy.None}
	for _, n := range []int{12, MaxEpisodeRows + 20} {
		for _, tc := range []struct {
			baseline, after policy.Policy
			panels          []string // the panels' titles start so, in order
			says            []string
		}{
			{scorePolicy, v2Policy, []string{"baseline score 40/10: stops", "after score-or-objective 40/10: stops"}, nil},
			{none, scorePolicy, []string{"after score 40/10: stops"}, []string{"baseline none stops no episode:", "it saves no turns (no panel)"}},
			{none, none, nil, []string{"baseline none stops no episode:", "after none stops no episode:", "no policy stops an episode: no turns saved"}},
		} {
			t.Run(fmt.Sprintf("%d episodes, %s vs %s", n, tc.baseline, tc.after), func(t *testing.T) {
				texts := svgTexts(t, TurnsSaved(datasetOf(t, n, tc.baseline, tc.after)))
				var panels []string
				for _, s := range texts {
					if strings.HasPrefix(s, "baseline ") && strings.Contains(s, ": stops ") && strings.Contains(s, ", saves ") ||
						strings.HasPrefix(s, "after ") && strings.Contains(s, ": stops ") && strings.Contains(s, ", saves ") {
						panels = append(panels, s)
					}
				}
				if len(panels) != len(tc.panels) {
					t.Fatalf("panels %q, want %d: %q", panels, len(tc.panels), tc.panels)
				}
				for i, p := range panels {
					if !strings.HasPrefix(p, tc.panels[i]) {
						t.Errorf("panel %d is %q, want %q…", i, p, tc.panels[i])
					}
				}
				for _, want := range tc.says {
					if !slices.Contains(texts, want) {
						t.Errorf("the chart does not say %q: %q", want, texts)
					}
				}
			})
		}
	}
}

// TestWarningLegend: the legend says from how many turns stuck the band of
// the countdown warning is drawn, as the policy's tracker warns: ZorkGPT's
// stuck_warning_threshold, ZorkGPT2's fixed 30 whatever max_turns_stuck is
// (docs/zorkgpt2.md, "The stuck rule"). On a log whose score never moves,
// score's timer reads t at the start of turn t (docs/semantics.md, "5.5.13
// The countdown warning reads the same timer") and zorkburr's counter t−1,
// so the bands start at 20 and 31; both stop at 60.
func TestWarningLegend(t *testing.T) {
	flat := plan{id: "2025-11-16T07:00:00", n: 100, end: episode.EndMaxTurns}
	for _, tc := range []struct {
		policy string
		legend string
		band   [2]float64
	}{
		{"score:60/10", "20 or more turns stuck)", [2]float64{20, 60}},
		{"score:60/10/25", "25 or more turns stuck)", [2]float64{25, 60}},
		{"zorkburr:60/10", "30 or more turns stuck)", [2]float64{31, 60}},
	} {
		t.Run(tc.policy, func(t *testing.T) {
			p, err := policy.Parse(tc.policy, nil)
			if err != nil {
				t.Fatal(err)
			}
			e := flat.analyse(p)
			if w := warningStretches(e.Ep, p); len(w.stretches) != 1 || w.stretches[0] != tc.band {
				t.Errorf("the band: %v, want %v", w.stretches, tc.band)
			}
			if texts := svgTexts(t, Timeline(&e)); !slices.Contains(texts, tc.legend) {
				t.Errorf("the legend does not say %q: %q", tc.legend, texts)
			}
		})
	}
}
