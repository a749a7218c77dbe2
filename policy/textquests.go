package policy

import "github.com/lbanalyze/lbanalyze/episode"

// TextQuests is the loop rules of the TextQuests agents (docs/policies.md,
// "Presets").
const TextQuests Name = "textquests"

func init() {
	registerPreset(Kind{Name: TextQuests, Parts: textQuestsParts, Needs: episode.Signals(episode.Actions),
		Description: "the TextQuests agents' loop rules: 3 identical actions in a row, two actions alternating over 5 steps (A-B-A-B-A), " +
			"or 15 steps without a change of score"})
}

func textQuestsParts(Policy) []Policy {
	return []Policy{
		Policy{Name: Repeat}.With(Times, 3),
		Policy{Name: Alternate}.With(Times, 5).With(Compare, 0),
		Policy{Name: Score}.WithTimer(Timer{MaxTurnsStuck: 15, CheckInterval: 1, WarningThreshold: DefaultWarningThreshold}),
	}
}
