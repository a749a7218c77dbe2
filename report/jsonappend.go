package report

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/lbanalyze/lbanalyze/replay"
)

// The results of a grid are most of the bytes of `episode --format json`
// (90,000 of them for 6,000 configs over 15 episodes), and encoding/json
// spends most of its time on them in reflection and in re-indenting its own
// output. appendResult writes a result directly, byte for byte as
// encoding/json's Encoder with SetIndent(prefix, "  ") and SetEscapeHTML(false)
// writes it: TestAppendResultEqualsEncodingJSON holds it to that on results
// with every field set at random (null and empty too, strings that need
// escapes), so a field added to ResultJSON and not written here fails it.

// appendResult appends r as the encoder writes it with a prefix, its opening
// brace where b ends; lines is resultLines(prefix). r.CostSaved must be finite
// (the encoder fails on NaN and infinities; the caller leaves those to it).
func appendResult(b []byte, r *ResultJSON, lines string) []byte {
	o := jsonObject{b: b, lines: lines, depth: 1}
	o.b = append(o.b, '{')
	o.text("policy", r.Policy)
	o.num("max_turns_stuck", r.MaxTurnsStuck)
	o.num("check_interval", r.CheckInterval)
	o.num("stuck_warning_threshold", r.StuckWarningThreshold)
	o.numOrNull("termination_turn", r.TerminationTurn)
	o.numOrNull("turns_stuck", r.TurnsStuck)
	o.numOrNull("score_at_termination", r.ScoreAtTermination)
	o.key("location_at_termination")
	if r.LocationAtTermination == nil {
		o.b = append(o.b, "null"...)
	} else {
		o.b = appendJSONString(o.b, *r.LocationAtTermination)
	}
	o.num("turns_saved", r.TurnsSaved)
	o.num("length", r.Length)
	o.num("score_forgone", r.ScoreForgone)
	o.flag("later_score_gain", r.LaterScoreGain)
	o.key("later_gain")
	if g := r.LaterGain; g == nil {
		o.b = append(o.b, "null"...)
	} else {
		o.open('{')
		o.num("turn", g.Turn)
		o.num("points", g.Points)
		o.num("distance", g.Distance)
		o.close('}')
	}
	o.numOrNull("gain_horizon", r.GainHorizon)
	o.flag("objective_progress", r.ObjectiveProgress)
	o.key("window_objectives")
	o.completions(r.WindowObjectives)
	o.flag("false_termination_candidate", r.FalseTerminationCandidate)
	o.flag("truly_stuck", r.TrulyStuck)
	o.flag("censored", r.Censored)
	o.numOrNull("warning_start_turn", r.WarningStartTurn)
	o.num("llm_calls_saved", r.LLMCallsSaved)
	o.key("cost_saved")
	if r.CostSaved == nil {
		o.b = append(o.b, "null"...)
	} else {
		o.b = appendJSONFloat(o.b, *r.CostSaved)
	}
	o.depth--
	o.newline()
	o.b = append(o.b, '}')
	return o.b
}

// resultDepth is the deepest indentation within a result: the members of a
// window objective.
const resultDepth = 3

// resultLines is a newline, prefix, and the indentation of resultDepth: its
// beginnings are the line starts of a result written with prefix.
func resultLines(prefix string) string {
	return "\n" + prefix + strings.Repeat("  ", resultDepth)
}

// jsonObject appends indented JSON as the encoder indents it: the prefix,
// then two spaces a level of depth.
type jsonObject struct {
	b     []byte
	lines string // resultLines(prefix)
	depth int
	more  bool // a value was written at depth: the next needs a comma
}

// newline starts a line at the indentation of depth.
func (o *jsonObject) newline() {
	o.b = append(o.b, o.lines[:len(o.lines)-2*(resultDepth-o.depth)]...)
}

// key starts the next member: the comma ending the previous one, a new line,
// and the key (every key of ResultJSON is plain ASCII: no escape).
func (o *jsonObject) key(k string) {
	o.item()
	o.b = append(o.b, '"')
	o.b = append(o.b, k...)
	o.b = append(o.b, '"', ':', ' ')
}

// item starts the next element of an array or member of an object.
func (o *jsonObject) item() {
	if o.more {
		o.b = append(o.b, ',')
	}
	o.more = true
	o.newline()
}

// open opens a non-empty object or array one level deeper.
func (o *jsonObject) open(c byte) {
	o.b = append(o.b, c)
	o.depth++
	o.more = false
}

// close closes what open opened.
func (o *jsonObject) close(c byte) {
	o.depth--
	o.more = true
	o.newline()
	o.b = append(o.b, c)
}

// num, numOrNull, flag and text append a member of each kind of value.
func (o *jsonObject) num(k string, v int) {
	o.key(k)
	o.b = strconv.AppendInt(o.b, int64(v), 10)
}

func (o *jsonObject) numOrNull(k string, p *int) {
	if p == nil {
		o.key(k)
		o.b = append(o.b, "null"...)
		return
	}
	o.num(k, *p)
}

func (o *jsonObject) flag(k string, v bool) {
	o.key(k)
	o.b = strconv.AppendBool(o.b, v)
}

func (o *jsonObject) text(k, v string) {
	o.key(k)
	o.b = appendJSONString(o.b, v)
}

// completions appends the window objectives: null, [] or one object each.
func (o *jsonObject) completions(cs []replay.Completion) {
	switch {
	case cs == nil:
		o.b = append(o.b, "null"...)
		return
	case len(cs) == 0:
		o.b = append(o.b, "[]"...)
		return
	}
	o.open('[')
	for i := range cs {
		o.item()
		o.open('{')
		o.num("turn", cs[i].Turn)
		o.text("objective", cs[i].Objective)
		o.close('}')
	}
	o.close(']')
}

// appendJSONString appends s quoted as encoding/json quotes a string without
// HTML escaping: \" \\ \b \f \n \r \t, \u00XX for the other control
// characters, \ufffd for each byte of invalid UTF-8, \u2028 and \u2029
// escaped, everything else as it is.
func appendJSONString[S ~string](b []byte, s S) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(string(s[i:]))
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendJSONFloat appends a finite f as encoding/json writes a float64: as
// ES6 converts a number to a string ('f', or 'e' below 1e-6 and from 1e21,
// with no leading zero in the exponent).
func appendJSONFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// e-09 to e-9
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}
