package charts

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/lbanalyze/lbanalyze/internal/sweep"
	"github.com/lbanalyze/lbanalyze/internal/textout"
	"github.com/lbanalyze/lbanalyze/policy"
)

// The charts of a sweep: the trade-off of turns saved against false
// terminations over every config, and the grid of max_turns_stuck ×
// check_interval of the answer's policy as a heat map.

var (
	frontLineColor = color.NRGBA{0x44, 0x44, 0x44, 0xFF}
	targetColor    = color.NRGBA{0x88, 0x88, 0x88, 0xFF}
)

// faint is c, light enough that thousands of points do not hide the front.
func faint(c color.NRGBA) color.NRGBA { c.A = 0x70; return c }

// sweepPoint is one config of the trade-off chart.
type sweepPoint struct {
	x, y     float64 // false-termination rate and turns saved, in %
	color    color.NRGBA
	front    bool
	censored bool // censored beyond --max-censored: its length is a lower bound
}

// sweepPoints draws every config, faint, then the front's over them.
type sweepPoints []sweepPoint

func (ps sweepPoints) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, front := range []bool{false, true} {
		for _, pt := range ps {
			if pt.front != front || !inside(p, pt.x, pt.y) {
				continue
			}
			c.DrawGlyph(pt.style(), vg.Point{X: trX(pt.x), Y: trY(pt.y)})
		}
	}
}

func (pt sweepPoint) style() draw.GlyphStyle {
	if pt.front {
		return draw.GlyphStyle{Color: pt.color, Radius: Px(5), Shape: mark{shape: circle, hollow: pt.censored, outline: scoreColor}}
	}
	return draw.GlyphStyle{Color: faint(pt.color), Radius: Px(3.5), Shape: mark{shape: circle, hollow: pt.censored}}
}

func (pt sweepPoint) Thumbnail(c *draw.Canvas) { c.DrawGlyph(pt.style(), c.Center()) }

// staircase is the line of the most turns saved at each false-termination
// rate or less, through the front's points.
type staircase struct {
	pts   [][2]float64 // (rate, saved), by rate
	style draw.LineStyle
}

func newStaircase(pts [][2]float64) staircase {
	slices.SortFunc(pts, func(a, b [2]float64) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(b[1], a[1])) })
	var out [][2]float64
	for _, p := range pts {
		if len(out) == 0 || p[1] > out[len(out)-1][1] {
			out = append(out, p)
		}
	}
	return staircase{pts: out, style: draw.LineStyle{Color: frontLineColor, Width: Px(2)}}
}

func (s staircase) Plot(c draw.Canvas, p *plot.Plot) {
	if len(s.pts) == 0 {
		return
	}
	trX, trY := p.Transforms(&c)
	var line []vg.Point
	for i, q := range s.pts {
		if i > 0 {
			line = append(line, vg.Point{X: trX(q[0]), Y: trY(s.pts[i-1][1])})
		}
		line = append(line, vg.Point{X: trX(q[0]), Y: trY(q[1])})
	}
	c.StrokeLines(s.style, c.ClipLinesXY(line)...)
}

func (s staircase) Thumbnail(c *draw.Canvas) {
	c.StrokeLines(s.style, []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Center().X, Y: c.Min.Y}, {X: c.Center().X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Max.Y}})
}

// xline is a vertical line at x across the plot, with a label at its top.
type xline struct {
	x     float64
	style draw.LineStyle
	label string
}

func (l xline) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	x := trX(l.x)
	c.StrokeLine2(l.style, x, c.Min.Y, x, c.Max.Y)
	sty := textStyle(labelSize)
	sty.Color = darker(l.style.Color)
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YTop
	c.FillText(sty, vg.Point{X: x + Px(4), Y: c.Max.Y - Px(2)}, l.label)
}

func (l xline) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(l.style, c.Min.X, y, c.Max.X, y)
}

// callout marks a point with a glyph and a label in a white box; callouts
// given together are placed so that their labels do not overlap.
type callout struct {
	x, y  float64
	glyph draw.GlyphStyle
	label string
}

type callouts []callout

func (cs callouts) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	sty := boldStyle(labelSize + 1)
	h := sty.Height("0") + Px(4)
	var boxes []vg.Rectangle
	for _, co := range cs {
		if !inside(p, co.x, co.y) {
			continue
		}
		pt := vg.Point{X: trX(co.x), Y: trY(co.y)}
		c.DrawGlyph(co.glyph, pt)
		w := sty.Width(co.label) + Px(6)
		// Right of the point and above it, else left where the plot ends;
		// moved down a row at a time until it overlaps no label placed.
		x := pt.X + co.glyph.Radius + Px(6)
		if x+w > c.Max.X {
			x = pt.X - co.glyph.Radius - Px(6) - w
		}
		y := min(pt.Y+co.glyph.Radius+Px(2), c.Max.Y-h)
		for tries := 0; tries < 12; tries++ {
			r := vg.Rectangle{Min: vg.Point{X: x, Y: y}, Max: vg.Point{X: x + w, Y: y + h}}
			if !slices.ContainsFunc(boxes, func(b vg.Rectangle) bool { return overlaps(b, r) }) {
				break
			}
			y -= h
		}
		r := vg.Rectangle{Min: vg.Point{X: x, Y: y}, Max: vg.Point{X: x + w, Y: y + h}}
		boxes = append(boxes, r)
		c.FillPolygon(color.NRGBA{0xFF, 0xFF, 0xFF, 0xE6}, []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}})
		c.StrokeLines(draw.LineStyle{Color: co.glyph.Color, Width: Px(1)}, []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}, r.Min})
		sty.Color = darker(co.glyph.Color)
		sty.XAlign, sty.YAlign = draw.XLeft, draw.YBottom
		c.FillText(sty, vg.Point{X: x + Px(3), Y: y + Px(2)}, co.label)
	}
}

// inside says whether (x, y) lies within p's axes: a panel that zooms in
// draws only what it holds.
func inside(p *plot.Plot, x, y float64) bool {
	return x >= p.X.Min && x <= p.X.Max && y >= p.Y.Min && y <= p.Y.Max
}

func overlaps(a, b vg.Rectangle) bool {
	return a.Min.X < b.Max.X && b.Min.X < a.Max.X && a.Min.Y < b.Max.Y && b.Min.Y < a.Max.Y
}

// glyphThumb is a glyph as a legend thumbnail.
type glyphThumb draw.GlyphStyle

func (g glyphThumb) Thumbnail(c *draw.Canvas) { c.DrawGlyph(draw.GlyphStyle(g), c.Center()) }

// sweepPolicies are the policies of the grid, in the registry's order.
func sweepPolicies(r *sweep.Result) []policy.Name {
	seen := map[policy.Name]int{}
	for i := range r.Configs {
		seen[r.Configs[i].Policy.Name]++
	}
	var out []policy.Name
	for _, n := range policy.Names() {
		if seen[n] > 0 {
			out = append(out, n)
		}
	}
	for n := range seen { // none outside the registry, but say so if there were
		if _, ok := policy.Lookup(n); !ok {
			out = append(out, n)
		}
	}
	return out
}

func pctOf(v float64) float64 { return 100 * v }

// TradeOff draws every config of a sweep by its false-termination rate and
// the turns it saves: the faint cloud of the grid, the Pareto front solid
// with the line of the most turns saved at each rate, one colour a policy,
// configs censored beyond the limit hollow, the target rate, the current
// setting, the answer and (when the system cannot run it) the best config
// overall, each marked and named.
func TradeOff(r *sweep.Result) *Chart {
	p := newPlot("false-termination rate (% of episodes)", "turns saved (% of logged turns)")
	p.X.Tick.Marker = intTicks{target: 10}
	p.Y.Tick.Marker = intTicks{target: 8}
	var pts sweepPoints
	var front [][2]float64
	maxX, maxY := pctOf(r.MaxFalseRate), 1.0
	counts := map[policy.Name]int{}
	for i := range r.Configs {
		c := &r.Configs[i]
		pt := sweepPoint{x: pctOf(r.FalseRate(c)), y: pctOf(r.SavedShare(c)), color: PolicyColor(c.Policy.Name),
			front: c.Pareto, censored: r.CensoredShare(c) > r.MaxCensored}
		pts = append(pts, pt)
		if c.Pareto {
			front = append(front, [2]float64{pt.x, pt.y})
		}
		maxX, maxY = max(maxX, pt.x), max(maxY, pt.y)
		counts[c.Policy.Name]++
	}
	stairs := newStaircase(front)
	target := xline{x: pctOf(r.MaxFalseRate), style: draw.LineStyle{Color: targetColor, Width: Px(1.5), Dashes: dashes[1]},
		label: "target ≤ " + pctText(r.MaxFalseRate)}

	var marks callouts
	mk := func(c *sweep.Config, sh shape, radius float64, col color.NRGBA, label string) {
		marks = append(marks, callout{x: pctOf(r.FalseRate(c)), y: pctOf(r.SavedShare(c)),
			glyph: draw.GlyphStyle{Color: col, Radius: Px(radius), Shape: mark{shape: sh, hollow: true}}, label: label})
	}
	var lg legend
	for _, n := range sweepPolicies(r) {
		lg.add(fmt.Sprintf("%s (%s)", n, textout.Count(counts[n], "config")), sweepPoint{color: PolicyColor(n), front: true})
	}
	black := color.NRGBA{A: 0xFF}
	lg.add("a config (faint); on the Pareto front (solid):\nno other saves more turns with no more false\nterminations and no more score forgone",
		sweepPoint{color: otherPolicyColor}, sweepPoint{color: otherPolicyColor, front: true})
	lg.add("the most turns saved at each false-termination\nrate or less (through the front)", stairs)
	lg.add(fmt.Sprintf("hollow: censored in more than %s of the\nepisodes (lengths are lower bounds; not\nrecommended)", pctText(r.MaxCensored)),
		sweepPoint{color: otherPolicyColor, front: true, censored: true})
	lg.add("the target false-termination rate", target)
	now, nowMark := "now (--config, else "+r.System.Name+"'s defaults)", "now: "
	if a := r.Answer; a != nil {
		switch {
		case a.Verdict == sweep.Ship:
			c := &r.Configs[a.Config]
			mk(c, circle, 11, black, "answer: "+c.Policy.String())
			lg.add("the answer: "+c.Policy.String(), glyphThumb(marks[len(marks)-1].glyph))
		case a.Config >= 0:
			c := &r.Configs[a.Config]
			mk(c, circle, 11, black, "leads: "+c.Policy.String())
			lg.add("the change that leads, not shown\nbetter than now: "+c.Policy.String(), glyphThumb(marks[len(marks)-1].glyph))
		}
		switch a.Verdict {
		case sweep.Keep:
			now, nowMark = "now, and the answer: keep it", "now, the answer: "
		case sweep.NoClearWinner:
			now, nowMark = "now, and the answer: no clear winner,\nkeep it until one is clear", "now, the answer: "
		}
		if o := r.BestOverall; o != nil {
			b := &r.Configs[o.Config]
			mk(b, square, 10, PolicyColor(b.Policy.Name), "best overall: "+b.Policy.String())
			lg.add("the best config overall, which "+r.System.Name+"\ncannot run as it is: "+b.Policy.String(), glyphThumb(marks[len(marks)-1].glyph))
		}
	}
	mk(r.Current, diamond, 10, otherPolicyColor, nowMark+r.Current.Policy.String())
	lg.add(now+":\n"+r.Current.Policy.String(), glyphThumb(marks[len(marks)-1].glyph))

	p.X.Min, p.X.Max = 0, math.Min(100, maxX*1.04+1)
	p.Y.Min, p.Y.Max = 0, math.Min(100, maxY*1.08+1)
	p.Add(gridLines{}, target, pts, stairs, marks)
	title := fmt.Sprintf("Turns saved vs false terminations: %s over %s (front: %d)", textout.Count(len(r.Configs), "config"), textout.Count(r.N, "episode"), len(r.Front))

	// Near the target the configs that matter crowd together: a second
	// panel shows that corner, from no false terminations to a few times the
	// target (and past the marked configs), unless no config there saves a
	// turn (the panel would be empty).
	zx := 3 * pctOf(r.MaxFalseRate)
	for _, m := range marks {
		zx = max(zx, m.x*1.25)
	}
	zx = max(zx, 2)
	if zx > 0.6*p.X.Max || !slices.ContainsFunc(pts, func(pt sweepPoint) bool { return pt.x <= zx && pt.y > 0 }) {
		return newChart(Px(1200), max(Px(650), lg.height()+Px(60)), title, lg, p.Draw)
	}
	z := newPlot("false-termination rate (% of episodes)", "turns saved (%)")
	z.X.Tick.Marker = intTicks{target: 10}
	z.Y.Tick.Marker = intTicks{target: 6}
	zy := 1.0
	for _, pt := range pts {
		if pt.x <= zx {
			zy = max(zy, pt.y)
		}
	}
	z.X.Min, z.X.Max = 0, zx
	z.Y.Min, z.Y.Max = 0, math.Min(100, zy*1.12+0.5)
	z.Add(gridLines{}, target, pts, stairs, marks)
	p.Title.Text = "every config"
	z.Title.Text = fmt.Sprintf("near the target: false-termination rate up to %s%%", strconv.FormatFloat(zx, 'f', 0, 64))
	panelTitle(p)
	panelTitle(z)
	return newChart(Px(1200), max(Px(1000), lg.height()+Px(60)), title, lg, drawPanels([]*plot.Plot{p, z}))
}

// pctText is a share as the text renderers write it, 5.0%.
func pctText(v float64) string { return strconv.FormatFloat(100*v, 'f', 1, 64) + "%" }

// viridis is the viridis palette's colour at v in [0, 1]: perceptually
// uniform, readable in greyscale and by people with any common colour-vision
// deficiency. Nine of its stops, interpolated.
func viridis(v float64) color.NRGBA {
	stops := [...][3]float64{{0x44, 0x01, 0x54}, {0x48, 0x28, 0x78}, {0x3e, 0x49, 0x89}, {0x31, 0x68, 0x8e},
		{0x26, 0x82, 0x8e}, {0x1f, 0x9e, 0x89}, {0x35, 0xb7, 0x79}, {0x6e, 0xce, 0x58}, {0xfd, 0xe7, 0x25}}
	if math.IsNaN(v) {
		v = 0
	}
	v = math.Max(0, math.Min(1, v)) * float64(len(stops)-1)
	i := min(int(v), len(stops)-2)
	f := v - float64(i)
	var c [3]uint8
	for k := range c {
		c[k] = uint8(math.Round(stops[i][k]*(1-f) + stops[i+1][k]*f))
	}
	return color.NRGBA{c[0], c[1], c[2], 0xFF}
}

// light says whether text on c should be dark.
func light(c color.NRGBA) bool { return 0.299*float64(c.R)+0.587*float64(c.G)+0.114*float64(c.B) > 140 }

// inkOn is the colour of text and marks on a cell of colour c.
func inkOn(c color.NRGBA) color.NRGBA {
	if light(c) {
		return color.NRGBA{0, 0, 0, 0xFF}
	}
	return color.NRGBA{0xFF, 0xFF, 0xFF, 0xFF}
}

// heatCell is one config of the heat map.
type heatCell struct {
	i, j        int // column (max_turns_stuck) and row (check_interval)
	saved, rate float64
	over        bool // false-termination rate above the target
	censored    bool
	answer      bool
	current     bool
}

type heatCells struct {
	cells  []heatCell
	lo, hi float64 // the colour scale's ends, turns saved in %
}

func (h heatCells) color(saved float64) color.NRGBA {
	if h.hi <= h.lo {
		return viridis(0.5)
	}
	return viridis((saved - h.lo) / (h.hi - h.lo))
}

func (h heatCells) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	rect := func(hc heatCell, inset vg.Length) []vg.Point {
		x0, x1 := trX(float64(hc.i)-0.5)+inset, trX(float64(hc.i)+0.5)-inset
		y0, y1 := trY(float64(hc.j)-0.5)+inset, trY(float64(hc.j)+0.5)-inset
		return []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}, {X: x0, Y: y0}}
	}
	sty := textStyle(8)
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
	for _, hc := range h.cells {
		r := rect(hc, 0)
		fill := h.color(hc.saved)
		c.FillPolygon(fill, r[:4])
		ink := inkOn(fill)
		w, ht := r[1].X-r[0].X, r[2].Y-r[1].Y
		if hc.over {
			// Hatched: diagonal lines every 6 px, clipped to the cell.
			hs := draw.LineStyle{Color: ink, Width: Px(1)}
			hs.Color = color.NRGBA{ink.R, ink.G, ink.B, 0x99}
			step := Px(6)
			for d := vg.Length(0); d < w+ht; d += step {
				// the line x - x0 + (y - y0) = d, from its lower-left end
				a := vg.Point{X: r[0].X + max(0, d-ht), Y: r[0].Y + min(d, ht)}
				b := vg.Point{X: r[0].X + min(d, w), Y: r[0].Y + max(0, d-w)}
				c.StrokeLine2(hs, a.X, a.Y, b.X, b.Y)
			}
		}
		if label := strconv.FormatFloat(hc.saved, 'f', 0, 64); w > sty.Width("100")+Px(4) && ht > sty.Height("0")+Px(4) {
			sty.Color = ink
			mid := vg.Point{X: (r[0].X + r[1].X) / 2, Y: (r[1].Y + r[2].Y) / 2}
			// The cell's own colour behind the number cuts the hatching.
			bw, bh := sty.Width(label)/2+Px(3), sty.Height(label)/2+Px(1)
			c.FillPolygon(fill, []vg.Point{{X: mid.X - bw, Y: mid.Y - bh}, {X: mid.X + bw, Y: mid.Y - bh}, {X: mid.X + bw, Y: mid.Y + bh}, {X: mid.X - bw, Y: mid.Y + bh}})
			c.FillText(sty, mid, label)
		}
	}
	// Rings and outlines last, over the neighbours.
	for _, hc := range h.cells {
		if hc.censored {
			r := rect(hc, 0)
			w, ht := r[1].X-r[0].X, r[2].Y-r[1].Y
			rad := max(Px(2), min(Px(4), min(w, ht)/5))
			c.DrawGlyph(draw.GlyphStyle{Color: inkOn(h.color(hc.saved)), Radius: rad, Shape: draw.RingGlyph{}},
				vg.Point{X: (r[0].X + r[1].X) / 2, Y: r[2].Y - rad - Px(3)})
		}
		if hc.current {
			// Inside the answer's outline when the cell is both.
			inset := Px(2.5)
			if hc.answer {
				inset = Px(5)
			}
			for _, l := range nowOutline {
				c.StrokeLines(l, rect(hc, inset))
			}
		}
		if hc.answer {
			for _, l := range answerOutline {
				c.StrokeLines(l, rect(hc, Px(1)))
			}
		}
	}
}

// The outlines of the answer's cell and now's, each a line over a wider
// white one, so that they stand out on every colour of the scale, hatched
// or not: the answer's solid, now's dashed black and white.
var (
	answerOutline = []draw.LineStyle{{Color: color.White, Width: Px(5)}, {Color: color.Black, Width: Px(2.5)}}
	nowOutline    = []draw.LineStyle{{Color: color.White, Width: Px(4.5)}, {Color: color.Black, Width: Px(2.5), Dashes: []vg.Length{Px(5), Px(4)}}}
)

// swatch is a legend thumbnail: a cell of the heat map.
type swatch struct {
	fill          color.NRGBA
	hatch, circle bool
	outline       []draw.LineStyle
}

func (s swatch) Thumbnail(c *draw.Canvas) {
	r := []vg.Point{c.Min, {X: c.Max.X, Y: c.Min.Y}, c.Max, {X: c.Min.X, Y: c.Max.Y}}
	c.FillPolygon(s.fill, r)
	ink := color.NRGBA{0xFF, 0xFF, 0xFF, 0x99}
	if light(s.fill) {
		ink = color.NRGBA{0, 0, 0, 0x99}
	}
	if s.hatch {
		w, ht := c.Max.X-c.Min.X, c.Max.Y-c.Min.Y
		for d := vg.Length(0); d < w+ht; d += Px(6) {
			c.StrokeLine2(draw.LineStyle{Color: ink, Width: Px(1)}, c.Min.X+max(0, d-ht), c.Min.Y+min(d, ht), c.Min.X+min(d, w), c.Min.Y+max(0, d-w))
		}
	}
	if s.circle {
		c.DrawGlyph(draw.GlyphStyle{Color: inkOn(s.fill), Radius: Px(3), Shape: draw.RingGlyph{}}, c.Center())
	}
	for _, l := range s.outline {
		c.StrokeLines(l, append(r, r[0]))
	}
}

// HeatMap draws, for the policy of the answer's choice (the current one when
// there is no answer) with its other settings, the turns saved of every
// max_turns_stuck × check_interval of the grid: a viridis colour a cell, the
// share written in where it fits, cells whose false-termination rate exceeds
// the target hatched, those censored beyond the limit ringed, the
// answer's cell outlined. With fewer than two such configs there is no heat
// map, and whyNot says why, in words for the user.
func HeatMap(r *sweep.Result) (ch *Chart, whyNot string) {
	ref := r.Current.Policy
	what := "the current setting's policy"
	if a := r.Answer; a != nil && a.Config >= 0 {
		ref = r.Configs[a.Config].Policy
		what = "the policy of the change that leads"
		if a.Verdict == sweep.Ship {
			what = "the answer's policy"
		}
	}
	key := func(p policy.Policy) policy.Policy {
		return p.With(policy.MaxTurnsStuck, 0).With(policy.CheckInterval, 0)
	}
	var idx []int
	xsSet, ysSet := map[int]bool{}, map[int]bool{}
	for i := range r.Configs {
		if p := r.Configs[i].Policy; key(p) == key(ref) {
			idx = append(idx, i)
			xsSet[p.MaxTurnsStuck()], ysSet[p.CheckInterval()] = true, true
		}
	}
	if len(idx) < 2 {
		return nil, noHeatMap(r, len(idx))
	}
	xs, ys := sortedKeys(xsSet), sortedKeys(ysSet)
	h := heatCells{lo: math.Inf(1), hi: math.Inf(-1)}
	for _, i := range idx {
		c := &r.Configs[i]
		hc := heatCell{i: slices.Index(xs, c.Policy.MaxTurnsStuck()), j: slices.Index(ys, c.Policy.CheckInterval()),
			saved: pctOf(r.SavedShare(c)), rate: r.FalseRate(c)}
		hc.over = hc.rate > r.MaxFalseRate+1e-12
		hc.censored = r.CensoredShare(c) > r.MaxCensored
		hc.answer = r.Answer != nil && i == r.Answer.Config
		hc.current = c.Policy == r.Current.Policy
		h.cells = append(h.cells, hc)
		h.lo, h.hi = min(h.lo, hc.saved), max(h.hi, hc.saved)
	}
	p := newPlot("max_turns_stuck", "check_interval")
	p.X.Tick.Marker = categoryTicks(xs, 30)
	p.Y.Tick.Marker = categoryTicks(ys, 25)
	p.X.Min, p.X.Max = -0.5, float64(len(xs))-0.5
	p.Y.Min, p.Y.Max = -0.5, float64(len(ys))-0.5
	p.X.Padding, p.Y.Padding = 0, 0
	p.Add(h)

	var lg legend
	lg.add("turns saved, % of logged turns\n(written in the cell where it fits):")
	const keys = 6
	for k := range keys {
		v := h.lo + (h.hi-h.lo)*float64(keys-1-k)/float64(keys-1)
		lg.add(strconv.FormatFloat(v, 'f', 1, 64)+"%", swatch{fill: h.color(v)})
	}
	mid := h.color((h.lo + h.hi) / 2)
	lg.add("hatched: false-termination rate above the\ntarget "+pctText(r.MaxFalseRate), swatch{fill: mid, hatch: true})
	lg.add(fmt.Sprintf("ringed: censored in more than %s of the\nepisodes (a lower bound; not recommended)", pctText(r.MaxCensored)), swatch{fill: mid, circle: true})
	if a := r.Answer; a != nil && a.Config >= 0 {
		lg.add("outlined: the config "+r.System.Name+" runs that leads,\n"+r.Configs[a.Config].Policy.String(),
			swatch{fill: mid, outline: answerOutline})
	}
	if key(r.Current.Policy) == key(ref) {
		lg.add("dashed: now, "+r.Current.Policy.String(),
			swatch{fill: mid, outline: nowOutline})
	}
	title := fmt.Sprintf("Turns saved by max_turns_stuck × check_interval: %s (%s, n = %d)", trimSetting(ref), what, r.N)
	return newChart(Px(1200), max(Px(600), lg.height()+Px(60)), title, lg, p.Draw), ""
}

// noHeatMap says why there is no heat map when the grid has n configs (0 or
// 1) of the policy it would draw: the answer's, or, without an answer, the
// current setting's.
func noHeatMap(r *sweep.Result, n int) string {
	settings := "no max_turns_stuck × check_interval"
	if n == 1 {
		settings = "only one max_turns_stuck × check_interval"
	}
	a := r.Answer
	if a == nil || a.Config < 0 {
		why := "there is no answer"
		if a != nil {
			why = "no change leads"
		}
		return fmt.Sprintf("%s to draw it for, and the grid has %s of the current setting's policy, %s, to draw instead",
			why, settings, trimSetting(r.Current.Policy))
	}
	whose := "the answer's policy"
	if a.Verdict != sweep.Ship {
		whose = "the policy of the change that leads"
	}
	return fmt.Sprintf("the grid has %s of %s, %s (give --max-turns-stuck or --check-interval more than one value)",
		settings, whose, trimSetting(r.Configs[a.Config].Policy))
}

// trimSetting is a policy's name and the settings other than the two of the
// heat map's axes ("score-or-objective", "patience obj 20 room 30").
func trimSetting(p policy.Policy) string {
	s := p.String()
	head := fmt.Sprintf("%s %d/%d", p.Name, p.MaxTurnsStuck(), p.CheckInterval())
	if len(s) >= len(head) && s[:len(head)] == head {
		rest := s[len(head):]
		if len(rest) > 0 && rest[0] == '/' { // a warning threshold
			return string(p.Name) + " warning " + rest[1:]
		}
		return string(p.Name) + rest
	}
	return s
}

func sortedKeys(m map[int]bool) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// categoryTicks labels the cells 0..len(vals)-1 with their values, every
// k-th one when there are more than max.
func categoryTicks(vals []int, max int) plot.ConstantTicks {
	k := (len(vals) + max - 1) / max
	var t plot.ConstantTicks
	for i, v := range vals {
		if i%k == 0 {
			t = append(t, plot.Tick{Value: float64(i), Label: strconv.Itoa(v)})
		}
	}
	return t
}
