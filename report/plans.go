package report

import (
	"strings"

	"github.com/lbanalyze/lbanalyze/internal/textout"
)

// How each text table gives way to a narrow terminal (textout.Fit): its columns of
// words, its shorter headers, and the columns it leaves out, the least
// telling first.

var (
	resultsPlan = &textout.Plan{Name: "results", Wrap: []string{"policy", "verdict"},
		Short: textout.Shorter(map[string]string{"calls saved": "calls", "tokens saved": "tokens", "cost saved": "cost"}),
		Drop:  []string{"warned", "stuck", "score", "calls saved", "forgone", "tokens saved"}}
	patternsPlan = &textout.Plan{Name: "patterns", Wrap: []string{"pattern", "what the log shows"},
		Short: textout.Shorter(map[string]string{"first turn": "first", "what the log shows": "what it shows"}), Drop: []string{"first turn", "turns"}}
	// The spells' header names the spell's length and the patterns whose
	// lead it gives; short, they are "spells" and "leads".
	spellsPlan = &textout.Plan{Name: "stuck spells", Wrap: []string{"policy"},
		Short: func(h string) string {
			switch {
			case strings.HasPrefix(h, "stuck spells"):
				return "spells"
			case strings.HasPrefix(h, "lead over the stop"):
				return "leads"
			}
			return h
		}, Drop: []string{"longest", "stop"}}
	metricsPlan = &textout.Plan{Name: "metrics", Wrap: []string{"metric", "verdict"},
		Short: textout.Shorter(map[string]string{"95% interval of the change": "95% CI"}), Drop: []string{"expected", "baseline", "after"}}
	reviewPlan   = &textout.Plan{Name: "review", Wrap: []string{"episode", "baseline verdict", "after verdict"}, Drop: []string{"baseline", "after"}}
	episodesPlan = &textout.Plan{Name: "episodes", Wrap: []string{"episode", "baseline verdict", "after verdict"},
		Short: textout.Shorter(map[string]string{"baseline": "base"}), Drop: []string{"end", "obj", "score", "saved", "tokens", "turns", "baseline verdict"}}
	summaryPlan = &textout.Plan{Name: "pattern summary", Wrap: []string{"pattern"}, Short: textout.Shorter(map[string]string{"median first turn": "median first"})}
	leadsPlan   = &textout.Plan{Name: "median leads", Wrap: []string{"policy"},
		Short: textout.Shorter(map[string]string{"median lead (n): stuck spell": "spell", "oscillation": "osc."}),
		Drop:  []string{"stops", "warning", "oscillation", "camping", "repeat"}}
)
