package report

import "strings"

// How each text table gives way to a narrow terminal (Fit): its columns of
// words, its shorter headers, and the columns it leaves out, the least
// telling first.

// Shorter gives the headers of a table's short forms, others as they are.
func Shorter(short map[string]string) func(string) string {
	return func(h string) string {
		if s, ok := short[h]; ok {
			return s
		}
		return h
	}
}

var (
	resultsPlan = &Plan{Name: "results", Wrap: []string{"policy", "verdict"},
		Short: Shorter(map[string]string{"calls saved": "calls", "tokens saved": "tokens", "cost saved": "cost"}),
		Drop:  []string{"warned", "stuck", "score", "calls saved", "forgone", "tokens saved"}}
	patternsPlan = &Plan{Name: "patterns", Wrap: []string{"pattern", "what the log shows"},
		Short: Shorter(map[string]string{"first turn": "first", "what the log shows": "what it shows"}), Drop: []string{"first turn", "turns"}}
	// The spells' header names the spell's length and the patterns whose
	// lead it gives; short, they are "spells" and "leads".
	spellsPlan = &Plan{Name: "stuck spells", Wrap: []string{"policy"},
		Short: func(h string) string {
			switch {
			case strings.HasPrefix(h, "stuck spells"):
				return "spells"
			case strings.HasPrefix(h, "lead over the stop"):
				return "leads"
			}
			return h
		}, Drop: []string{"longest", "stop"}}
	metricsPlan = &Plan{Name: "metrics", Wrap: []string{"metric", "verdict"},
		Short: Shorter(map[string]string{"95% interval of the change": "95% CI"}), Drop: []string{"expected", "baseline", "after"}}
	reviewPlan   = &Plan{Name: "review", Wrap: []string{"baseline verdict", "after verdict"}, Drop: []string{"baseline", "after"}}
	episodesPlan = &Plan{Name: "episodes", Wrap: []string{"baseline verdict", "after verdict"},
		Short: Shorter(map[string]string{"baseline": "base"}), Drop: []string{"end", "obj", "score", "saved", "tokens", "turns"}}
	summaryPlan = &Plan{Name: "pattern summary", Wrap: []string{"pattern"}, Short: Shorter(map[string]string{"median first turn": "median first"})}
	leadsPlan   = &Plan{Name: "median leads", Wrap: []string{"policy"},
		Short: Shorter(map[string]string{"median lead (n): stuck spell": "spell", "oscillation": "osc."}),
		Drop:  []string{"stops", "warning", "oscillation", "camping", "repeat"}}
)
