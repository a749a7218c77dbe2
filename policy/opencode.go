package policy

import "github.com/lbanalyze/lbanalyze/episode"

// OpenCode is opencode's doom_loop check (packages/opencode/src/session/
// processor.ts, DOOM_LOOP_THRESHOLD = 3), as its documentation states it
// (docs/policies.md, "Presets").
const OpenCode Name = "opencode"

func init() {
	registerPreset(Kind{Name: OpenCode, Parts: openCodeParts, Needs: episode.Signals(episode.Actions),
		Description: "opencode's doom_loop: stop at the third identical tool call in a row (its name and input); " +
			"replayed across steps, as documented, where opencode's code looks within one assistant message (#50073)"})
}

// openCodeParts: three identical calls in a row.
func openCodeParts(Policy) []Policy { return []Policy{Policy{Name: Repeat}.With(Times, 3)} }
