package metrics

import (
	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/replay"
)

// Costs price what a stop saves.
type Costs struct {
	// CallsPerTurn prices a turn in LLM calls (agent, critic, extractor, synthesis).
	CallsPerTurn int
	// CostPerCall prices an LLM call in dollars, and CostPerMTok a million
	// LLM tokens; 0: no cost is shown (CostSaved says which applies).
	CostPerCall, CostPerMTok float64
}

// Priced reports whether costs are shown.
func (c Costs) Priced() bool { return c.CostPerCall > 0 || c.CostPerMTok > 0 }

// CostSaved is the dollars what o saves would have cost (cost_saved in
// docs/semantics.md, "6.2 Outcome of one policy on one episode"): its tokens
// saved at CostPerMTok where the log records tokens and a price is given,
// else its LLM calls saved at CostPerCall; false when neither prices it.
func (c Costs) CostSaved(o *replay.Outcome) (float64, bool) {
	switch {
	case c.CostPerMTok > 0 && o.Logged.Has(episode.Tokens):
		return float64(o.TokensSaved) * c.CostPerMTok / 1e6, true
	case c.CostPerCall > 0:
		return float64(o.LLMCallsSaved(c.CallsPerTurn)) * c.CostPerCall, true
	}
	return 0, false
}
