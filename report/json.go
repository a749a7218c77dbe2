package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strconv"

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
	// Results stays the last field: jsonBody appends it in place.
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
	var r ResultJSON
	setResult(&r, new(resultValues), ep, o, opts)
	return r
}

// resultValues are what the pointers of a ResultJSON point to: one
// allocation for all of them, or none when a writer reuses them.
type resultValues struct {
	terminationTurn, turnsStuck, scoreAtTermination, gainHorizon, warningStartTurn int
	location                                                                       string
	gain                                                                           GainJSON
	cost                                                                           float64
}

// setResult sets r to the JSON form of o on ep, its pointers into v.
func setResult(r *ResultJSON, v *resultValues, ep *replay.Episode, o *replay.Outcome, opts Options) {
	*r = ResultJSON{
		Policy: string(o.Policy.Name), MaxTurnsStuck: o.Policy.MaxTurnsStuck, CheckInterval: o.Policy.CheckInterval,
		StuckWarningThreshold: o.Policy.WarningThreshold,
		TurnsSaved:            o.TurnsSaved, Length: o.Length, ScoreForgone: o.ScoreForgone,
		LaterScoreGain: o.LaterScoreGain(), ObjectiveProgress: o.ObjectiveProgress(), WindowObjectives: o.WindowObjectives,
		FalseTerminationCandidate: o.FalseTerminationCandidate(), TrulyStuck: o.TrulyStuck(), Censored: o.Censored,
		LLMCallsSaved: o.LLMCallsSaved(opts.CallsPerTurn),
	}
	if o.GainHorizon != 0 {
		v.gainHorizon = o.GainHorizon
		r.GainHorizon = &v.gainHorizon
	}
	if o.WarningStartTurn != 0 {
		v.warningStartTurn = o.WarningStartTurn
		r.WarningStartTurn = &v.warningStartTurn
	}
	if g := o.LaterGain; g != nil {
		v.gain = GainJSON{g.Turn, g.Points, o.GainDistance()}
		r.LaterGain = &v.gain
	}
	if opts.Priced() {
		v.cost = *Round6(opts.CostSaved(o))
		r.CostSaved = &v.cost
	}
	if r.WindowObjectives == nil {
		r.WindowObjectives = []replay.Completion{}
	}
	if o.Terminated() {
		t := o.TerminationTurn
		v.terminationTurn, v.turnsStuck, v.scoreAtTermination = t, o.TurnsStuck, o.ScoreAtTermination
		r.TerminationTurn, r.TurnsStuck, r.ScoreAtTermination = &v.terminationTurn, &v.turnsStuck, &v.scoreAtTermination
		if v.location = ep.Turns[t-1].Location; v.location != "" {
			r.LocationAtTermination = &v.location
		}
	}
}

// JSON is the documented JSON form of e.
func (e *Episode) JSON() EpisodeJSON {
	j := e.fields()
	for i := range e.Outcomes {
		j.Results = append(j.Results, Result(e.Ep, &e.Outcomes[i], e.Options))
	}
	return j
}

// fields is e's JSON form without its results.
func (e *Episode) fields() EpisodeJSON {
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
// (README, "JSON output"): WriteEpisodes in json.
func WriteJSON(w io.Writer, eps []Episode) error { return WriteEpisodes(w, "json", eps) }

// An episode's JSON is written as encoding/json indents the whole array by
// two spaces (a test holds it to those bytes), in two parts: its head, the
// members that name it, once its file's segments are counted; and its body,
// the members after "segments", as soon as it is analysed. The results, most
// of the bytes with many configs, are appended directly (appendResult) and
// written out as they come.

// jsonHead appends the head of ep's object, indented as an element of the array.
func jsonHead(b []byte, ep *replay.Episode) []byte {
	b = append(b, "{\n    \"episode_id\": "...)
	b = appendJSONString(b, ep.ID)
	b = append(b, ",\n    \"source\": "...)
	b = appendJSONString(b, ep.Source)
	b = append(b, ",\n    \"segment\": "...)
	b = strconv.AppendInt(b, int64(ep.Segment), 10)
	b = append(b, ",\n    \"segments\": "...)
	return strconv.AppendInt(b, int64(ep.Segments), 10)
}

// jsonAfterHead is where the body of an episode's object begins: the member
// after "segments" (no raw newline is in a JSON string, so the first match is it).
const jsonAfterHead = ",\n    \"era\": "

// errJSONLayout: encoding/json no longer writes an episode as expected.
var errJSONLayout = errors.New("report: unexpected JSON layout of an episode")

// jsonBody writes the body of e's object to w: what follows its head. On an
// error, it writes what it rendered before it.
func jsonBody(w io.Writer, e *Episode) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("  ", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(e.fields()); err != nil { // "results": null
		return err
	}
	b := buf.Bytes()[:buf.Len()-1] // Encode's newline
	i := bytes.Index(b, []byte(jsonAfterHead))
	if i < 0 {
		return errJSONLayout
	}
	b = b[i:]
	if len(e.Outcomes) > 0 {
		// Results is the last field: "results": null, then the closing brace.
		const tail = "null\n  }"
		if !bytes.HasSuffix(b, []byte(tail)) {
			return errJSONLayout
		}
		var err error
		if b, err = appendResults(w, b[:len(b)-len(tail)], e, "    "); err != nil {
			w.Write(b)
			return err
		}
		b = append(b, "\n  }"...)
	}
	_, err := w.Write(b)
	return err
}

// jsonFlushAt is how many bytes of results appendResults holds before it
// writes them out.
const jsonFlushAt = 64 << 10

// jsonWritten is how much of an episode's JSON b, from what precedes it in
// the output, is written when one of its results fails it (a cost that is no
// number): the output is written as appendResults writes, every jsonFlushAt
// bytes or more at the end of a result, and what is not yet written then is
// not. (b is rendered before it is written: this keeps what a failure leaves
// as it was when episodes were written as they were rendered.)
func jsonWritten(b []byte) int {
	end := []byte("\n      },\n") // of a result, at its indentation in the array
	out, at := 0, 0
	for {
		i := bytes.Index(b[at:], end)
		if i < 0 {
			return out
		}
		at += i + len(end)
		if at-out >= jsonFlushAt {
			out = at
		}
	}
}

// appendResults appends the results array of e as the encoder writes it,
// indented by ind, one result at a time, writing out to w every jsonFlushAt
// bytes; it gives what it has not written, on an error up to the result
// that failed.
func appendResults(w io.Writer, b []byte, e *Episode, ind string) ([]byte, error) {
	in1 := ind + "  "
	lines := resultLines(in1)
	b = append(b, "[\n"...)
	var (
		r ResultJSON
		v resultValues // r's pointers point here: no allocation a result
	)
	for i := range e.Outcomes {
		setResult(&r, &v, e.Ep, &e.Outcomes[i], e.Options)
		if c := r.CostSaved; c != nil && (math.IsNaN(*c) || math.IsInf(*c, 0)) {
			_, err := json.Marshal(&r) // not JSON: the encoder says so, in its words
			return b, err
		}
		b = append(b, in1...)
		b = appendResult(b, &r, lines)
		if i < len(e.Outcomes)-1 {
			b = append(b, ',')
		}
		b = append(b, '\n')
		if len(b) >= jsonFlushAt {
			if _, err := w.Write(b); err != nil {
				return nil, err
			}
			b = b[:0]
		}
	}
	b = append(b, ind...)
	return append(b, ']'), nil
}
