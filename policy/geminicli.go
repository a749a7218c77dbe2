package policy

import "github.com/lbanalyze/lbanalyze/episode"

// GeminiCLI is Gemini CLI's LoopDetectionService (packages/core/src/
// services/loopDetectionService.ts) with its two strikes (core/client.ts,
// _recoverFromLoop) (docs/policies.md, "Presets").
const GeminiCLI Name = "gemini-cli"

func init() {
	registerPreset(Kind{Name: GeminiCLI, Parts: geminiParts, Needs: episode.Signals(episode.Actions),
		Description: "Gemini CLI's tool-call loop check: 5 identical calls in a row (TOOL_CALL_LOOP_THRESHOLD), or two calls alternating over 10, " +
			"is a first strike that sends the model feedback; the next call that keeps the loop going stops the run"})
}

// geminiParts: a cycle of one call, or of two, repeated 5 times
// (checkToolCallLoop, k = 1 and 2), each nudging first.
func geminiParts(Policy) []Policy {
	return []Policy{
		Policy{Name: Repeat}.With(Times, 5).With(Then, 1),
		Policy{Name: Alternate}.With(Times, 2*5).With(Compare, 0).With(Then, 1),
	}
}
