package patterns

// Span is a run of turns to shade on a score timeline.
type Span struct {
	Pattern string `json:"pattern"`         // oscillation, camping, repeat, warning, revisit_penalty
	Level   string `json:"level,omitempty"` // warnings only: important, urgent, critical
	Start   int    `json:"start"`
	End     int    `json:"end"`
}

// Spans lists the turns of each pattern as runs, for timeline shading: by
// pattern in a fixed order, then by turn. Warning runs are split by level.
func (a *Analysis) Spans() []Span {
	var out []Span
	runs := func(name string, on []bool) {
		for t := 1; t < len(on); t++ {
			if !on[t] {
				continue
			}
			s := t
			for t+1 < len(on) && on[t+1] {
				t++
			}
			out = append(out, Span{Pattern: name, Start: s, End: t})
		}
	}
	runs("oscillation", a.osc)
	runs("camping", a.camp)
	runs("repeat", a.rep)
	runs("revisit_penalty", a.penalised)
	if a.Warnings == nil {
		return out
	}
	for _, w := range a.Warnings.Spells {
		cuts := []struct {
			level string
			from  int
		}{{Important, w.Start}, {Urgent, w.UrgentFrom}, {Critical, w.CriticalFrom}}
		for i, c := range cuts {
			if c.from == 0 {
				continue
			}
			end := w.End
			for _, d := range cuts[i+1:] {
				if d.from != 0 {
					end = d.from - 1
					break
				}
			}
			if end >= c.from {
				out = append(out, Span{Pattern: "warning", Level: c.level, Start: c.from, End: end})
			}
		}
	}
	return out
}
