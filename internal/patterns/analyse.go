package patterns

import (
	"strings"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
)

// Options are the detectors' settings. The defaults are ZorkGPT's
// [tool.zorkgpt.loop_break] values and the design's camping settings.
type Options struct {
	RevisitWindow    int     // location_revisit_window, 5
	RevisitPenalty   float64 // location_revisit_penalty, −0.2
	CampingWindow    int     // the design's camping_window, 10
	CampingThreshold int     // the design's camping_threshold, 5
	NoveltyWindow    int     // action_novelty_window, 15
	// MinSpell: stuck spells shorter than this are counted, not listed.
	MinSpell int
	// Unversioned is the policy whose warnings and progress are replayed for a
	// log that shows no loop break of its own (before 2025-11-05); logs with v1
	// use score, logs with v2 score-or-objective.
	Unversioned policy.Name
	// Timer is the reference policy's settings (ZorkGPT's defaults, 40/10/20).
	Timer policy.Timer
	// MaxDisagreements is how many 1B disagreements an episode lists (all are counted).
	MaxDisagreements int
	// Revisit and Warnings: the revisit penalty (1B) and the countdown
	// warnings (1C) apply to the system that ran the log (system.Shows);
	// off, the analysis leaves them out, nil, and the warnings out of the
	// leads.
	Revisit, Warnings bool
}

// DefaultOptions returns ZorkGPT's settings.
func DefaultOptions() Options {
	return Options{RevisitWindow: 5, RevisitPenalty: -0.2, CampingWindow: 10, CampingThreshold: 5,
		NoveltyWindow: 15, MinSpell: 10, Unversioned: policy.ScoreOrObjective, Timer: policy.DefaultTimer(),
		MaxDisagreements: 5, Revisit: true, Warnings: true}
}

// Analysis is the patterns of one episode. Turn numbers are the log's.
type Analysis struct {
	EpisodeID string `json:"episode_id"`
	Source    string `json:"source"`
	Turns     int    `json:"turns"`
	// RoomKey says how rooms are told apart: "id" (Jericho ids, E3c) or
	// "name"; "none" when the log names no room (oscillation and camping
	// cannot be told).
	RoomKey string `json:"room_key"`
	// WarningsShown: the recording ran ZorkGPT's loop break (v1/v2, from
	// 2025-11-05), so the countdown warnings were in the agent's prompt.
	WarningsShown bool `json:"warnings_shown"`
	// Reference is the policy whose progress the warnings and repeats follow:
	// the recording's own (v1 → score, v2 → score-or-objective), else Options.Unversioned.
	Reference string `json:"reference_policy"`

	Policies    []PolicyPatterns `json:"policies"`
	Revisit     *Revisit         `json:"revisit_penalty"` // nil: not analysed (Options.Revisit)
	Warnings    *Warnings        `json:"warnings"`        // nil: not analysed (Options.Warnings)
	Oscillation Pattern          `json:"oscillation"`
	Camping     Pattern          `json:"camping"`
	Repeats     Repeats          `json:"repeats"`
	Novelty     Novelty          `json:"action_novelty"`
	StateLoops  StateLoops       `json:"state_loops"`

	// per-turn detections, for leads and the timeline (index t, 1..N)
	osc, camp, rep []bool
	warned         []bool
	penalised      []bool
}

// Pattern is one room pattern (oscillation or camping) over an episode.
type Pattern struct {
	FirstTurn int            `json:"first_turn"` // the first turn the detector fires; 0 never
	Turns     int            `json:"turns"`      // turns at which it fires
	Rooms     []Room         `json:"rooms"`      // every room involved, in order of first appearance
	Spells    []PatternSpell `json:"spells"`
	// Oscillation only: critic_override events with reason
	// "breaking_oscillation", and how many fall on a turn the replay flags.
	LoggedOverrides  int `json:"logged_overrides,omitempty"`
	OverridesFlagged int `json:"overrides_flagged,omitempty"`
}

// Analyse finds the patterns of ep; policies are the ones whose stuck spells
// and stops are wanted (any number, in the order given).
func Analyse(ep *episode.Episode, opt Options, policies ...policy.Policy) *Analysis {
	n := ep.N()
	r := roomsOf(ep)
	a := &Analysis{EpisodeID: ep.ID, Source: ep.Source, Turns: n, RoomKey: r.keyName(),
		WarningsShown: len(ep.Recorded.Rules) > 0}
	ref := Reference(ep, opt)
	a.Reference = ref.String()

	a.oscillation(ep, r)
	a.camping(r, opt)
	if opt.Revisit {
		rv, penalised := revisit(ep, r, opt)
		a.Revisit, a.penalised = &rv, penalised
	}
	steps := trace(ep, ref)
	if opt.Warnings {
		w, warned := warnings(steps, ref, a.WarningsShown)
		a.Warnings, a.warned = &w, warned
	}
	a.Repeats, a.rep = repeats(ep, steps, ref)
	a.Novelty = novelty(ep, opt.NoveltyWindow)
	for _, p := range policies {
		a.Policies = append(a.Policies, a.policyPatterns(ep, r, p, opt))
	}
	a.StateLoops = a.stateLoops(ep)
	return a
}

// Reference is the policy an episode's warnings follow: the loop break the
// recording ran (v1 → score, v2 → score-or-objective) with ZorkGPT's
// settings, or opt.Unversioned for logs without one, or score for a log that
// lacks what opt.Unversioned needs (a harness's: no objectives).
func Reference(ep *episode.Episode, opt Options) policy.Policy {
	name := opt.Unversioned
	if rules := ep.Recorded.Rules; len(rules) > 0 {
		name = policy.Name(rules[0])
	} else if len(ep.Signals.Lacking(policy.Policy{Name: name}.Needs())) > 0 {
		name = policy.Score
	}
	return policy.Policy{Name: name}.WithTimer(opt.Timer)
}

// step is what the patterns read of a policy.Step, 8 bytes a turn instead
// of 64: a trace at the turn cap is held per traced policy
// (docs/PERFORMANCE.md, "Memory"). Turn numbers fit an int32 there.
type step struct {
	anchor                   int32 // policy.Step.Anchor
	reset, warned, terminate bool  // Reset != NoReset, Warned, Terminate
}

// trace collects the steps of p over ep (index t−1), past the stop.
func trace(ep *episode.Episode, p policy.Policy) []step {
	steps := make([]step, 0, ep.N())
	replay.TraceOn(ep, p, func(s policy.Step) {
		steps = append(steps, step{anchor: int32(s.Anchor), reset: s.Reset != policy.NoReset, warned: s.Warned, terminate: s.Terminate})
	})
	return steps
}

func (a *Analysis) oscillation(ep *episode.Episode, r *rooms) {
	n := ep.N()
	hits := r.hits()
	a.osc = make([]bool, n+1)
	for t := 1; t <= n && !r.none; t++ {
		if x, y, ok := oscillationAt(r.at, t); ok {
			hits[t] = hit{on: true, key: pairKey(x, y)}
			a.osc[t] = true
		}
	}
	a.Oscillation = patternOf(hits, r)
	for _, o := range ep.Recorded.CriticOverrides {
		if o.Reason != "breaking_oscillation" {
			continue
		}
		a.Oscillation.LoggedOverrides++
		if o.Turn <= n && a.osc[o.Turn] {
			a.Oscillation.OverridesFlagged++
		}
	}
}

func (a *Analysis) camping(r *rooms, opt Options) {
	n := len(r.at) - 1
	hits := r.hits()
	a.camp = make([]bool, n+1)
	for t := 1; t <= n && !r.none; t++ {
		if room, _, ok := campingAt(r.at, t, opt.CampingWindow, opt.CampingThreshold); ok {
			hits[t] = hit{on: true, key: [2]int{room, -1}}
			a.camp[t] = true
		}
	}
	a.Camping = patternOf(hits, r)
}

func patternOf(hits []hit, r *rooms) Pattern {
	p := Pattern{Spells: spellsOf(hits, r), Rooms: []Room{}}
	seen := map[Room]bool{}
	for _, s := range p.Spells {
		if p.FirstTurn == 0 {
			p.FirstTurn = s.Start
		}
		p.Turns += s.Turns
		for _, rm := range s.Rooms {
			if !seen[rm] {
				seen[rm] = true
				p.Rooms = append(p.Rooms, rm)
			}
		}
	}
	if p.Spells == nil {
		p.Spells = []PatternSpell{}
	}
	return p
}

// normAction is how actions are compared for repeats and novelty: lower case,
// spaces trimmed.
func normAction(s string) string { return strings.ToLower(strings.TrimSpace(s)) }
