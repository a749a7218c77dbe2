package report

import (
	"encoding/json"
	"io"

	"github.com/lbanalyze/lbanalyze/patterns"
	"github.com/lbanalyze/lbanalyze/replay"
)

// EpisodeJSON is the documented JSON form of one analysed episode (README,
// "JSON output"). Null stands for "none": no termination, no later gain.
type EpisodeJSON struct {
	EpisodeID            string         `json:"episode_id"`
	Source               string         `json:"source"`
	Segment              int            `json:"segment"`
	Segments             int            `json:"segments"`
	Era                  string         `json:"era"`
	RecordedLoopBreak    *string        `json:"recorded_loop_break"`
	Turns                int            `json:"turns"`
	MaxTurns             *int           `json:"max_turns"`
	MissingTurns         int            `json:"missing_turns"`
	FinalScore           int            `json:"final_score"`
	EndReason            string         `json:"end_reason"`
	EndTurn              *int           `json:"end_turn"`
	ObjectiveCompletions int            `json:"objective_completions"`
	ObjectiveUpdates     int            `json:"objective_updates"`
	Deaths               []int          `json:"deaths"`
	SkippedLines         int            `json:"skipped_lines"`
	Warnings             []string       `json:"warnings"`
	SelfCheck            *SelfCheckJSON `json:"self_check"`
	Results              []ResultJSON   `json:"results"`
	// Patterns are how the episode was stuck (episode only; batch gives their
	// summary over the dataset).
	Patterns *patterns.Analysis `json:"patterns,omitempty"`
}

// ResultJSON is one policy's Outcome on one episode (docs/semantics.md §6.2).
type ResultJSON struct {
	Policy                    string              `json:"policy"`
	MaxTurnsStuck             int                 `json:"max_turns_stuck"`
	CheckInterval             int                 `json:"check_interval"`
	StuckWarningThreshold     int                 `json:"stuck_warning_threshold"`
	TerminationTurn           *int                `json:"termination_turn"`
	TurnsStuck                *int                `json:"turns_stuck"`
	ScoreAtTermination        *int                `json:"score_at_termination"`
	LocationAtTermination     *string             `json:"location_at_termination"`
	TurnsSaved                int                 `json:"turns_saved"`
	Length                    int                 `json:"length"`
	ScoreForgone              int                 `json:"score_forgone"`
	LaterScoreGain            bool                `json:"later_score_gain"`
	LaterGain                 *GainJSON           `json:"later_gain"`
	GainHorizon               *int                `json:"gain_horizon"`
	ObjectiveProgress         bool                `json:"objective_progress"`
	WindowObjectives          []replay.Completion `json:"window_objectives"`
	FalseTerminationCandidate bool                `json:"false_termination_candidate"`
	TrulyStuck                bool                `json:"truly_stuck"`
	Censored                  bool                `json:"censored"`
	WarningStartTurn          *int                `json:"warning_start_turn"`
	LLMCallsSaved             int                 `json:"llm_calls_saved"`
	CostSaved                 *float64            `json:"cost_saved"`
}

// GainJSON is the first later gain, whether or not within the gain horizon:
// its turn, its size over the score at the stop, and how many turns after the
// stop it comes.
type GainJSON struct {
	Turn     int `json:"turn"`
	Points   int `json:"points"`
	Distance int `json:"distance"`
}

// SelfCheckJSON is the comparison of the replay with the recording's own
// loop-break events.
type SelfCheckJSON struct {
	RecordedScoreChanges     []int                    `json:"recorded_score_changes"`
	RecordedObjectiveResets  []int                    `json:"recorded_objective_resets"`
	RecordedStuckTermination *replay.StuckTermination `json:"recorded_stuck_termination"`
	ReproducedBy             *string                  `json:"reproduced_by"`
	Mismatches               []string                 `json:"mismatches"`
	AssumedMaxTurnsStuck     int                      `json:"assumed_max_turns_stuck"`
	AssumedCheckInterval     int                      `json:"assumed_check_interval"`
	ReplayedTerminationTurn  *int                     `json:"replayed_termination_turn"`
	ReplayedTurnsStuck       *int                     `json:"replayed_turns_stuck"`
	TerminationMatches       bool                     `json:"termination_matches"`
	ConsistentSettings       []replay.Consistent      `json:"consistent_settings"`
	DefaultsConsistent       bool                     `json:"defaults_consistent"`
}

func nonZero(v int) *int {
	if v == 0 {
		return nil
	}
	return &v
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Result is the JSON form of one outcome on ep.
func Result(ep *replay.Episode, o *replay.Outcome, opts Options) ResultJSON {
	r := ResultJSON{
		Policy: string(o.Policy.Name), MaxTurnsStuck: o.Policy.MaxTurnsStuck, CheckInterval: o.Policy.CheckInterval,
		StuckWarningThreshold: o.Policy.WarningThreshold,
		TurnsSaved:            o.TurnsSaved, Length: o.Length, ScoreForgone: o.ScoreForgone,
		LaterScoreGain: o.LaterScoreGain(), GainHorizon: nonZero(o.GainHorizon),
		ObjectiveProgress: o.ObjectiveProgress(), WindowObjectives: o.WindowObjectives,
		FalseTerminationCandidate: o.FalseTerminationCandidate(), TrulyStuck: o.TrulyStuck(), Censored: o.Censored,
		WarningStartTurn: nonZero(o.WarningStartTurn), LLMCallsSaved: o.LLMCallsSaved(opts.CallsPerTurn),
	}
	if g := o.LaterGain; g != nil {
		r.LaterGain = &GainJSON{g.Turn, g.Points, o.GainDistance()}
	}
	if opts.Priced() {
		r.CostSaved = Round6(opts.CostSaved(o))
	}
	if r.WindowObjectives == nil {
		r.WindowObjectives = []replay.Completion{}
	}
	if o.Terminated() {
		t, s, sc := o.TerminationTurn, o.TurnsStuck, o.ScoreAtTermination
		r.TerminationTurn, r.TurnsStuck, r.ScoreAtTermination = &t, &s, &sc
		r.LocationAtTermination = nonEmpty(ep.Turns[t-1].Location)
	}
	return r
}

// JSON is the documented JSON form of e.
func (e *Episode) JSON() EpisodeJSON {
	ep := e.Ep
	j := EpisodeJSON{
		EpisodeID: ep.ID, Source: ep.Source, Segment: ep.Segment, Segments: ep.Segments, Era: ep.Era,
		RecordedLoopBreak: nonEmpty(ep.LoopBreak), Turns: ep.N(), MaxTurns: nonZero(ep.MaxTurns), MissingTurns: ep.MissingTurns,
		FinalScore: ep.FinalScore(), EndReason: string(ep.End.Reason), EndTurn: nonZero(ep.End.Turn),
		ObjectiveCompletions: len(ep.Objectives), ObjectiveUpdates: len(ep.ObjectiveUpdates), Deaths: []int{}, SkippedLines: ep.SkippedLines,
		Warnings: e.Warnings(), SelfCheck: e.selfCheckJSON(), Patterns: e.Patterns,
	}
	for _, d := range ep.Deaths {
		j.Deaths = append(j.Deaths, d.Turn)
	}
	if j.Warnings == nil {
		j.Warnings = []string{}
	}
	for i := range e.Outcomes {
		j.Results = append(j.Results, Result(ep, &e.Outcomes[i], e.Options))
	}
	return j
}

func (e *Episode) selfCheckJSON() *SelfCheckJSON {
	sc, rec := e.SelfCheck, e.Ep.Recorded
	if sc == nil {
		return nil
	}
	j := &SelfCheckJSON{
		RecordedScoreChanges: []int{}, RecordedObjectiveResets: append([]int{}, rec.ObjectiveResets...),
		RecordedStuckTermination: rec.StuckTermination, ReproducedBy: nonEmpty(string(sc.Policy)),
		Mismatches: append([]string{}, sc.Mismatches...), AssumedMaxTurnsStuck: sc.Params.MaxTurnsStuck,
		AssumedCheckInterval: sc.Params.CheckInterval, ReplayedTerminationTurn: nonZero(sc.ReplayedTurn),
		ReplayedTurnsStuck: nonZero(sc.ReplayedStuck), TerminationMatches: sc.TerminationMatch,
		ConsistentSettings: append([]replay.Consistent{}, sc.Consistent...), DefaultsConsistent: sc.DefaultsConsistent,
	}
	for _, c := range rec.ScoreChanges {
		j.RecordedScoreChanges = append(j.RecordedScoreChanges, c.Turn)
	}
	return j
}

// WriteJSON writes one object for one episode, an array for several.
func WriteJSON(w io.Writer, eps []Episode) error {
	var v any
	if len(eps) == 1 {
		v = eps[0].JSON()
	} else {
		all := make([]EpisodeJSON, len(eps))
		for i := range eps {
			all[i] = eps[i].JSON()
		}
		v = all
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
