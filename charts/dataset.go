package charts

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/lbanalyze/lbanalyze/internal/textout"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/report"
)

// side is one policy of a dataset: Outcomes[k] of every episode is side k's.
// A dataset holds two today (baseline and after); the charts draw any number.
type side struct {
	name string // "baseline", "after"
	pol  policy.Policy
}

// sidesOf lists the dataset's policies in the order of the episodes' outcomes.
func sidesOf(d *report.Dataset) []side {
	return []side{{"baseline", d.Baseline}, {"after", d.After}}
}

func (s side) String() string { return s.name + " " + s.pol.String() }

// sideShapes and sideRadii tell the sides apart when they run the same
// policy (one colour), and keep all in sight where they stop at the same
// turn: each later side's mark sits inside the one before.
var (
	sideShapes = []shape{circle, triangle, square, diamond}
	sideRadii  = []float64{7, 4.5, 3.2, 2.4}
)

func sideShape(s int) shape    { return sideShapes[s%len(sideShapes)] }
func sideRadius(s int) float64 { return sideRadii[min(s, len(sideRadii)-1)] }

// Marks of an outcome in the dataset charts: filled where the policy stops,
// hollow at the log's length where it does not; a black halo for a
// false-termination candidate; an arrow past the log's end when censored.
// A row of the terminations chart is rowHeight px high, less when there are
// so many episodes that the chart would pass maxRowsHeight; with rows too
// thin for a label, the rows are not labelled; a label has at most
// maxRowLabel runes (rowLabels).
const (
	rowHeight     = 16
	maxRowsHeight = 2400
	minLabelRow   = 10
	maxRowLabel   = 40
)

var haloColor = color.NRGBA{0x00, 0x00, 0x00, 0xFF}

// stackedStyle is the glyph of an outcome on side s where marks never share
// a place (stacks): every side the same size.
func stackedStyle(sides []side, s int) draw.GlyphStyle {
	sty := sideStyle(sides, s, true)
	sty.Radius = Px(sideRadii[0] - 1)
	return sty
}

// sideStyle is the glyph of an outcome on side s.
func sideStyle(sides []side, s int, stopped bool) draw.GlyphStyle {
	return draw.GlyphStyle{Color: PolicyColor(sides[s].pol.Name), Radius: Px(sideRadius(s)), Shape: mark{shape: sideShape(s), hollow: !stopped, outline: scoreColor}}
}

// dot is one outcome in a dataset chart.
type dot struct {
	x, y     float64
	style    draw.GlyphStyle
	halo     bool       // false-termination candidate
	censored bool       // the arrow: the length is a lower bound
	line     [2]float64 // a grey line along the row between these turns, under every mark
}

// dots draws outcome marks; a dot's radius shrinks when the rows are too
// close for it (tall stacks in the turns-saved chart).
type dots struct {
	dots []dot
	// fitRows: shrink the marks to fit one a unit of y.
	fitRows bool
}

func (ds dots) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	scale := vg.Length(1)
	if ds.fitRows {
		if unit, r := trY(1)-trY(0), Px(sideRadii[0]+2); unit < 2*r {
			scale = unit / (2 * r)
		}
	}
	connector := draw.LineStyle{Color: color.NRGBA{0x88, 0x88, 0x88, 0xFF}, Width: Px(2)}
	for _, d := range ds.dots {
		if d.line[0] != d.line[1] {
			c.StrokeLine2(connector, trX(d.line[0]), trY(d.y), trX(d.line[1]), trY(d.y))
		}
	}
	for _, d := range ds.dots {
		d.style.Radius = vg.Length(float64(d.style.Radius) * float64(scale))
		d.draw(&c, vg.Point{X: trX(d.x), Y: trY(d.y)})
	}
}

// Thumbnail draws the first dot, for the legend.
func (ds dots) Thumbnail(c *draw.Canvas) {
	pt := c.Center()
	if ds.dots[0].censored {
		pt.X -= Px(6) // room for the arrow
	}
	ds.dots[0].draw(c, pt)
}

func (d dot) draw(c *draw.Canvas, pt vg.Point) {
	sty := d.style
	if d.censored {
		arrow := draw.LineStyle{Color: sty.Color, Width: Px(2)}
		tip := pt.X + 3*sty.Radius
		c.StrokeLine2(arrow, pt.X, pt.Y, tip, pt.Y)
		c.StrokeLine2(arrow, tip-sty.Radius, pt.Y+sty.Radius*0.7, tip, pt.Y)
		c.StrokeLine2(arrow, tip-sty.Radius, pt.Y-sty.Radius*0.7, tip, pt.Y)
	}
	if d.halo {
		c.DrawGlyph(draw.GlyphStyle{Color: haloColor, Radius: sty.Radius + Px(3), Shape: mark{shape: circle, hollow: true}}, pt)
	}
	c.DrawGlyph(sty, pt)
}

// outcomeDot is the mark of outcome o on side s at height y: at its
// termination turn, or at the log's length when it does not stop.
func outcomeDot(sides []side, o *replay.Outcome, s int, y float64) dot {
	return dot{x: float64(o.Length), y: y, style: sideStyle(sides, s, o.Terminated()),
		halo: o.FalseTerminationCandidate(), censored: o.Censored}
}

// MaxEpisodeRows is the most episodes the terminations chart draws one row
// each; beyond it, rows would be too thin to label or to tell apart, and the
// chart is a histogram of stop turns per policy instead.
const MaxEpisodeRows = 100

// Terminations draws where each policy stops each episode (or its log's
// length when it does not): up to MaxEpisodeRows episodes, one row each,
// sorted by the first policy's turn then the next's, the marks of a row
// joined by a line; beyond that, a histogram of stop turns per policy.
func Terminations(d *report.Dataset) *Chart {
	if len(d.Episodes) > MaxEpisodeRows {
		return terminationHistograms(d)
	}
	sides := sidesOf(d)
	// The rows, by index into d.Episodes, with their outcomes.
	type episodeRow struct {
		i        int
		outcomes []replay.Outcome
	}
	eps := make([]episodeRow, len(d.Episodes))
	for i := range d.Episodes {
		eps[i] = episodeRow{i, []replay.Outcome{d.Outcome(i, 0), d.Outcome(i, 1)}}
	}
	slices.SortStableFunc(eps, func(a, b episodeRow) int {
		for s := range sides {
			if c := cmp.Compare(a.outcomes[s].Length, b.outcomes[s].Length); c != 0 {
				return c
			}
		}
		return 0
	})
	n := len(eps)
	rowPx := min(rowHeight, float64(maxRowsHeight)/float64(max(n, 1)))
	p := newPlot("turn (the log's length where a policy does not stop)", "")
	p.X.Tick.Marker = intTicks{target: 12}
	p.Y.Tick.Label.Font.Size = 8
	var ticks plot.ConstantTicks
	if rowPx >= minLabelRow {
		labels := make([]string, n)
		for i, e := range eps {
			labels[i] = d.Label(&d.Episodes[e.i])
		}
		for i, l := range rowLabels(labels, maxRowLabel) {
			ticks = append(ticks, plot.Tick{Value: float64(n - 1 - i), Label: l})
		}
	}
	var ds dots
	longest := 1
	for i, e := range eps {
		y := float64(n - 1 - i) // the first row at the top
		lo, hi := math.Inf(1), math.Inf(-1)
		for s := range sides {
			l := float64(e.outcomes[s].Length)
			lo, hi = min(lo, l), max(hi, l)
			longest = max(longest, e.outcomes[s].Length)
		}
		for s := range sides {
			d := outcomeDot(sides, &e.outcomes[s], s, y)
			if s == 0 {
				d.line = [2]float64{lo, hi}
			}
			ds.dots = append(ds.dots, d)
		}
	}
	p.Y.Tick.Marker = ticks
	p.Y.Min, p.Y.Max = -0.7, float64(n)-0.3
	p.X.Min, p.X.Max = 0, float64(longest)*1.05 // room for the arrows of censored outcomes
	p.Add(rowLines{n: n}, ds)

	lg := sideLegend(sides)
	height := max(Px(600), Px(130+rowPx*float64(n)), lg.height()+Px(60))
	title := fmt.Sprintf("Termination turn per episode: %s (n = %d)", sidesTitle(sides), n)
	return newChart(Px(1200), height, title, lg, p.Draw)
}

// sidesTitle names the sides, "baseline score 40/10 vs after score-or-objective 40/10".
func sidesTitle(sides []side) string {
	var parts []string
	for _, s := range sides {
		parts = append(parts, s.String())
	}
	return strings.Join(parts, " vs ")
}

// sideLegend explains the marks of every side.
func sideLegend(sides []side) legend {
	var lg legend
	for s := range sides {
		lg.add(fmt.Sprintf("%s: stops", sides[s]), dots{dots: []dot{{style: sideStyle(sides, s, true)}}})
		lg.add(fmt.Sprintf("%s: does not stop\n(drawn at the log's length)", sides[s].name), dots{dots: []dot{{style: sideStyle(sides, s, false)}}})
	}
	lg.add("false-termination candidate\n(premature?)", dots{dots: []dot{{style: sideStyle(sides, 0, true), halo: true}}})
	lg.add("censored: the recording's own\nloop break stopped the log first", dots{dots: []dot{{style: sideStyle(sides, len(sides)-1, false), censored: true}}})
	return lg
}

// rowLines draws a faint line along every row, so that the eye can follow
// a row from its label to its marks.
type rowLines struct{ n int }

func (r rowLines) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	sty := draw.LineStyle{Color: gridColor, Width: Px(1)}
	for i := range r.n {
		y := trY(float64(i))
		c.StrokeLine2(sty, c.Min.X, y, c.Max.X, y)
	}
}

// TurnsSaved draws the distribution of turns saved under each policy: one
// panel a policy that stops some episode, one mark an episode it stops,
// stacked in bins of turns saved, false-termination candidates haloed.
func TurnsSaved(d *report.Dataset) *Chart {
	if len(d.Episodes) > MaxEpisodeRows {
		return turnsSavedHistograms(d)
	}
	sides := sidesOf(d)
	stopping, idle := stoppingSides(d, sides)
	maxSaved := 1
	for i := range d.Episodes {
		for s := range sides {
			maxSaved = max(maxSaved, d.Outcome(i, s).TurnsSaved)
		}
	}
	width := int(niceStep(float64(maxSaved) / 40))
	var plots []*plot.Plot
	for _, s := range stopping {
		stacks := map[int]int{}
		var ds dots
		ds.fitRows = true
		stopped, candidates, saved := 0, 0, 0
		for i := range d.Episodes {
			o := d.Outcome(i, s)
			if !o.Terminated() {
				continue
			}
			stopped++
			saved += o.TurnsSaved
			if o.FalseTerminationCandidate() {
				candidates++
			}
			bin := o.TurnsSaved / width
			stacks[bin]++
			ds.dots = append(ds.dots, dot{x: float64(bin*width) + float64(width-1)/2, y: float64(stacks[bin]) - 0.5,
				style: stackedStyle(sides, s), halo: o.FalseTerminationCandidate()})
		}
		tallest := 1
		for _, h := range stacks {
			tallest = max(tallest, h)
		}
		p := newPlot("turns saved", "episodes")
		p.Title.Text = stopsTitle(sides[s], stopped, len(d.Episodes), candidates, saved)
		panelTitle(p)
		p.X.Tick.Marker = intTicks{target: 12}
		p.Y.Tick.Marker = intTicks{target: 4}
		p.X.Min, p.X.Max = -float64(width), float64(maxSaved+width)*1.02
		p.Y.Min, p.Y.Max = 0, float64(tallest)+0.5
		p.Add(gridLines{}, ds)
		plots = append(plots, p)
	}
	var lg legend
	for _, s := range stopping {
		lg.add(fmt.Sprintf("%s:\none episode it stops", sides[s]), dots{dots: []dot{{style: stackedStyle(sides, s)}}})
	}
	if len(stopping) > 0 {
		lg.add("false-termination candidate\n(premature?)", dots{dots: []dot{{style: stackedStyle(sides, stopping[0]), halo: true}}})
	}
	if width > 1 {
		lg.add(fmt.Sprintf("stacked in bins of %d turns", width))
	}
	plots = noStopPanels(plots, idle, &lg)
	title := fmt.Sprintf("Turns saved per stopped episode (n = %d)", len(d.Episodes))
	return newChart(Px(1200), panelsHeight(len(plots)), title, lg, drawPanels(plots))
}

// stoppingSides are the sides that stop some episode, by index, and those
// that stop none: a panel of turns saved for one of those would be empty.
func stoppingSides(d *report.Dataset, sides []side) (stopping []int, idle []side) {
	for s := range sides {
		if slices.ContainsFunc(d.Episodes, func(e report.Episode) bool { o := d.OutcomeOf(&e, s); return o.Terminated() }) {
			stopping = append(stopping, s)
		} else {
			idle = append(idle, sides[s])
		}
	}
	return stopping, idle
}

// noStopPanels says in the legend which policies stop no episode, and so
// have no panel of turns saved; when none stops any, the one panel left
// says so where the marks would be.
func noStopPanels(plots []*plot.Plot, idle []side, lg *legend) []*plot.Plot {
	for _, s := range idle {
		lg.add(fmt.Sprintf("%s stops no episode:\nit saves no turns (no panel)", s))
	}
	if len(plots) > 0 {
		return plots
	}
	p := newPlot("", "")
	p.HideAxes()
	p.Add(note{"no policy stops an episode: no turns saved"})
	return []*plot.Plot{p}
}

// note is a line of text in the middle of a plot that has nothing else to show.
type note struct{ text string }

func (n note) Plot(c draw.Canvas, _ *plot.Plot) {
	sty := textStyle(12)
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
	c.FillText(sty, c.Center(), n.text)
}

// panelTitle styles a panel's title, smaller than the chart's.
func panelTitle(p *plot.Plot) {
	p.Title.TextStyle = textStyle(10)
	p.Title.TextStyle.XAlign, p.Title.TextStyle.YAlign = draw.XCenter, draw.YTop
	p.Title.Padding = Px(6)
}

// panelsHeight is the height of a chart of k panels one above the other:
// 600 px for two, 250 px more for each further one.
func panelsHeight(k int) vg.Length { return Px(float64(600 + 250*max(0, k-2))) }

// drawPanels draws plots one above the other, their axes aligned.
func drawPanels(plots []*plot.Plot) func(area draw.Canvas) {
	return func(area draw.Canvas) {
		grid := make([][]*plot.Plot, len(plots))
		for i, p := range plots {
			grid[i] = []*plot.Plot{p}
		}
		tiles := plot.Align(grid, draw.Tiles{Rows: len(plots), Cols: 1, PadY: Px(16)}, area)
		for i, p := range plots {
			p.Draw(tiles[i][0])
		}
	}
}

// The bars of the terminations histogram, stacked from the bottom.
var (
	stuckBar     = func(c color.NRGBA) color.Color { return c }
	prematureBar = func(c color.NRGBA) color.Color { return darker(c) }
	noStopColor  = color.NRGBA{0xCC, 0xCC, 0xCC, 0xFF}
	censorColor  = color.NRGBA{0x77, 0x77, 0x77, 0xFF}
)

// bars are stacked bars: counts[bin][k] of category k, drawn in colors[k].
type bars struct {
	width  float64 // turns a bin
	counts [][]int
	colors []color.Color
}

func (b bars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	edge := draw.LineStyle{Color: color.White, Width: Px(0.5)}
	for bin, ks := range b.counts {
		x0, x1 := trX(float64(bin)*b.width), trX(float64(bin+1)*b.width)
		y := 0
		for k, n := range ks {
			if n == 0 {
				continue
			}
			y0, y1 := trY(float64(y)), trY(float64(y+n))
			r := []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
			c.FillPolygon(b.colors[k], r)
			if x1-x0 > Px(3) {
				c.StrokeLines(edge, append(r, r[0]))
			}
			y += n
		}
	}
}

// barThumb is a legend thumbnail of one bar colour.
type barThumb struct{ color color.Color }

func (t barThumb) Thumbnail(c *draw.Canvas) {
	mid := c.Center()
	c.FillPolygon(t.color, []vg.Point{{X: mid.X - Px(6), Y: c.Min.Y}, {X: mid.X + Px(6), Y: c.Min.Y}, {X: mid.X + Px(6), Y: c.Max.Y}, {X: mid.X - Px(6), Y: c.Max.Y}})
}

// terminationHistograms is the terminations chart for a large dataset: for
// each policy a histogram of the turn it stops episodes at (the log's
// length where it does not), stacked by what the stop is: truly stuck,
// premature (a false-termination candidate), no stop, censored.
func terminationHistograms(d *report.Dataset) *Chart {
	sides := sidesOf(d)
	width, nbins := bins(d, len(sides), func(o *replay.Outcome) int { return o.Length })
	plots := make([]*plot.Plot, len(sides))
	top := 1
	for s := range sides {
		col := PolicyColor(sides[s].pol.Name)
		b := bars{width: width, counts: make([][]int, nbins), colors: []color.Color{stuckBar(col), prematureBar(col), noStopColor, censorColor}}
		for i := range b.counts {
			b.counts[i] = make([]int, 4)
		}
		var k [4]int
		tallest := 1
		for i := range d.Episodes {
			o := d.Outcome(i, s)
			cat := 2
			switch {
			case o.Censored:
				cat = 3
			case o.FalseTerminationCandidate():
				cat = 1
			case o.Terminated():
				cat = 0
			}
			bin := int(float64(o.Length) / width)
			b.counts[bin][cat]++
			k[cat]++
		}
		for _, ks := range b.counts {
			tallest = max(tallest, ks[0]+ks[1]+ks[2]+ks[3])
		}
		top = max(top, tallest)
		plots[s] = histogramPanel("turn it stops at (the log's length where it does not stop)",
			fmt.Sprintf("%s: stops %d of %d (%d premature?), no stop %d, censored %d", sides[s], k[0]+k[1], len(d.Episodes), k[1], k[2], k[3]),
			b, nbins, width)
	}
	shareY(plots, top)
	var lg legend
	for _, s := range sides {
		lg = append(lg, stopLegend(s)...)
	}
	lg.add("no stop: at the log's length", barThumb{noStopColor})
	lg.add("censored: the log is cut (the recording's own\nstop, a kill) before the policy would stop", barThumb{censorColor})
	lg.add(fmt.Sprintf("bins of %s turns; more than %d episodes: one\nrow an episode would be too thin to read", strconv.FormatFloat(width, 'f', -1, 64), MaxEpisodeRows))
	title := fmt.Sprintf("Termination turns: %s (n = %d)", sidesTitle(sides), len(d.Episodes))
	return newChart(Px(1200), max(panelsHeight(len(sides)), lg.height()+Px(60)), title, lg, drawPanels(plots))
}

// bins are the bin width (a nice step, about 60 bins) and count that hold
// value of every outcome of the first n policies.
func bins(d *report.Dataset, n int, value func(o *replay.Outcome) int) (width float64, nbins int) {
	top := 1
	for i := range d.Episodes {
		for s := range n {
			o := d.Outcome(i, s)
			top = max(top, value(&o))
		}
	}
	width = niceStep(float64(top) / 60)
	return width, int(float64(top)/width) + 1
}

// histogramPanel is one policy's panel of a histogram chart: counts per bin
// of width, nbins bins.
func histogramPanel(xLabel, title string, b bars, nbins int, width float64) *plot.Plot {
	p := newPlot(xLabel, "episodes")
	p.Title.Text = title
	panelTitle(p)
	p.X.Tick.Marker = intTicks{target: 12}
	p.Y.Tick.Marker = intTicks{target: 4}
	p.X.Min, p.X.Max = 0, float64(nbins)*width
	p.Add(gridLines{}, b)
	return p
}

// shareY gives the panels one y scale, so that they compare.
func shareY(plots []*plot.Plot, top int) {
	for _, p := range plots {
		p.Y.Min, p.Y.Max = 0, float64(top)*1.05
	}
}

// stopLegend names a policy's two kinds of stop.
func stopLegend(s side) legend {
	var lg legend
	col := PolicyColor(s.pol.Name)
	lg.add(fmt.Sprintf("%s: stops, truly stuck, or unknown\n(the log cut too soon after to judge)", s), barThumb{stuckBar(col)})
	lg.add(fmt.Sprintf("%s: stops, false-termination\ncandidate (premature?)", s.name), barThumb{prematureBar(col)})
	return lg
}

// turnsSavedHistograms is the turns-saved chart for a large dataset: for
// each policy that stops some episode a histogram of the turns saved by the
// episodes it stops, stacked by truly stuck and premature
// (false-termination candidates).
func turnsSavedHistograms(d *report.Dataset) *Chart {
	sides := sidesOf(d)
	stopping, idle := stoppingSides(d, sides)
	width, nbins := bins(d, len(sides), func(o *replay.Outcome) int { return o.TurnsSaved })
	var plots []*plot.Plot
	top := 1
	for _, s := range stopping {
		col := PolicyColor(sides[s].pol.Name)
		b := bars{width: width, counts: make([][]int, nbins), colors: []color.Color{stuckBar(col), prematureBar(col)}}
		for i := range b.counts {
			b.counts[i] = make([]int, 2)
		}
		stopped, candidates, saved := 0, 0, 0
		for i := range d.Episodes {
			o := d.Outcome(i, s)
			if !o.Terminated() {
				continue
			}
			cat := 0
			if o.FalseTerminationCandidate() {
				cat = 1
				candidates++
			}
			stopped++
			saved += o.TurnsSaved
			b.counts[int(float64(o.TurnsSaved)/width)][cat]++
		}
		for _, ks := range b.counts {
			top = max(top, ks[0]+ks[1])
		}
		plots = append(plots, histogramPanel("turns saved", stopsTitle(sides[s], stopped, len(d.Episodes), candidates, saved), b, nbins, width))
	}
	shareY(plots, top)
	var lg legend
	for _, s := range stopping {
		lg = append(lg, stopLegend(sides[s])...)
	}
	lg.add(fmt.Sprintf("bins of %s turns saved; more than %d episodes:\nhistograms rather than one mark an episode", strconv.FormatFloat(width, 'f', -1, 64), MaxEpisodeRows))
	plots = noStopPanels(plots, idle, &lg)
	title := fmt.Sprintf("Turns saved per stopped episode (n = %d)", len(d.Episodes))
	return newChart(Px(1200), max(panelsHeight(len(plots)), lg.height()+Px(60)), title, lg, drawPanels(plots))
}

// stopsTitle is the title of one side's panel of turns saved.
func stopsTitle(side side, stopped, n, candidates, saved int) string {
	return fmt.Sprintf("%s: stops %d of %s (%s), saves %s", side, stopped, textout.Count(n, "episode"),
		textout.Count(candidates, "false-termination candidate"), textout.Count(saved, "turn"))
}
