package policy

import "github.com/lbanalyze/lbanalyze/episode"

// Tokens caps the LLM tokens a run spends: Inspect's token_limit.
const Tokens Name = "tokens"

// MaxTokens is the tokens a run may spend.
var MaxTokens = capSetting("max-tokens", "max N (tokens): the run may spend N LLM tokens; 0 off", 0, episode.Tokens)

func init() {
	register(Kind{Name: Tokens, New: newCap(MaxTokens, func(before float64, o Observation) float64 { return before + float64(o.Tokens) }),
		Variant: true, Settings: []*Setting{MaxTokens},
		Description: "a token cap: the run stops after the step at which the tokens it has spent reach max"})
}
