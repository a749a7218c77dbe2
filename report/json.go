package report

import (
	"fmt"
	"io"
	"math"

	json "github.com/goccy/go-json"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/internal/patterns"
	"github.com/lbanalyze/lbanalyze/internal/textout"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/system"
)

// EpisodeJSON is the documented JSON form of one analysed episode (README,
// "JSON output"). Null stands for "none": no termination, no later gain.
// Its members come in this order: the head that names it, the source's facts
// (ZorkGPT's era and recorded_loop_break), the body, then the tail.
type EpisodeJSON struct {
	EpisodeHead
	Facts []episode.Fact
	EpisodeBody
	// Patterns are how the episode was stuck (episode only; batch gives their
	// summary over the dataset).
	Patterns *patterns.Analysis `json:"patterns,omitempty"`
	Results  []ResultJSON       `json:"results"`
}

// EpisodeHead names an episode.
type EpisodeHead struct {
	EpisodeID string `json:"episode_id"`
	Source    string `json:"source"`
	LogFormat string `json:"log_format"` // the source that read it
	Segment   int    `json:"segment"`
}

// EpisodeBody is what the log says of an episode, and what lbanalyze found.
// The objective counts are null for a system whose logs record no objectives.
type EpisodeBody struct {
	Turns        int            `json:"turns"`
	MaxTurns     *int           `json:"max_turns"`
	MissingTurns int            `json:"missing_turns"`
	FinalScore   *episode.Score `json:"final_score"` // null: a run judged by a result its log does not give
	// Cost and Tokens are the dollars and tokens the log records the run
	// spent, summed over its turns; null where it records none.
	Cost                 *float64       `json:"cost"`
	Tokens               *int64         `json:"tokens"`
	EndReason            string         `json:"end_reason"`
	EndTurn              *int           `json:"end_turn"`
	ObjectiveCompletions *int           `json:"objective_completions"`
	ObjectiveUpdates     *int           `json:"objective_updates"`
	Deaths               []int          `json:"deaths"`
	SkippedLines         int            `json:"skipped_lines"`
	Warnings             []string       `json:"warnings"`
	SelfCheck            *SelfCheckJSON `json:"self_check"`
	// Timeline is the score after each turn (episode only).
	Timeline []episode.Score `json:"timeline,omitempty"`
}

func (j EpisodeJSON) MarshalJSON() ([]byte, error) {
	return mergeObjects(j.EpisodeHead, facts(j.Facts), j.EpisodeBody, struct {
		Patterns *patterns.Analysis `json:"patterns,omitempty"`
		Results  []ResultJSON       `json:"results"`
	}{j.Patterns, j.Results})
}

// bodyKeys are the keys of EpisodeBody that a source's fact may share: the
// body writes them (BALROG's tokens, a total the body sums again).
var bodyKeys = map[string]bool{"tokens": true, "cost": true}

// facts is the source's facts as one JSON object, in order, but those the
// body writes.
type facts []episode.Fact

func (fs facts) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for _, f := range fs {
		if bodyKeys[f.Key] {
			continue
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		k, err := textout.JSON(f.Key)
		if err != nil {
			return nil, err
		}
		v, err := textout.JSON(f.Value)
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}'), nil
}

// mergeObjects encodes each part, a JSON object, and writes their members as
// one object, in order: what a struct of the parts' fields would give.
func mergeObjects(parts ...any) ([]byte, error) {
	b := []byte{'{'}
	for _, p := range parts {
		o, err := textout.JSON(p)
		if err != nil {
			return nil, err
		}
		if inner := o[1 : len(o)-1]; len(inner) > 0 {
			if len(b) > 1 {
				b = append(b, ',')
			}
			b = append(b, inner...)
		}
	}
	return append(b, '}'), nil
}

// ResultJSON is one policy's Outcome on one episode (docs/semantics.md, "6.2 Outcome of one policy on one episode").
type ResultJSON struct {
	Policy                    string               `json:"policy"`
	Settings                  policy.Written       `json:"settings"`
	TerminationTurn           *int                 `json:"termination_turn"`
	StopReason                *string              `json:"stop_reason"` // which trigger fired (the supervisor); null otherwise
	TurnsStuck                *int                 `json:"turns_stuck"`
	ScoreAtTermination        *episode.Score       `json:"score_at_termination"`
	LocationAtTermination     *string              `json:"location_at_termination"`
	TurnsSaved                int                  `json:"turns_saved"`
	Length                    int                  `json:"length"`
	ScoreForgone              episode.Score        `json:"score_forgone"`
	LaterScoreGain            bool                 `json:"later_score_gain"`
	LaterGain                 *GainJSON            `json:"later_gain"`
	GainHorizon               *int                 `json:"gain_horizon"`
	ObjectiveProgress         bool                 `json:"objective_progress"`
	WindowObjectives          []episode.Completion `json:"window_objectives"`
	FalseTerminationCandidate bool                 `json:"false_termination_candidate"`
	Unknown                   bool                 `json:"unknown"` // stopped with no follow-up to judge it (docs/semantics.md, "6.2 Outcome of one policy on one episode")
	TrulyStuck                bool                 `json:"truly_stuck"`
	Censored                  bool                 `json:"censored"`
	WarningStartTurn          *int                 `json:"warning_start_turn"` // null: none, or a system that shows no warning
	LLMCallsSaved             int                  `json:"llm_calls_saved"`
	TokensSaved               *int64               `json:"tokens_saved"` // null: the log records no tokens
	CostSaved                 *float64             `json:"cost_saved"`
	SecondsSaved              *float64             `json:"seconds_saved"` // null: the log records no step times
	// NudgeTurn and NudgesHeeded, for a rule that nudges (then=M): left out
	// for the others (docs/output.md, "The JSON of episode").
	NudgeTurn    *int `json:"nudge_turn,omitempty"`
	NudgesHeeded *int `json:"nudges_heeded,omitempty"`
}

// GainJSON is the first later gain, whether or not within the gain horizon:
// its turn, its size over the score at the stop, and how many turns after the
// stop it comes.
type GainJSON struct {
	Turn     int           `json:"turn"`
	Points   episode.Score `json:"points"`
	Distance int           `json:"distance"`
}

// SelfCheckJSON is the comparison of the replay with the recording's own
// loop-break events.
type SelfCheckJSON struct {
	RecordedScoreChanges     []int         `json:"recorded_score_changes"`
	RecordedObjectiveResets  []int         `json:"recorded_objective_resets"`
	RecordedStuckTermination *episode.Stop `json:"recorded_stuck_termination"`
	ReproducedBy             *string       `json:"reproduced_by"`
	Mismatches               []string      `json:"mismatches"`
	AssumedMaxTurnsStuck     int           `json:"assumed_max_turns_stuck"`
	AssumedCheckInterval     int           `json:"assumed_check_interval"`
	ReplayedTerminationTurn  *int          `json:"replayed_termination_turn"`
	ReplayedTurnsStuck       *int          `json:"replayed_turns_stuck"`
	TerminationMatches       bool          `json:"termination_matches"`
	// StopEnforced is false when the recording kept the rule's counter but
	// its runner did not stop on it (ZorkGPT2's run_episode.py): the
	// replayed termination is then what the rule would have done.
	StopEnforced       bool                `json:"stop_enforced"`
	ConsistentSettings []replay.Consistent `json:"consistent_settings"`
	DefaultsConsistent bool                `json:"defaults_consistent"`
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
func Result(ep *episode.Episode, o *replay.Outcome, opts Options) ResultJSON {
	r := ResultJSON{
		Policy: string(o.Policy.Name), Settings: o.Policy.Written(),
		TurnsSaved: o.TurnsSaved, Length: o.Length, ScoreForgone: o.ScoreForgone,
		LaterScoreGain: o.LaterScoreGain(), ObjectiveProgress: o.ObjectiveProgress(), WindowObjectives: o.WindowObjectives,
		FalseTerminationCandidate: o.FalseTerminationCandidate(), Unknown: o.Unknown(), TrulyStuck: o.TrulyStuck(), Censored: o.Censored,
		LLMCallsSaved: o.LLMCallsSaved(opts.CallsPerTurn),
		GainHorizon:   nonZero(o.GainHorizon),
	}
	if system.Of(ep).Shows.Warnings {
		r.WarningStartTurn = nonZero(o.WarningStartTurn)
	}
	if o.StopReason != "" {
		r.StopReason = &o.StopReason
	}
	if o.Policy.Nudges() {
		r.NudgeTurn, r.NudgesHeeded = ptr(o.NudgeTurn), ptr(o.NudgesHeeded)
	}
	if g := o.LaterGain; g != nil {
		r.LaterGain = &GainJSON{g.Turn, g.Points, o.GainDistance()}
	}
	if cost, ok := opts.CostSaved(o); ok {
		r.CostSaved = metrics.Round6(cost)
	}
	if o.Logged.Has(episode.Tokens) {
		r.TokensSaved = ptr(o.TokensSaved)
	}
	if o.Logged.Has(episode.Times) {
		r.SecondsSaved = metrics.Round6(o.SecondsSaved)
	}
	if r.WindowObjectives == nil {
		r.WindowObjectives = []episode.Completion{}
	}
	if t := o.TerminationTurn; o.Terminated() {
		r.TerminationTurn, r.TurnsStuck, r.ScoreAtTermination = ptr(t), ptr(o.TurnsStuck), ptr(o.ScoreAtTermination)
		if loc := ep.Turns[t-1].Location; loc != "" {
			r.LocationAtTermination = &loc
		}
	}
	return r
}

// ptr is a pointer to a copy of v.
func ptr[T any](v T) *T { return &v }

// JSON is the documented JSON form of e.
func (e *Episode) JSON() EpisodeJSON {
	j := e.fields()
	j.Timeline = timeline(e.Ep)
	e.each(func(_ int, out []replay.Outcome) error {
		for k := range out {
			j.Results = append(j.Results, Result(e.Ep, &out[k], e.Options))
		}
		return nil
	})
	return j
}

// fields is e's JSON form without its timeline and results.
func (e *Episode) fields() EpisodeJSON {
	ep := e.Ep
	j := EpisodeJSON{
		EpisodeHead: head(ep),
		Facts:       ep.Facts,
		EpisodeBody: EpisodeBody{Turns: ep.N(), MaxTurns: nonZero(ep.MaxTurns), MissingTurns: ep.MissingTurns,
			FinalScore: finalScore(ep), EndReason: string(ep.End.Reason), EndTurn: nonZero(ep.End.Turn),
			Deaths: []int{}, SkippedLines: ep.SkippedLines, Warnings: e.Warnings(), SelfCheck: e.selfCheckJSON()},
		Patterns: e.Patterns,
	}
	j.Cost, j.Tokens = spent(ep)
	if system.Of(ep).Shows.Objectives {
		j.ObjectiveCompletions, j.ObjectiveUpdates = ptr(len(ep.Objectives)), ptr(ep.ObjectiveUpdates)
	}
	for _, d := range ep.Deaths {
		j.Deaths = append(j.Deaths, d.Turn)
	}
	if j.Warnings == nil {
		j.Warnings = []string{}
	}
	return j
}

// finalScore is the score after the last turn, nil for a run judged by a
// result its log does not give.
func finalScore(ep *episode.Episode) *episode.Score {
	if ep.Judged == episode.ByUnknownResult {
		return nil
	}
	return ptr(ep.FinalScore())
}

// spent is the dollars and tokens ep's log records its turns spent, nil
// where it records none.
func spent(ep *episode.Episode) (cost *float64, tokens *int64) {
	var c float64
	var t int64
	for i := range ep.Turns {
		c += ep.Turns[i].Cost
		t += ep.Turns[i].Tokens
	}
	if ep.Signals.Has(episode.Costs) {
		cost = metrics.Round6(c)
	}
	if ep.Signals.Has(episode.Tokens) {
		tokens = &t
	}
	return cost, tokens
}

func head(ep *episode.Episode) EpisodeHead {
	return EpisodeHead{EpisodeID: ep.ID, Source: ep.Source, LogFormat: ep.Format, Segment: ep.Segment}
}

func (e *Episode) selfCheckJSON() *SelfCheckJSON {
	sc, rec := e.SelfCheck, e.Ep.Recorded
	if sc == nil {
		return nil
	}
	j := &SelfCheckJSON{
		RecordedScoreChanges: rec.Turns(episode.ScoreChangeReset), RecordedObjectiveResets: rec.Turns(episode.ObjectiveReset),
		RecordedStuckTermination: rec.Stop, ReproducedBy: nonEmpty(string(sc.Policy)),
		Mismatches: append([]string{}, sc.Mismatches...), AssumedMaxTurnsStuck: sc.Timer.MaxTurnsStuck,
		AssumedCheckInterval: sc.Timer.CheckInterval, ReplayedTerminationTurn: nonZero(sc.ReplayedTurn),
		ReplayedTurnsStuck: nonZero(sc.ReplayedStuck), TerminationMatches: sc.TerminationMatch, StopEnforced: !sc.CounterOnly,
		ConsistentSettings: append([]replay.Consistent{}, sc.Consistent...), DefaultsConsistent: sc.DefaultsConsistent,
	}
	return j
}

// An episode's JSON is written as an encoder indents the whole array by two
// spaces, in two parts: its head, the members that name it, in its turn; and
// its body, the members after "segment", as it is rendered. The results, most
// of the bytes with many configs, are encoded one at a time and written out
// as they come.

// jsonHead appends the head of an episode's object, indented as an element
// of the array, without its end.
func jsonHead(b []byte, n episodeName) []byte {
	h, _ := textout.IndentedJSON(EpisodeHead{EpisodeID: n.id, Source: n.source, LogFormat: n.format, Segment: n.segment}, "  ") // strings and numbers: never an error
	return append(b, h[:len(h)-len("\n  }")]...)
}

// jsonBody writes the body of e's object to w: what follows its head. Its
// timeline, a number a turn, is written a turn at a time (writeTimeline):
// encoded with the rest, a log at the turn cap held 12 MiB more
// (docs/PERFORMANCE.md, "Memory").
func jsonBody(w io.Writer, e *Episode) error {
	j := e.fields()
	// The members, at their place in the object after the head's: each
	// part's but its braces.
	members := func(v any) ([]byte, error) {
		b, err := textout.IndentedJSON(v, "  ")
		if err != nil || len(b) <= len("{\n  }") {
			return nil, err
		}
		b[0] = ','
		return b[:len(b)-len("\n  }")], nil
	}
	body, err := members(merged{facts(j.Facts), j.EpisodeBody})
	if err != nil {
		return err
	}
	if _, err := w.Write(body); err != nil {
		return err
	}
	if err := writeTimeline(w, e.Ep); err != nil {
		return err
	}
	pats, err := members(struct {
		Patterns *patterns.Analysis `json:"patterns,omitempty"`
	}{j.Patterns})
	if err != nil {
		return err
	}
	b := append(pats, ",\n    \"results\": "...)
	if e.Results() == 0 {
		b = append(b, "null"...)
	} else if b, err = appendResults(w, b, e); err != nil {
		return err
	}
	b = append(b, "\n  }"...)
	_, err = w.Write(b)
	return err
}

// writeTimeline writes the member "timeline" of ep's object, the score after
// each turn as Score's MarshalJSON writes it, indented as the encoder
// indents it, jsonFlushAt bytes at a time; none when ep has no turn
// (omitempty).
func writeTimeline(w io.Writer, ep *episode.Episode) error {
	if ep.N() == 0 {
		return nil
	}
	b := []byte(",\n    \"timeline\": [")
	for i := range ep.Turns {
		s := ep.Turns[i].Score
		if math.IsNaN(float64(s)) || math.IsInf(float64(s), 0) {
			return fmt.Errorf("turn %d: the score %v is no number", i+1, s)
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(append(b, "\n      "...), s.String()...)
		if len(b) >= jsonFlushAt {
			if _, err := w.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
	}
	_, err := w.Write(append(b, "\n    ]"...))
	return err
}

// timeline is the score after each turn of ep.
func timeline(ep *episode.Episode) []episode.Score {
	t := make([]episode.Score, ep.N())
	for i := range t {
		t[i] = ep.Turns[i].Score
	}
	return t
}

// merged are JSON objects written as one, their members in order (mergeObjects).
type merged []any

func (m merged) MarshalJSON() ([]byte, error) { return mergeObjects(m...) }

// jsonFlushAt is how many bytes of results appendResults holds before it
// writes them out.
const jsonFlushAt = 64 << 10

// appendResults appends the results array of e, each result encoded and
// indented as an element, writing out to w every jsonFlushAt bytes; it gives
// what it has not written.
func appendResults(w io.Writer, b []byte, e *Episode) ([]byte, error) {
	const in = "      " // a result's indentation, inside "results"
	b = append(b, "[\n"...)
	// Encoded straight into b, indented as it goes: indenting the compact
	// form afterwards would take most of the time of a grid's JSON
	// (docs/PERFORMANCE.md, "JSON").
	out := &appender{b}
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	enc.SetIndent(in, "  ")
	last := e.Results() - 1
	err := e.each(func(from int, os []replay.Outcome) error {
		for k := range os {
			r := Result(e.Ep, &os[k], e.Options)
			out.b = append(out.b, in...)
			if err := enc.Encode(&r); err != nil {
				return err
			}
			out.b = out.b[:len(out.b)-1] // the encoder's newline
			if from+k < last {
				out.b = append(out.b, ',')
			}
			out.b = append(out.b, '\n')
			if len(out.b) >= jsonFlushAt {
				if _, err := w.Write(out.b); err != nil {
					return err
				}
				out.b = out.b[:0]
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return append(out.b, "    ]"...), nil
}

// appender is an io.Writer that appends to b.
type appender struct{ b []byte }

func (a *appender) Write(p []byte) (int, error) {
	a.b = append(a.b, p...)
	return len(p), nil
}
