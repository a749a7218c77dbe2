package metrics

import (
	"slices"

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
	// Recorded: every log analysed records the dollars each step spent
	// (episode.Costs), which are then the cost saved, with no price
	// (docs/semantics.md, "6.4 Runs judged by their result").
	Recorded bool
}

// Priced reports whether costs are shown.
func (c Costs) Priced() bool { return c.Recorded || c.CostPerCall > 0 || c.CostPerMTok > 0 }

// For is c for the logs of eps: Recorded when each of them records each
// step's dollars.
func (c Costs) For(eps ...*episode.Episode) Costs {
	c.Recorded = len(eps) > 0 && !slices.ContainsFunc(eps, func(ep *episode.Episode) bool { return !ep.Signals.Has(episode.Costs) })
	return c
}

// CostSaved is the dollars what o saves would have cost (cost_saved in
// docs/semantics.md, "6.2 Outcome of one policy on one episode"): the
// dollars the log records its turns after the stop spent, where it records
// them; else its tokens saved at CostPerMTok where the log records tokens and
// a price is given, else its LLM calls saved at CostPerCall; false when
// neither prices it.
func (c Costs) CostSaved(o *replay.Outcome) (float64, bool) {
	switch {
	case o.Logged.Has(episode.Costs):
		return o.DollarsSaved, true
	case c.CostPerMTok > 0 && o.Logged.Has(episode.Tokens):
		return float64(o.TokensSaved) * c.CostPerMTok / 1e6, true
	case c.CostPerCall > 0:
		return float64(o.LLMCallsSaved(c.CallsPerTurn)) * c.CostPerCall, true
	}
	return 0, false
}
