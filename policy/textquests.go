package policy

import (
	"image/color"

	"github.com/lbanalyze/lbanalyze/episode"
)

// TextQuests is the loop rules of the TextQuests agents (docs/policies.md,
// "Presets").
const TextQuests Name = "textquests"

func init() {
	register(Kind{Name: TextQuests, New: newParts, Parts: textQuestsParts, Preset: true, Ported: true, Window: partsWindow,
		Color:  color.NRGBA{0x94, 0x67, 0xBD, 0xFF}, // lilac (until policies without a colour are given one)
		Needs:  episode.Signals(episode.Actions),
		Change: "end the run at 3 identical actions in a row, 5 actions alternating A-B-A-B-A, or 15 steps without a change of score",
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
