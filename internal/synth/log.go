// Package synth writes ZorkGPT episode logs: line for line what ZorkGPT's HEAD
// orchestrator (era E3c) writes, key order, spacing and escapes included, from
// a turn-by-turn plan; and it generates such plans from a model of an agent
// playing Zork I, deterministically from a seed.
//
// The line formats follow docs/log-format.md, "3. Events" and "4. Order of events and turn numbers" and ZorkGPT's logger calls
// (orchestration/zork_orchestrator_v2.py at 36546b7/d5a6688).
package synth

import (
	"bufio"
	"fmt"
	"io"
	"time"
)

// Log writes the lines of one log file.
type Log struct {
	w *bufio.Writer
	// Clock is the time of the next line; callers advance it.
	Clock time.Time
	// TaskName adds "taskName": null after "message", as Python 3.12+ does.
	TaskName bool
	buf      []byte
	err      error
	lines    int
}

// NewLog returns a Log writing to w, starting at clock.
func NewLog(w io.Writer, clock time.Time) *Log {
	return &Log{w: bufio.NewWriterSize(w, 1<<16), Clock: clock}
}

// Record writes one line: timestamp, level, message, then the extras in order.
func (l *Log) Record(level, message string, extras ...KV) {
	l.Raw(l.line(level, message, extras))
}

// line renders one record with its newline, in a buffer reused by the next.
func (l *Log) line(level, message string, extras []KV) []byte {
	b := l.buf[:0]
	b = append(b, `{"timestamp": `...)
	b = appendPyString(b, pyTimestamp(l.Clock))
	b = append(b, `, "level": `...)
	b = appendPyString(b, level)
	b = append(b, `, "message": `...)
	b = appendPyString(b, message)
	if l.TaskName {
		b = append(b, `, "taskName": null`...)
	}
	for _, kv := range extras {
		b = append(b, ", "...)
		b = appendPyString(b, kv.Key)
		b = append(b, ": "...)
		b = appendPy(b, kv.Value)
	}
	b = append(b, "}\n"...)
	l.buf = b
	return b
}

// Raw writes bytes as they are (a broken line, for tests and fixtures).
func (l *Log) Raw(b []byte) {
	if l.err != nil {
		return
	}
	_, l.err = l.w.Write(b)
	l.lines++
}

// Tick advances the clock.
func (l *Log) Tick(d time.Duration) { l.Clock = l.Clock.Add(d) }

// Lines is how many lines were written.
func (l *Log) Lines() int { return l.lines }

// Flush writes out what is buffered and returns the first error.
func (l *Log) Flush() error {
	if l.err != nil {
		return l.err
	}
	return l.w.Flush()
}

// Event writes an INFO line with event_type first among the extras.
func (l *Log) Event(level, eventType, message string, extras ...KV) {
	l.Record(level, message, append([]KV{{"event_type", eventType}}, extras...)...)
}

// Progress writes a BaseManager.log_progress line (no episode_id).
func (l *Log) Progress(component, stage string, turn int, message, details string) {
	l.Event("INFO", "progress", message, KV{"component", component}, KV{"stage", stage},
		KV{"turn", turn}, KV{"details", details})
}

// Plain writes a line without event_type, as a plain logger.info call does.
func (l *Log) Plain(level, message string) { l.Record(level, message) }

func pct2(f float64) string { return fmt.Sprintf("%.2f", f) }
