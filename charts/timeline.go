package charts

import (
	"fmt"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/report"
)

// The timeline's size: readable on a screen at 1200×600 px and on paper.
var timelineWidth, timelineHeight = Px(1200), Px(600)

// maxObjectivesListed is how many objective texts the legend lists.
const maxObjectivesListed = 3

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
	var lg legend

	// The score after turn t is drawn at t and holds until the next change: a
	// step line from turn 0 (score 0) through every change to the last turn.
	pts := plotter.XYs{{X: 0, Y: 0}}
	lo, hi := 0, 0
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

	var warn shade
	if len(e.Outcomes) > 0 {
		warn = warningStretches(ep, e.Outcomes[0].Policy)
	}

	objectives := make(plotter.XYs, len(ep.Objectives))
	for i, c := range ep.Objectives {
		objectives[i] = plotter.XY{X: float64(c.Turn), Y: float64(ep.Score(c.Turn))}
	}
	objScatter, _ := plotter.NewScatter(objectives)
	objScatter.GlyphStyle = draw.GlyphStyle{Color: objectiveColor, Radius: Px(6), Shape: mark{shape: triangle, outline: scoreColor}}
	if len(ep.Objectives) > 0 {
		lg.add(objectivesText(ep), objScatter)
	}

	deaths := make(plotter.XYs, len(ep.Deaths))
	for i, d := range ep.Deaths {
		deaths[i] = plotter.XY{X: float64(d.Turn), Y: float64(ep.Score(d.Turn))}
	}
	deathScatter, _ := plotter.NewScatter(deaths)
	deathScatter.GlyphStyle = draw.GlyphStyle{Color: deathColor, Radius: Px(7), Shape: mark{shape: cross}}
	if len(ep.Deaths) > 0 {
		lg.add(deathsText(ep), deathScatter)
	}
	if len(warn.stretches) > 0 {
		o := &e.Outcomes[0]
		lg.add(fmt.Sprintf("countdown warning shown (%s:\n%d or more turns stuck)", o.Policy, o.Policy.WarningThreshold), warn)
	}

	var lines vlines
	for i := range e.Outcomes {
		o := &e.Outcomes[i]
		v := &vline{x: float64(o.TerminationTurn), style: resultStyle(o.Policy, i)}
		lg.add(outcomeText(o), v)
		if o.Terminated() {
			v.label = fmt.Sprintf("%s stops at %d", o.Policy, o.TerminationTurn)
			lines = append(lines, v)
		}
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
	span := float64(max(hi-lo, 1))
	p.X.Min, p.X.Max = 0, xMax
	p.Y.Min = float64(lo) - span*0.02 // the lowest score off the axis line
	p.Y.Max = float64(lo) + span + span*(labelsHeight+6)/(plotHeight-labelsHeight-6)

	p.Add(gridLines{})
	if len(warn.stretches) > 0 {
		p.Add(warn)
	}
	p.Add(score, lines, objScatter, deathScatter)

	title := fmt.Sprintf("%s — final score %d — %s", printable(ep.Name(), 72), ep.FinalScore(), endWords(ep))
	// A long legend (a grid of settings) makes the chart taller, not cut.
	height := max(timelineHeight, lg.height()+Px(60))
	return newChart(timelineWidth, height, title, lg, p.Draw)
}

// warningStretches are the turns at whose start the countdown warning of p is
// in the agent's prompt (policy.Step.Warned: the stuck timer at or above the
// warning threshold), merged into stretches from the first such turn to the
// last, up to p's stop.
func warningStretches(ep *replay.Episode, p policy.Policy) shade {
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
			v.offset = Px(3.5) * (vg.Length(k) - vg.Length(len(same)-1)/2)
		}
	}
}

// objectivesText is the legend entry of the objective markers: how many,
// and the first few with their turns.
func objectivesText(ep *replay.Episode) string {
	s := fmt.Sprintf("objective completed (%d)", len(ep.Objectives))
	for i, c := range ep.Objectives {
		if i == maxObjectivesListed {
			s += fmt.Sprintf("\n… and %d more", len(ep.Objectives)-i)
			break
		}
		s += fmt.Sprintf("\n%d: %s", c.Turn, printable(c.Objective, 40))
	}
	return s
}

func deathsText(ep *replay.Episode) string {
	if len(ep.Deaths) == 1 {
		return fmt.Sprintf("death / game over (turn %d)", ep.Deaths[0].Turn)
	}
	return fmt.Sprintf("death / game over (%d)", len(ep.Deaths))
}

// outcomeText says what a result does, for the legend.
func outcomeText(o *replay.Outcome) string {
	switch {
	case o.Censored:
		return fmt.Sprintf("%s: no stop within the log (censored: the recording's own loop break stopped it first)", o.Policy)
	case !o.Terminated():
		return fmt.Sprintf("%s: no stop", o.Policy)
	}
	s := fmt.Sprintf("%s: stops at %d,\nsaves %d turns", o.Policy, o.TerminationTurn, o.TurnsSaved)
	if o.ScoreForgone > 0 {
		s += fmt.Sprintf(", forgoes %d points", o.ScoreForgone)
	}
	if o.FalseTerminationCandidate() {
		return s + " — premature?"
	}
	return s + " — truly stuck"
}

// endText1 says in a few words how the log ends.
func endWords(ep *replay.Episode) string {
	switch ep.End.Reason {
	case replay.EndMaxTurns:
		return "ended at max turns"
	case replay.EndGameOver:
		return "ended in game over"
	case replay.EndStuckTermination:
		return "cut by the recording's loop break"
	case replay.EndException:
		return "ended in an exception"
	case replay.EndInterrupted:
		return "interrupted"
	}
	return "no end event (truncated log)"
}

// endLegend is the legend entry of the end of the log.
func endLegend(ep *replay.Episode) string {
	return fmt.Sprintf("end of log, turn %d:\n%s", ep.N(), endWords(ep))
}

// endLabel is the label of the end of the log on its line.
func endLabel(ep *replay.Episode) string {
	if ep.End.Reason == replay.EndStuckTermination {
		return fmt.Sprintf("recorded loop break %d", ep.N())
	}
	return fmt.Sprintf("end %d", ep.N())
}
