package charts

import (
	"fmt"
	"image/color"
	"strconv"

	"gonum.org/v1/plot"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/patterns"
	"github.com/lbanalyze/lbanalyze/internal/textout"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/report"
)

// The timeline's size: readable on a screen at 1200×600 px and on paper.
var timelineWidth, timelineHeight = Px(1200), Px(600)

// maxObjectivesListed is how many objective texts the legend lists.
const maxObjectivesListed = 5

// MaxResultsDrawn bounds the results a timeline draws: a grid of thousands
// of settings would otherwise make a legend (and a PNG) hundreds of
// thousands of pixels high. The legend says how many were left out.
const MaxResultsDrawn = 24

// Timeline draws the score of an analysed episode over its turns: a step line,
// objective completions and deaths as markers, the stretches where the first
// result's countdown warning shows shaded, each result's termination turn as
// a labelled line in its policy's colour, and the end of the log.
func Timeline(e *report.Episode) *Chart {
	ep := e.Ep
	n := ep.N()
	p := newPlot("turn", "score")
	p.X.Tick.Marker = intTicks{target: 12}
	p.Y.Tick.Marker = intTicks{target: 6}
	if !ep.WholeScores() { // a normalised score, summed rewards: decimals
		p.Y.Tick.Marker = plot.DefaultTicks{}
	}
	var lg legend

	// The score after turn t is drawn at t and holds until the next change: a
	// step line from turn 0 (score 0) through every change to the last turn.
	pts := plotter.XYs{{X: 0, Y: 0}}
	var lo, hi episode.Score
	for t := 1; t <= n; t++ {
		s := ep.Score(t)
		lo, hi = min(lo, s), max(hi, s)
		if s != ep.Score(t-1) {
			pts = append(pts, plotter.XY{X: float64(t), Y: float64(ep.Score(t - 1))}, plotter.XY{X: float64(t), Y: float64(s)})
		}
	}
	pts = append(pts, plotter.XY{X: float64(n), Y: float64(ep.Score(n))})
	score, _ := plotter.NewLine(pts)
	score.LineStyle = draw.LineStyle{Color: scoreColor, Width: Px(2.5)}
	lg.add("score after each turn", score)

	drawn := e.First(MaxResultsDrawn)
	var warn shade
	if len(drawn) > 0 {
		warn = warningStretches(ep, drawn[0].Policy)
	}

	deaths := make(plotter.XYs, len(ep.Deaths))
	deathAt := map[int]bool{}
	for i, d := range ep.Deaths {
		deaths[i] = plotter.XY{X: float64(d.Turn), Y: float64(ep.Score(d.Turn))}
		deathAt[d.Turn] = true
	}
	deathScatter, _ := plotter.NewScatter(deaths)
	deathScatter.GlyphStyle = draw.GlyphStyle{Color: deathColor, Radius: Px(7), Shape: mark{shape: cross}}

	// Objectives: numbered as the legend lists them; one completed on a death
	// turn sits above the death's cross, so that both show.
	objs := objectiveMarks{style: draw.GlyphStyle{Color: objectiveColor, Radius: Px(6), Shape: mark{shape: triangle, outline: scoreColor}}}
	for _, c := range ep.Objectives {
		objs.pts = append(objs.pts, objectiveMark{x: float64(c.Turn), y: float64(ep.Score(c.Turn)), lifted: deathAt[c.Turn]})
	}
	if len(ep.Objectives) > 0 {
		lg.add(objectivesText(ep), objs)
	}
	if len(ep.Deaths) > 0 {
		lg.add(deathsText(ep), deathScatter)
	}

	// Oscillation and camping as light strips along the bottom, revisit
	// penalties as ticks below them: beneath the score line, apart from the
	// warning's shading.
	tracks := patternTracks(ep)
	for _, tr := range tracks {
		if len(tr.stretches) > 0 {
			lg.add(tr.legend, tr)
		}
	}
	if len(warn.stretches) > 0 {
		o := &drawn[0]
		lg.add(fmt.Sprintf("countdown warning shown (%s:\n%d or more turns stuck)", o.Policy, o.Policy.WarningFrom()), warn)
	}

	var lines vlines
	for i := range drawn {
		o := &drawn[i]
		v := &vline{x: float64(o.TerminationTurn), style: resultStyle(o.Policy, i), cap: true}
		switch {
		case o.Terminated():
			v.label = fmt.Sprintf("%s stops at %d", o.Policy, o.TerminationTurn)
			lines = append(lines, v)
		case o.Censored:
			// No stop within the log, which the recording cut first: an arrow
			// past the end says the stop, if any, lies beyond.
			v.x, v.censored = float64(n), true
			v.label = fmt.Sprintf("%s: censored", o.Policy)
			lines = append(lines, v)
		}
		lg.add(outcomeText(o), v)
	}
	if left := e.Results() - len(drawn); left > 0 {
		lg.add(fmt.Sprintf("… and %d more results, not drawn (a timeline draws at most %d; the tables list them all)", left, MaxResultsDrawn))
	}
	// Thin and solid: unlike any result's line, in colour or in grey.
	end := &vline{x: float64(n), style: draw.LineStyle{Color: endColor, Width: Px(1.2)},
		label: endLabel(ep)}
	lg.add(endLegend(ep), end)
	lines = append(lines, end)
	spreadCoincident(lines)

	// The labels are packed into rows before drawing, so that the y axis can
	// leave room above the highest score for them; the data area's size is
	// known up to a few pixels (the axes' and title's), enough for that.
	xMax := float64(n) + max(1, float64(n)/40)
	dataWidth := float64(timelineWidth)/float64(Px(1)) - legendWidth - 90 // px
	rows := packLabels(lines, dataWidth/xMax, xMax)
	plotHeight := float64(timelineHeight)/float64(Px(1)) - 110 // px
	labelsHeight := float64(rows) * float64(labelRowHeight()) / float64(Px(1))
	top, bottom := labelsHeight+6, 8.0 // px kept free above and below the scores
	for _, tr := range tracks {
		if len(tr.stretches) > 0 {
			bottom = max(bottom, float64(tr.row+1)*trackPitch+4)
		}
	}
	span := float64(hi - lo)
	if span == 0 {
		span = 1
	}
	top += markerRoom(objs, float64(hi), span)
	unit := span / (plotHeight - top - bottom) // score a pixel
	p.X.Min, p.X.Max = 0, xMax
	p.Y.Min = float64(lo) - bottom*unit
	p.Y.Max = float64(hi) + top*unit
	if hi == lo {
		p.Y.Max = float64(lo) + span + top*unit
	}

	p.Add(gridLines{})
	if len(warn.stretches) > 0 {
		p.Add(warn)
	}
	for _, tr := range tracks {
		if len(tr.stretches) > 0 {
			p.Add(tr)
		}
	}
	p.Add(score, lines, deathScatter, objs)

	title := fmt.Sprintf("%s — final score %s — %s", printable(ep.Name(), 72), ep.FinalScore(), endWords(ep))
	// A long legend (a grid of settings) makes the chart taller, not cut.
	height := max(timelineHeight, lg.height()+Px(60))
	return newChart(timelineWidth, height, title, lg, p.Draw)
}

// markerRoom is the room, in px, that objective markers at or near the
// highest score take above it — the triangle, lifted over a death's cross,
// and its number — so that the stop lines' labels, in rows above the scores,
// stay clear of them.
func markerRoom(o objectiveMarks, hi, span float64) float64 {
	room := 0.0
	for _, m := range o.pts {
		if hi-m.y <= span/10 {
			h := 6*1.3 + 1 + 12.0 // the triangle's top and a row of numbers (objectiveMarks.Plot)
			if m.lifted {
				h += 16
			}
			room = max(room, h)
		}
	}
	return room
}

// warningStretches are the turns at whose start the countdown warning of p is
// in the agent's prompt (policy.Step.Warned: the stuck timer at or above the
// warning threshold), merged into stretches from the first such turn to the
// last, up to p's stop.
func warningStretches(ep *episode.Episode, p policy.Policy) shade {
	s := shade{color: warningColor}
	replay.Trace(ep, p, func(st policy.Step) {
		if !st.Warned {
			return
		}
		t := float64(st.Turn)
		if k := len(s.stretches); k > 0 && s.stretches[k-1][1] == t-1 {
			s.stretches[k-1][1] = t
			return
		}
		s.stretches = append(s.stretches, [2]float64{t, t})
	})
	for i, st := range s.stretches {
		if st[0] == st[1] { // one turn: give it a width that shows
			s.stretches[i] = [2]float64{st[0] - 0.5, st[1] + 0.5}
		}
	}
	return s
}

// resultStyle is the line of the k-th result of a chart: its policy's colour,
// the k-th dash.
func resultStyle(p policy.Policy, k int) draw.LineStyle {
	return draw.LineStyle{Color: PolicyColor(p.Name), Width: Px(2.5), Dashes: dashes[k%len(dashes)]}
}

// spreadCoincident moves lines at the same turn apart by a few pixels, so
// that every colour shows.
func spreadCoincident(vs vlines) {
	at := map[float64][]*vline{}
	for _, v := range vs {
		at[v.x] = append(at[v.x], v)
	}
	for _, same := range at {
		for k, v := range same {
			v.offset = Px(5) * (vg.Length(k) - vg.Length(len(same)-1)/2)
		}
	}
}

// objectivesText is the legend entry of the objective markers: how many,
// and the first few with their turns.
func objectivesText(ep *episode.Episode) string {
	s := fmt.Sprintf("objective completed (%d), numbered in order\n(number · turn: objective)", len(ep.Objectives))
	for i, c := range ep.Objectives {
		if i == maxObjectivesListed {
			if left := len(ep.Objectives) - i; left == 1 {
				s += fmt.Sprintf("\n… and 1 more (%d)", i+1)
			} else {
				s += fmt.Sprintf("\n… and %d more (%d–%d)", left, i+1, len(ep.Objectives))
			}
			break
		}
		s += fmt.Sprintf("\n%d · %d: %s", i+1, c.Turn, printable(c.Objective, 40))
	}
	return s
}

func deathsText(ep *episode.Episode) string {
	if len(ep.Deaths) == 1 {
		return fmt.Sprintf("death / game over (turn %d)", ep.Deaths[0].Turn)
	}
	return fmt.Sprintf("death / game over (%d)", len(ep.Deaths))
}

// outcomeText says what a result does, for the legend.
func outcomeText(o *replay.Outcome) string {
	switch {
	case o.Censored:
		return fmt.Sprintf("%s: no stop within the log (censored: the log is cut, by the recording's own stop or a kill, before it would stop)", o.Policy)
	case !o.Terminated():
		return fmt.Sprintf("%s: no stop", o.Policy)
	}
	s := fmt.Sprintf("%s: stops at %d,\nsaves %s", o.Policy, o.TerminationTurn, textout.Count(o.TurnsSaved, "turn"))
	if o.ScoreForgone > 0 {
		s += fmt.Sprintf(", forgoes %s points", o.ScoreForgone)
	}
	switch {
	case o.FalseTerminationCandidate():
		return s + " — premature?"
	case o.Unknown():
		return s + " — unknown (the log is cut too soon after to judge)"
	}
	return s + " — truly stuck"
}

// endWords says in a few words how the log ends.
func endWords(ep *episode.Episode) string {
	switch ep.End.Reason {
	case episode.EndMaxTurns:
		return "ended at max turns"
	case episode.EndGameOver:
		return "ended in game over"
	case episode.EndStuckTermination:
		return "cut by the recording's loop break"
	case episode.EndException:
		return "ended in an exception"
	case episode.EndInterrupted:
		return "interrupted"
	}
	return "no end event (truncated log)"
}

// endLegend is the legend entry of the end of the log.
func endLegend(ep *episode.Episode) string {
	return fmt.Sprintf("end of log, turn %d:\n%s", ep.N(), endWords(ep))
}

// endLabel is the label of the end of the log on its line.
func endLabel(ep *episode.Episode) string {
	if ep.End.Reason == episode.EndStuckTermination {
		return fmt.Sprintf("recorded loop break %d", ep.N())
	}
	return fmt.Sprintf("end %d", ep.N())
}

// objectiveMark is one objective completion on the timeline.
type objectiveMark struct {
	x, y   float64
	lifted bool // a death on the same turn: drawn above its cross
}

// objectiveMarks draws the objective triangles, each with its number (its
// place in the legend's list) above it; numbers that would overlap stack in
// rows, and beyond maxNumberRows go unnumbered.
type objectiveMarks struct {
	pts   []objectiveMark
	style draw.GlyphStyle
}

const maxNumberRows = 3

func (o objectiveMarks) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	sty := boldStyle(8)
	sty.Color = darker(objectiveColor)
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YBottom
	var rowEnds [maxNumberRows]vg.Length
	for i := range rowEnds {
		rowEnds[i] = c.Min.X - 1000
	}
	for k, m := range o.pts {
		pt := vg.Point{X: trX(m.x), Y: trY(m.y)}
		if m.lifted {
			pt.Y += Px(16)
		}
		c.DrawGlyph(o.style, pt)
		label := strconv.Itoa(k + 1)
		w := sty.Width(label)
		for row := range rowEnds {
			if pt.X-w/2 > rowEnds[row]+Px(2) {
				rowEnds[row] = pt.X + w/2
				y := pt.Y + o.style.Radius*1.3 + Px(1) + vg.Length(row)*sty.Height(label)
				// A white box keeps the number readable over a line.
				h := sty.Height(label)
				c.FillPolygon(color.NRGBA{0xFF, 0xFF, 0xFF, 0xCC}, []vg.Point{{X: pt.X - w/2 - Px(1), Y: y}, {X: pt.X + w/2 + Px(1), Y: y},
					{X: pt.X + w/2 + Px(1), Y: y + h - Px(2)}, {X: pt.X - w/2 - Px(1), Y: y + h - Px(2)}})
				c.FillText(sty, vg.Point{X: pt.X, Y: y}, label)
				break
			}
		}
	}
}

func (o objectiveMarks) Thumbnail(c *draw.Canvas) { c.DrawGlyph(o.style, c.Center()) }

// The pattern strips: one row each along the bottom of the plot.
const (
	trackHeight = 9  // px
	trackPitch  = 12 // px from one row to the next
)

var (
	oscillationColor = color.NRGBA{0x56, 0xB4, 0xE9, 0x99} // sky blue
	campingColor     = color.NRGBA{0xE6, 0x9F, 0x00, 0x99} // orange
	penaltyColor     = color.NRGBA{0x88, 0x22, 0x55, 0xFF}
)

// track is one pattern's turns as a strip along the bottom of the plot (row
// 0 the lowest); ticks draws each turn as a short line rather than a band.
type track struct {
	row       int
	stretches [][2]float64
	color     color.NRGBA
	ticks     bool
	legend    string
}

func (tr track) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	y0 := c.Min.Y + Px(2) + vg.Length(tr.row)*Px(trackPitch)
	y1 := y0 + Px(trackHeight)
	if tr.ticks { // one path for all: an episode may have hundreds
		var path vg.Path
		for _, st := range tr.stretches {
			for t := st[0]; t <= st[1]; t++ {
				x := trX(t)
				if x >= c.Min.X && x <= c.Max.X {
					path.Move(vg.Point{X: x, Y: y0})
					path.Line(vg.Point{X: x, Y: y1})
				}
			}
		}
		c.SetLineStyle(draw.LineStyle{Color: tr.color, Width: Px(1.5)})
		c.Stroke(path)
		return
	}
	for _, st := range tr.stretches {
		x0, x1 := trX(st[0]-0.5), trX(st[1]+0.5)
		c.FillPolygon(tr.color, c.ClipPolygonX([]vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}))
	}
}

func (tr track) Thumbnail(c *draw.Canvas) {
	mid := c.Center().Y
	y0, y1 := mid-Px(trackHeight)/2, mid+Px(trackHeight)/2
	if tr.ticks {
		for x := c.Min.X + Px(3); x < c.Max.X; x += Px(6) {
			c.StrokeLine2(draw.LineStyle{Color: tr.color, Width: Px(1.5)}, x, y0, x, y1)
		}
		return
	}
	c.FillPolygon(tr.color, []vg.Point{{X: c.Min.X, Y: y0}, {X: c.Max.X, Y: y0}, {X: c.Max.X, Y: y1}, {X: c.Min.X, Y: y1}})
}

// patternTracks are the strips of oscillation, camping and revisit
// penalties found by the patterns package in ep (patterns.Analysis.Spans).
func patternTracks(ep *episode.Episode) []track {
	tracks := []track{
		{row: 2, color: oscillationColor, legend: "oscillation between rooms (strip)"},
		{row: 1, color: campingColor, legend: "camping in few rooms (strip)"},
		{row: 0, color: penaltyColor, ticks: true, legend: "revisit penalty applied (tick)"},
	}
	which := map[string]int{"oscillation": 0, "camping": 1, "revisit_penalty": 2}
	for _, sp := range patterns.Analyse(ep, patterns.DefaultOptions()).Spans() {
		if k, ok := which[sp.Pattern]; ok {
			tracks[k].stretches = append(tracks[k].stretches, [2]float64{float64(sp.Start), float64(sp.End)})
		}
	}
	// Rows are packed from the bottom: only the patterns present take one.
	row := 0
	for k := len(tracks) - 1; k >= 0; k-- {
		if len(tracks[k].stretches) > 0 {
			tracks[k].row = row
			row++
		}
	}
	return tracks
}
