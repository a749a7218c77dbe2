package report

import (
	"bytes"
	"encoding/json"
	"errors"
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
	// Patterns are how the episode was stuck (episode only; batch gives their
	// summary over the dataset).
	Patterns *patterns.Analysis `json:"patterns,omitempty"`
	// Results stays the last field: WriteJSON writes it in place.
	Results []ResultJSON `json:"results"`
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

// WriteJSON writes the episodes as one JSON array, whatever their number
// (README, "JSON output"), an episode at a time: only one episode's JSON is
// held, however many episodes and results there are. The bytes are those of
// encoding/json indenting the whole array by two spaces (a test holds them
// to it); the results, most of the bytes with many configs, are written
// directly.
func WriteJSON(w io.Writer, eps []Episode) error {
	if len(eps) == 0 {
		_, err := io.WriteString(w, "[]\n")
		return err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("  ", "  ")
	enc.SetEscapeHTML(false)
	var jw jsonWriter
	buf.WriteString("[\n")
	for i := range eps {
		j := eps[i].JSON()
		results := j.Results
		if len(results) > 0 {
			j.Results = nil // written below, in place of its null
		}
		buf.WriteString("  ")
		if err := enc.Encode(j); err != nil {
			return err
		}
		buf.Truncate(buf.Len() - 1) // Encode's newline
		if len(results) > 0 {
			// Results is the last field: "results": null, then the closing brace.
			const tail = "null\n  }"
			if !bytes.HasSuffix(buf.Bytes(), []byte(tail)) {
				return errors.New("report: unexpected JSON layout of an episode")
			}
			buf.Truncate(buf.Len() - len(tail))
			out, err := jw.results(buf.AvailableBuffer(), results, "    ")
			if err != nil {
				return err
			}
			buf.Write(out)
			buf.WriteString("\n  }")
		}
		if i < len(eps)-1 {
			buf.WriteString(",\n")
		} else {
			buf.WriteString("\n]\n")
		}
		if _, err := w.Write(buf.Bytes()); err != nil {
			return err
		}
		buf.Reset()
	}
	return nil
}

// jsonWriter appends the results as encoding/json indents them.
type jsonWriter struct {
	scratch bytes.Buffer
}

// results appends the results array as the encoder writes it, indented by
// ind, one result at a time (the encoder's own bytes, so that a field added
// to ResultJSON needs nothing here).
func (jw *jsonWriter) results(b []byte, rs []ResultJSON, ind string) ([]byte, error) {
	in1 := ind + "  "
	b = append(b, "[\n"...)
	for i := range rs {
		b = append(b, in1...)
		var err error
		if b, err = jw.indented(b, &rs[i], in1); err != nil {
			return nil, err
		}
		if i < len(rs)-1 {
			b = append(b, ',')
		}
		b = append(b, '\n')
	}
	b = append(b, ind...)
	return append(b, ']'), nil
}

// indented appends v as the encoder writes it, its lines after the first
// indented by ind.
func (jw *jsonWriter) indented(b []byte, v any, ind string) ([]byte, error) {
	jw.scratch.Reset()
	enc := json.NewEncoder(&jw.scratch)
	enc.SetIndent(ind, "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	out := jw.scratch.Bytes()
	return append(b, out[:len(out)-1]...), nil
}
