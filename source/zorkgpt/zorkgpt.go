// Package zorkgpt is the source of ZorkGPT's episode_log.jsonl, in every era
// since June 2025 (docs/log-format.md): a segment per episode, rebuilt turn by
// turn, with the loop-break events the recording wrote itself.
package zorkgpt

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/jsonl"
	"github.com/lbanalyze/lbanalyze/source"
)

// Format is the log_format of ZorkGPT's logs.
const Format = "zorkgpt"

// Source reads ZorkGPT episode logs.
type Source struct{}

func (Source) Format() string { return Format }

// Opens takes episode_log.jsonl and any other JSON Lines file (a monolithic
// zork_episode_log.jsonl, a copy, compressed).
func (Source) Opens(name string) bool { return source.JSONLName(name) }

// Names are the names Opens takes.
func (Source) Names() []string { return source.JSONLNames }

// recordsNeeded is how many non-blank lines may come before the first log
// record: after that many, the file is not a ZorkGPT log.
const recordsNeeded = 5

// Claims takes a file one of whose first non-blank lines is a log record: a
// JSON object with a key Python's logging writes in every record (timestamp,
// level, event_type, extras). A first line longer than the head is judged by
// its beginning.
func (Source) Claims(head []byte) bool {
	lines := 0
	for len(head) > 0 && lines < recordsNeeded {
		line, rest, whole := bytes.Cut(head, []byte("\n"))
		head = rest
		line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		lines++
		if isRecord(line) || !whole && startsRecord(line) {
			return true
		}
	}
	return false
}

// startsRecord reports whether the beginning of a long line opens a record.
func startsRecord(line []byte) bool {
	line = bytes.TrimLeft(line, " \t")
	return bytes.HasPrefix(line, []byte(`{"timestamp": `)) || bytes.HasPrefix(line, []byte(`{"event_type": `)) ||
		bytes.HasPrefix(line, []byte(`{"level": `))
}

// Read streams the log r into its episodes.
func (Source) Read(r io.Reader, name string, opt source.Options, emit func(*episode.Episode)) *source.Result {
	b := newBuilder(name, opt, emit)
	rd := jsonl.NewReader(r, jsonl.LineOptions{MaxLine: b.opt.MaxLine, Skip: b.skip})
	defer rd.Close()
	var d decoded
	for {
		line, n, err := rd.Next()
		if errors.Is(err, jsonl.ErrLineTooLong) {
			b.tooLong(n)
			continue
		}
		if err != nil {
			b.stop(n, err)
			break
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if b.records == 0 {
			if reason := b.judge(line, n, rd.Unterminated); reason != "" {
				return b.reject(rd.Line(), reason)
			}
		}
		d.decode(line, rd.Unterminated)
		b.apply(&d, n)
	}
	b.res.Lines = rd.Line()
	return b.finish()
}

// tooLong notes line n, passed over for its length.
func (b *builder) tooLong(n int) {
	b.cur.lines++
	b.cur.problem(n, true, "line longer than %s, skipped", jsonl.Size(int64(b.opt.MaxLine)))
}

// stop notes what ended the reading at line n, unless it is the end.
func (b *builder) stop(n int, err error) {
	if !errors.Is(err, io.EOF) {
		b.readErr = &episode.Problem{Line: n, Msg: "read error: " + err.Error()}
	}
}

// reject gives up a file that is not a log, after its first lines.
func (b *builder) reject(lines int, reason string) *source.Result {
	b.res.Lines = lines
	b.res.Rejected = []source.Rejected{{Segment: 1, Reason: reason}}
	return b.res
}

// skip is asked about a line too long to hold cheaply, with its first
// bytes: a line whose event type there is one that is not decoded is passed
// over, after noting what the event type says of the era
// (final_action_selection lines, the longest of all, mark E3b). A line whose
// event type lies further on is held and judged whole.
func (b *builder) skip(head []byte) bool {
	et, err := firstEventType(head)
	e := events[string(et)]
	if err != nil || len(et) == 0 || e != nil && e.handle != nil || eventTypeTwice(head) {
		return false
	}
	b.cur.lines++
	b.records++
	if e != nil {
		b.mark(e)
	}
	return true
}

// judge says why a file is not a ZorkGPT log, judged from its first lines
// while no record has been seen: JSON (a state dump, a config file) whose
// first lines are not log records.
func (b *builder) judge(line []byte, n int, unterminated bool) string {
	b.nonBlank++
	if isRecord(line) {
		b.records++
		return ""
	}
	if b.firstBad == "" {
		b.firstBad = fmt.Sprintf("line %d: %s", n, notRecord(line))
	}
	if b.nonBlank < recordsNeeded || unterminated {
		return ""
	}
	return fmt.Sprintf("does not look like a ZorkGPT episode log: none of its first %d lines is a JSON log record (%s)", recordsNeeded, b.firstBad)
}
