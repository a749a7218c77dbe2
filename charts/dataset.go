package charts

import (
	"cmp"
	"fmt"
	"image/color"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/report"
)

// The two sides of a dataset: Outcomes[0] is the baseline, Outcomes[1] the after policy.
var sideNames = [2]string{"baseline", "after"}

// sideShapes and sideRadii tell the sides apart when both run the same
// policy (one colour), and keep both in sight where they stop at the same
// turn: the after mark sits inside the baseline's.
var (
	sideShapes = [2]shape{circle, triangle}
	sideRadii  = [2]float64{7, 4.5}
)

// Marks of an outcome in the dataset charts: filled where the policy stops,
// hollow at the log's length where it does not; a black halo for a
// false-termination candidate; an arrow past the log's end when censored.
// A row of the terminations chart is rowHeight px high, less when there are
// so many episodes that the chart would pass maxRowsHeight; with rows too
// thin for a label, the rows are not labelled.
const (
	rowHeight     = 16
	maxRowsHeight = 2400
	minLabelRow   = 10
)

var haloColor = color.NRGBA{0x00, 0x00, 0x00, 0xFF}

// stackedStyle is the glyph of an outcome on side s where marks never share
// a place (stacks): both sides the same size.
func stackedStyle(d *report.Dataset, s int) draw.GlyphStyle {
	sty := sideStyle(d, s, true)
	sty.Radius = Px(sideRadii[0] - 1)
	return sty
}

// sideStyle is the glyph of an outcome on side s.
func sideStyle(d *report.Dataset, s int, stopped bool) draw.GlyphStyle {
	pol := d.Baseline
	if s == 1 {
		pol = d.After
	}
	return draw.GlyphStyle{Color: PolicyColor(pol.Name), Radius: Px(sideRadii[s]), Shape: mark{shape: sideShapes[s], hollow: !stopped, outline: scoreColor}}
}

// dot is one outcome in a dataset chart.
type dot struct {
	x, y      float64
	style     draw.GlyphStyle
	halo      bool // false-termination candidate
	censored  bool // the arrow: the length is a lower bound
	connectTo *float64
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
		if d.connectTo != nil && *d.connectTo != d.x {
			c.StrokeLine2(connector, trX(d.x), trY(d.y), trX(*d.connectTo), trY(d.y))
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

// outcomeDot is the mark of outcome o of ep on side s at height y: at its
// termination turn, or at the log's length when it does not stop.
func outcomeDot(d *report.Dataset, ep *replay.Episode, o *replay.Outcome, s int, y float64) dot {
	return dot{x: float64(o.Length), y: y, style: sideStyle(d, s, o.Terminated()),
		halo: o.FalseTerminationCandidate(), censored: o.Censored}
}

// Terminations draws, for every episode, the turn each side stops it at (or
// its log's length when it does not), the two joined by a line, one row an
// episode, sorted by the baseline's turn then the after policy's.
func Terminations(d *report.Dataset) *Chart {
	eps := make([]*report.Episode, len(d.Episodes))
	for i := range d.Episodes {
		eps[i] = &d.Episodes[i]
	}
	slices.SortStableFunc(eps, func(a, b *report.Episode) int {
		return cmp.Or(cmp.Compare(a.Outcomes[0].Length, b.Outcomes[0].Length), cmp.Compare(a.Outcomes[1].Length, b.Outcomes[1].Length))
	})
	n := len(eps)
	rowPx := min(rowHeight, float64(maxRowsHeight)/float64(max(n, 1)))
	p := newPlot("turn (the log's length where a policy does not stop)", "")
	p.X.Tick.Marker = intTicks{target: 12}
	p.Y.Tick.Label.Font.Size = 8
	var ticks plot.ConstantTicks
	var ds dots
	longest := 1
	for i, e := range eps {
		y := float64(n - 1 - i) // the first row at the top
		if rowPx >= minLabelRow {
			ticks = append(ticks, plot.Tick{Value: y, Label: printable(d.Label(e), 40)})
		}
		a := float64(e.Outcomes[1].Length)
		b := outcomeDot(d, e.Ep, &e.Outcomes[0], 0, y)
		b.connectTo = &a
		ds.dots = append(ds.dots, b, outcomeDot(d, e.Ep, &e.Outcomes[1], 1, y))
		longest = max(longest, e.Outcomes[0].Length, e.Outcomes[1].Length)
	}
	p.Y.Tick.Marker = ticks
	p.Y.Min, p.Y.Max = -0.7, float64(n)-0.3
	p.X.Min, p.X.Max = 0, float64(longest)*1.05 // room for the arrows of censored outcomes
	p.Add(rowLines{n: n}, ds)

	lg := sideLegend(d)
	height := max(Px(600), Px(130+rowPx*float64(n)))
	title := fmt.Sprintf("Termination turn per episode: baseline %s vs after %s (n = %d)", d.Baseline, d.After, n)
	return newChart(Px(1200), height, title, lg, p.Draw)
}

// sideLegend explains the marks of both sides.
func sideLegend(d *report.Dataset) legend {
	var lg legend
	for s, pol := range [2]string{d.Baseline.String(), d.After.String()} {
		lg.add(fmt.Sprintf("%s %s: stops", sideNames[s], pol), dots{dots: []dot{{style: sideStyle(d, s, true)}}})
		lg.add(fmt.Sprintf("%s: does not stop\n(drawn at the log's length)", sideNames[s]), dots{dots: []dot{{style: sideStyle(d, s, false)}}})
	}
	lg.add("false-termination candidate\n(premature?)", dots{dots: []dot{{style: sideStyle(d, 0, true), halo: true}}})
	lg.add("censored: the recording's own\nloop break stopped the log first", dots{dots: []dot{{style: sideStyle(d, 1, false), censored: true}}})
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

// TurnsSaved draws the distribution of turns saved under each side: one
// mark an episode the policy stops, stacked in bins of turns saved, false-
// termination candidates haloed.
func TurnsSaved(d *report.Dataset) *Chart {
	maxSaved := 1
	for i := range d.Episodes {
		for s := range 2 {
			maxSaved = max(maxSaved, d.Episodes[i].Outcomes[s].TurnsSaved)
		}
	}
	width := int(niceStep(float64(maxSaved) / 40))
	var plots [2]*plot.Plot
	for s := range 2 {
		pol := d.Baseline
		if s == 1 {
			pol = d.After
		}
		stacks := map[int]int{}
		var ds dots
		ds.fitRows = true
		stopped, candidates, saved := 0, 0, 0
		for i := range d.Episodes {
			o := &d.Episodes[i].Outcomes[s]
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
				style: stackedStyle(d, s), halo: o.FalseTerminationCandidate()})
		}
		tallest := 1
		for _, h := range stacks {
			tallest = max(tallest, h)
		}
		p := newPlot("turns saved", "episodes")
		p.Title.Text = fmt.Sprintf("%s %s: stops %d of %d episodes (%d false-termination candidates), saves %d turns",
			sideNames[s], pol, stopped, len(d.Episodes), candidates, saved)
		p.Title.TextStyle = textStyle(10)
		p.Title.TextStyle.XAlign, p.Title.TextStyle.YAlign = draw.XCenter, draw.YTop
		p.Title.Padding = Px(6)
		p.X.Tick.Marker = intTicks{target: 12}
		p.Y.Tick.Marker = intTicks{target: 4}
		p.X.Min, p.X.Max = -float64(width), float64(maxSaved+width)*1.02
		p.Y.Min, p.Y.Max = 0, float64(tallest)+0.5
		p.Add(gridLines{}, ds)
		plots[s] = p
	}
	var lg legend
	for s, pol := range [2]string{d.Baseline.String(), d.After.String()} {
		lg.add(fmt.Sprintf("%s %s:\none episode it stops", sideNames[s], pol), dots{dots: []dot{{style: stackedStyle(d, s)}}})
	}
	lg.add("false-termination candidate\n(premature?)", dots{dots: []dot{{style: stackedStyle(d, 0), halo: true}}})
	if width > 1 {
		lg.add(fmt.Sprintf("stacked in bins of %d turns", width))
	}
	title := fmt.Sprintf("Turns saved per stopped episode (n = %d)", len(d.Episodes))
	return newChart(Px(1200), Px(600), title, lg, func(area draw.Canvas) {
		tiles := plot.Align([][]*plot.Plot{{plots[0]}, {plots[1]}}, draw.Tiles{Rows: 2, Cols: 1, PadY: Px(16)}, area)
		plots[0].Draw(tiles[0][0])
		plots[1].Draw(tiles[1][0])
	})
}
