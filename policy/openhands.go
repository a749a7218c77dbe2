package policy

import "github.com/lbanalyze/lbanalyze/episode"

// OpenHands is the StuckDetector of OpenHands' software-agent-sdk
// (conversation/stuck_detector.py) at its StuckDetectionThresholds
// (docs/policies.md, "Presets").
const OpenHands Name = "openhands"

// OpenHands' thresholds, under the keys of stuck_detection_thresholds.
var (
	ActionObservation = &Setting{Key: "action_observation", Flag: "action-observation", Label: "action_observation", Default: 4, Min: 1, Reads: episode.Responses,
		Usage: "action_observation (openhands): stop when this many last steps took the same action and got the same response"}
	ActionError = &Setting{Key: "action_error", Flag: "action-error", Label: "action_error", Default: 3, Min: 1, Reads: episode.Errors,
		Usage: "action_error (openhands): nudge when the same action errored this many times in a row, stop at one more"}
	AlternatingPattern = &Setting{Key: "alternating_pattern", Flag: "alternating-pattern", Label: "alternating_pattern", Default: 6, Min: 1, Reads: episode.Responses,
		Usage: "alternating_pattern (openhands): stop when this many last steps alternate between two (action, response) pairs"}
)

// openHandsWindow is how many steps StuckDetector sees: it scans the last 20
// events (MAX_EVENTS_TO_SCAN_FOR_STUCK_DETECTION), an action and its
// observation each step, so a pattern longer than 10 steps is never seen.
const openHandsWindow = 20 / 2

func init() {
	registerPreset(Kind{Name: OpenHands, Parts: openHandsParts,
		Settings: []*Setting{ActionObservation, ActionError, AlternatingPattern},
		Needs:    episode.Signals(episode.Actions),
		Description: "OpenHands' StuckDetector: stop when the last action_observation steps took the same action and got the same response, " +
			"when the last alternating_pattern steps alternate between two such pairs, or at the action_error+1-th error in a row of one action (the action_error-th nudges), " +
			"each within its last 20 events (10 steps)"})
}

// openHandsParts are the StuckDetector's patterns as repetition rules, each
// left out past its 20 events: repeat-observed, errors of one action with a
// nudge (get_action_error_nudge at the threshold, is_stuck past it), and
// alternate. Its monologue pattern (agent messages with no action between)
// has no step of a log to see.
func openHandsParts(p Policy) []Policy {
	var parts []Policy
	if n := p.Get(ActionObservation); n <= openHandsWindow {
		parts = append(parts, Policy{Name: RepeatObserved}.With(Times, n))
	}
	if n := p.Get(ActionError); n+1 <= openHandsWindow {
		parts = append(parts, Policy{Name: Errored}.With(Times, n).With(SameAction, 1).With(Then, 1))
	}
	if n := p.Get(AlternatingPattern); n <= openHandsWindow {
		parts = append(parts, Policy{Name: Alternate}.With(Times, n))
	}
	return parts
}
