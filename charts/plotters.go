package charts

import (
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The plotters gonum/plot lacks: shaded stretches of turns, vertical lines
// with labels that do not overlap, and a legend drawn beside the plot (the
// plot's own legend would sit on the data).

// shade fills the turn stretches [from, to] across the whole height.
type shade struct {
	stretches [][2]float64
	color     color.Color
}

func (s shade) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	for _, st := range s.stretches {
		x0, x1 := trX(st[0]), trX(st[1])
		c.FillPolygon(s.color, c.ClipPolygonX([]vg.Point{{X: x0, Y: c.Min.Y}, {X: x1, Y: c.Min.Y}, {X: x1, Y: c.Max.Y}, {X: x0, Y: c.Max.Y}}))
	}
}

func (s shade) Thumbnail(c *draw.Canvas) {
	c.FillPolygon(s.color, []vg.Point{c.Min, {X: c.Max.X, Y: c.Min.Y}, c.Max, {X: c.Min.X, Y: c.Max.Y}})
}

// vline is a vertical line at turn x with a label near the top.
type vline struct {
	x     float64
	style draw.LineStyle
	label string
	// row is the label's row from the top (0 the highest), set by packLabels.
	row int
	// left puts the label left of the line (near the right edge).
	left bool
	// offset moves the line sideways so that lines at the same turn stay
	// visible side by side.
	offset vg.Length
	// cap puts a small triangle of the line's colour at its top, which tells
	// lines at the same turn apart where they touch.
	cap bool
	// censored draws no line: an arrow pointing right from x at the label's
	// height, the stop lying beyond the log.
	censored bool
}

func (v *vline) Thumbnail(c *draw.Canvas) {
	y := (c.Min.Y + c.Max.Y) / 2
	if v.censored {
		arrow(c, v.style.Color, c.Min.X+Px(4), c.Max.X-Px(2), y)
		return
	}
	c.StrokeLine2(v.style, c.Min.X, y, c.Max.X, y)
}

// arrow draws a right-pointing arrow from x0 to x1 at y.
func arrow(c *draw.Canvas, col color.Color, x0, x1, y vg.Length) {
	ls := draw.LineStyle{Color: col, Width: Px(2.5)}
	c.StrokeLine2(ls, x0, y, x1, y)
	c.StrokeLines(ls, []vg.Point{{X: x1 - Px(6), Y: y + Px(5)}, {X: x1, Y: y}, {X: x1 - Px(6), Y: y - Px(5)}})
}

// vlines draws the lines, then their labels over everything drawn before.
type vlines []*vline

const labelSize = 9

func labelRowHeight() vg.Length { return textStyle(labelSize).Height("0") + Px(3) }

func (vs vlines) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	rowH := labelRowHeight()
	for _, v := range vs {
		x := trX(v.x) + v.offset
		if v.censored {
			y := c.Max.Y - Px(2) - vg.Length(v.row)*rowH - rowH/2 + Px(1)
			arrow(&c, v.style.Color, x, x+Px(16), y)
			continue
		}
		c.StrokeLine2(v.style, x, c.Min.Y, x, c.Max.Y)
		if v.cap {
			r := Px(4.5)
			c.FillPolygon(v.style.Color, []vg.Point{{X: x - r, Y: c.Max.Y}, {X: x + r, Y: c.Max.Y}, {X: x, Y: c.Max.Y - 1.6*r}})
		}
	}
	sty := textStyle(labelSize)
	sty.YAlign = draw.YTop
	for _, v := range vs {
		if v.label == "" {
			continue
		}
		sty.Color = darker(v.style.Color)
		w := sty.Width(v.label)
		x := trX(v.x) + v.offset + Px(3)
		sty.XAlign = draw.XLeft
		if v.left {
			x -= 2 * Px(3)
			sty.XAlign = draw.XRight
		}
		y := c.Max.Y - Px(2) - vg.Length(v.row)*rowH
		// A white box behind the label keeps it readable over the score line.
		bx := x
		if v.left {
			bx = x - w
		}
		c.FillPolygon(color.NRGBA{0xFF, 0xFF, 0xFF, 0xDD}, []vg.Point{
			{X: bx - Px(1), Y: y + Px(1)}, {X: bx + w + Px(1), Y: y + Px(1)},
			{X: bx + w + Px(1), Y: y - rowH + Px(2)}, {X: bx - Px(1), Y: y - rowH + Px(2)}})
		c.FillText(sty, vg.Point{X: x, Y: y}, v.label)
	}
}

// maxLabelRows bounds the rows of line labels: with more lines than that
// (a grid of settings), the legend alone names them.
const maxLabelRows = 6

// packLabels gives each label the highest row where it does not overlap a
// label already placed, its width measured at pxPerTurn pixels a turn, and
// returns the number of rows used. A label that would run past xMax goes to
// the left of its line; one that finds no room is dropped.
func packLabels(vs vlines, pxPerTurn, xMax float64) int {
	sty := textStyle(labelSize)
	type span struct{ lo, hi float64 }
	var rows [][]span
	for _, v := range vs {
		if v.label == "" {
			continue
		}
		w := float64(sty.Width(v.label)+Px(8)) / float64(Px(1)) / pxPerTurn // in turns
		s := span{v.x, v.x + w}
		if s.hi > xMax || v.censored {
			v.left = true
			s = span{v.x - w, v.x}
		}
		v.row = len(rows)
		for r, placed := range rows {
			free := true
			for _, o := range placed {
				if s.lo < o.hi && o.lo < s.hi {
					free = false
					break
				}
			}
			if free {
				v.row = r
				break
			}
		}
		if v.row == maxLabelRows {
			v.label = ""
			continue
		}
		if v.row == len(rows) {
			rows = append(rows, nil)
		}
		rows[v.row] = append(rows[v.row], s)
	}
	return len(rows)
}

// legendEntry is one entry of a legend: its thumbnails drawn over each
// other, and a text of one or more lines.
type legendEntry struct {
	thumbs []plot.Thumbnailer
	text   string
}

type legend []legendEntry

func (l *legend) add(text string, thumbs ...plot.Thumbnailer) {
	*l = append(*l, legendEntry{thumbs, text})
}

const (
	legendSize = 9
	legendGap  = 7 // px between entries
	// legendWidth is the panel right of a chart's plot that holds its legend.
	legendWidth = 330 // px
	thumbWidth  = 30  // px
	indentWidth = 10  // px: the lines of an entry after its first
)

// legendTextWidth is the room for the text of an entry in the legend panel.
var legendTextWidth = Px(legendWidth - 16 - 6 - thumbWidth - 6 - indentWidth)

// lines are the entry's text lines, each wrapped at word boundaries to fit
// the legend panel.
func (e legendEntry) lines() []string {
	sty := textStyle(legendSize)
	var out []string
	for _, line := range strings.Split(e.text, "\n") {
		words := strings.Fields(line)
		cur := ""
		for _, w := range words {
			if cur != "" && sty.Width(cur+" "+w) > legendTextWidth {
				out = append(out, cur)
				cur = w
				continue
			}
			cur = strings.TrimPrefix(cur+" "+w, " ")
		}
		out = append(out, cur)
	}
	return out
}

// height is the height the legend's entries take.
func (l legend) height() vg.Length {
	lines := 0
	for _, e := range l {
		lines += len(e.lines())
	}
	return vg.Length(lines)*textStyle(legendSize).Height("0") + vg.Length(len(l))*Px(legendGap)
}

// draw draws the entries from the top of c down, the lines of an entry after
// its first indented (SVG viewers would drop leading spaces). The caller
// sizes the chart to hold them (height).
func (l legend) draw(c draw.Canvas) {
	sty := textStyle(legendSize)
	sty.YAlign = draw.YTop
	lineH := sty.Height("0")
	for _, e := range l {
		box := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: c.Min.X, Y: c.Max.Y - lineH + Px(2)}, Max: vg.Point{X: c.Min.X + Px(thumbWidth), Y: c.Max.Y - Px(2)}}}
		for _, t := range e.thumbs {
			t.Thumbnail(&box)
		}
		for i, line := range e.lines() {
			x := c.Min.X + Px(thumbWidth+6)
			if i > 0 {
				x += Px(indentWidth)
			}
			c.FillText(sty, vg.Point{X: x, Y: c.Max.Y}, line)
			c.Max.Y -= lineH
		}
		c.Max.Y -= Px(legendGap)
	}
}

// newChart is a chart of the given size: a white background, the title
// across the top, the plot drawn by drawPlot in the area left of the legend.
func newChart(width, height vg.Length, title string, lg legend, drawPlot func(area draw.Canvas)) *Chart {
	return &Chart{Width: width, Height: height, draw: func(c draw.Canvas) {
		// PNGs would otherwise be transparent.
		c.SetColor(color.White)
		c.Fill(c.Rectangle.Path())
		sty := boldStyle(13)
		sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
		c.FillText(sty, vg.Point{X: c.Center().X, Y: c.Max.Y - Px(8)}, title)
		c = draw.Crop(c, 0, 0, 0, -(sty.Height(title) + Px(14)))
		drawPlot(draw.Crop(c, Px(6), -Px(legendWidth), Px(4), 0))
		lg.draw(draw.Crop(c, c.Max.X-c.Min.X-Px(legendWidth-16), -Px(6), 0, -Px(10)))
	}}
}

// mark is a glyph thick enough to see at a glance and in print: a shape
// filled with the glyph's colour and outlined, or hollow (white inside, so it
// shows over lines) with a thick edge in the glyph's colour.
type mark struct {
	shape   shape
	hollow  bool
	outline color.Color // the edge of a filled mark; none when nil
}

type shape int

const (
	circle shape = iota
	triangle
	cross
	diamond
	square
)

func (m mark) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius
	if m.shape == cross {
		ls := draw.LineStyle{Color: sty.Color, Width: Px(3)}
		r *= 0.8
		c.StrokeLine2(ls, pt.X-r, pt.Y-r, pt.X+r, pt.Y+r)
		c.StrokeLine2(ls, pt.X-r, pt.Y+r, pt.X+r, pt.Y-r)
		return
	}
	var p vg.Path
	switch m.shape {
	case circle:
		p.Move(vg.Point{X: pt.X + r, Y: pt.Y})
		p.Arc(pt, r, 0, 2*math.Pi)
	case triangle:
		r *= 1.25 // a triangle of the same radius looks smaller than a circle
		p.Move(vg.Point{X: pt.X, Y: pt.Y + r})
		p.Line(vg.Point{X: pt.X - r*0.866, Y: pt.Y - r*0.5})
		p.Line(vg.Point{X: pt.X + r*0.866, Y: pt.Y - r*0.5})
	case diamond:
		r *= 1.2
		p.Move(vg.Point{X: pt.X, Y: pt.Y + r})
		p.Line(vg.Point{X: pt.X - r, Y: pt.Y})
		p.Line(vg.Point{X: pt.X, Y: pt.Y - r})
		p.Line(vg.Point{X: pt.X + r, Y: pt.Y})
	case square:
		r *= 0.9
		p.Move(vg.Point{X: pt.X - r, Y: pt.Y - r})
		p.Line(vg.Point{X: pt.X + r, Y: pt.Y - r})
		p.Line(vg.Point{X: pt.X + r, Y: pt.Y + r})
		p.Line(vg.Point{X: pt.X - r, Y: pt.Y + r})
	}
	p.Close()
	fill, edge, width := sty.Color, m.outline, Px(1)
	if m.hollow {
		fill, edge, width = color.White, sty.Color, Px(2)
	}
	c.SetColor(fill)
	c.Fill(p)
	if edge != nil {
		c.SetLineStyle(draw.LineStyle{Color: edge, Width: width})
		c.Stroke(p)
	}
}
