package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"

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
	LaterGain                 *replay.Gain        `json:"later_gain"`
	ObjectiveProgress         bool                `json:"objective_progress"`
	WindowObjectives          []replay.Completion `json:"window_objectives"`
	FalseTerminationCandidate bool                `json:"false_termination_candidate"`
	TrulyStuck                bool                `json:"truly_stuck"`
	Censored                  bool                `json:"censored"`
	WarningStartTurn          *int                `json:"warning_start_turn"`
	LLMCallsSaved             int                 `json:"llm_calls_saved"`
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
func Result(ep *replay.Episode, o *replay.Outcome, callsPerTurn int) ResultJSON {
	r := ResultJSON{
		Policy: string(o.Policy.Name), MaxTurnsStuck: o.Policy.MaxTurnsStuck, CheckInterval: o.Policy.CheckInterval,
		StuckWarningThreshold: o.Policy.WarningThreshold,
		TurnsSaved:            o.TurnsSaved, Length: o.Length, ScoreForgone: o.ScoreForgone,
		LaterScoreGain: o.LaterScoreGain(), LaterGain: o.LaterGain,
		ObjectiveProgress: o.ObjectiveProgress(), WindowObjectives: o.WindowObjectives,
		FalseTerminationCandidate: o.FalseTerminationCandidate(), TrulyStuck: o.TrulyStuck(), Censored: o.Censored,
		WarningStartTurn: nonZero(o.WarningStartTurn), LLMCallsSaved: o.LLMCallsSaved(callsPerTurn),
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
		Warnings: e.Warnings(), SelfCheck: e.selfCheckJSON(),
	}
	for _, d := range ep.Deaths {
		j.Deaths = append(j.Deaths, d.Turn)
	}
	if j.Warnings == nil {
		j.Warnings = []string{}
	}
	for i := range e.Outcomes {
		j.Results = append(j.Results, Result(ep, &e.Outcomes[i], e.CallsPerTurn))
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

// results appends rs, an array whose key is indented by ind.
func (jw *jsonWriter) results(b []byte, rs []ResultJSON, ind string) ([]byte, error) {
	in1, in2, in3 := ind+"  ", ind+"    ", ind+"      "
	field := func(name string) {
		b = append(b, in2...)
		b = append(b, '"')
		b = append(b, name...)
		b = append(b, `": `...)
	}
	num := func(name string, v int) {
		field(name)
		b = strconv.AppendInt(b, int64(v), 10)
		b = append(b, ",\n"...)
	}
	ptr := func(name string, v *int) {
		if v == nil {
			field(name)
			b = append(b, "null,\n"...)
			return
		}
		num(name, *v)
	}
	flag := func(name string, v bool) {
		field(name)
		b = strconv.AppendBool(b, v)
		b = append(b, ",\n"...)
	}
	var err error
	str := func(name string, v string) {
		field(name)
		if b, err = jw.str(b, v); err == nil {
			b = append(b, ",\n"...)
		}
	}
	b = append(b, "[\n"...)
	for i := range rs {
		r := &rs[i]
		b = append(b, in1...)
		b = append(b, "{\n"...)
		str("policy", r.Policy)
		num("max_turns_stuck", r.MaxTurnsStuck)
		num("check_interval", r.CheckInterval)
		num("stuck_warning_threshold", r.StuckWarningThreshold)
		ptr("termination_turn", r.TerminationTurn)
		ptr("turns_stuck", r.TurnsStuck)
		ptr("score_at_termination", r.ScoreAtTermination)
		if r.LocationAtTermination == nil {
			field("location_at_termination")
			b = append(b, "null,\n"...)
		} else {
			str("location_at_termination", *r.LocationAtTermination)
		}
		num("turns_saved", r.TurnsSaved)
		num("length", r.Length)
		num("score_forgone", r.ScoreForgone)
		flag("later_score_gain", r.LaterScoreGain)
		field("later_gain")
		if g := r.LaterGain; g == nil {
			b = append(b, "null,\n"...)
		} else {
			b = append(b, "{\n"...)
			b = append(b, in3...)
			b = append(b, `"turn": `...)
			b = strconv.AppendInt(b, int64(g.Turn), 10)
			b = append(b, ",\n"...)
			b = append(b, in3...)
			b = append(b, `"points": `...)
			b = strconv.AppendInt(b, int64(g.Points), 10)
			b = append(b, '\n')
			b = append(b, in2...)
			b = append(b, "},\n"...)
		}
		flag("objective_progress", r.ObjectiveProgress)
		field("window_objectives")
		switch {
		case r.WindowObjectives == nil:
			b = append(b, "null,\n"...)
		case len(r.WindowObjectives) == 0:
			b = append(b, "[],\n"...)
		default:
			if b, err = jw.indented(b, r.WindowObjectives, in2); err != nil {
				return nil, err
			}
			b = append(b, ",\n"...)
		}
		flag("false_termination_candidate", r.FalseTerminationCandidate)
		flag("truly_stuck", r.TrulyStuck)
		flag("censored", r.Censored)
		ptr("warning_start_turn", r.WarningStartTurn)
		field("llm_calls_saved")
		b = strconv.AppendInt(b, int64(r.LLMCallsSaved), 10)
		b = append(b, '\n')
		b = append(b, in1...)
		b = append(b, '}')
		if i < len(rs)-1 {
			b = append(b, ',')
		}
		b = append(b, '\n')
		if err != nil {
			return nil, err
		}
	}
	b = append(b, ind...)
	b = append(b, ']')
	return b, nil
}

// str appends s as a JSON string: plain printable ASCII as it is, anything
// else as encoding/json escapes it.
func (jw *jsonWriter) str(b []byte, s string) ([]byte, error) {
	plain := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			plain = false
			break
		}
	}
	if plain {
		b = append(b, '"')
		b = append(b, s...)
		return append(b, '"'), nil
	}
	return jw.indented(b, s, "")
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
