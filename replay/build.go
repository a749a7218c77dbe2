package replay

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"

	"github.com/lbanalyze/lbanalyze/jsonl"
)

// Log is what one file yields: its replayable episodes, in file order, and the
// segments that cannot be replayed.
type Log struct {
	Source   string
	Episodes []*Episode
	Rejected []Rejected
	Lines    int // lines read
	// Problems are file-level: a read error that ended the file early.
	Problems []Problem
}

// Rejected is a segment of a log that cannot be replayed, and why.
type Rejected struct {
	Segment int
	ID      string
	Reason  string
}

// Options tune reading.
type Options struct {
	Codec jsonl.Codec // decoder of the lines that matter; jsonl.DefaultCodec when nil
	// MaxProblems is how many problems an episode keeps word for word (all are
	// counted); 10 when 0.
	MaxProblems int
}

// MaxTurn bounds turn numbers (ZorkGPT's max_turns was at most 5000), and
// MaxGap the jump from one turn to a later one: a corrupt line must not make
// the reader allocate for turns that never were.
const (
	MaxTurn = 200_000
	MaxGap  = 1000
)

// ReadFile reads the log at path ("-" for stdin).
func ReadFile(path string, stdin io.Reader, opt Options) (*Log, error) {
	rc, err := jsonl.Open(path, stdin)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return Read(rc, path, opt), nil
}

// Read reads one log from r; source names it in the episodes.
func Read(r io.Reader, source string, opt Options) *Log {
	if opt.Codec == nil {
		opt.Codec = jsonl.DefaultCodec
	}
	if opt.MaxProblems == 0 {
		opt.MaxProblems = 10
	}
	b := &builder{opt: opt, log: &Log{Source: source}, strs: map[string]string{}}
	b.cur = b.newSegment()
	rd := jsonl.NewReader(r)
	for {
		line, n, err := rd.Next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				b.log.Problems = append(b.log.Problems, Problem{Line: n, Msg: "read error: " + err.Error()})
			}
			break
		}
		b.log.Lines = n
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		b.line(line, n, rd.Unterminated)
	}
	b.finish()
	return b.log
}

type builder struct {
	opt      Options
	log      *Log
	cur      *segment
	segments []*segment
	strs     map[string]string // interned names and actions
}

// segment is an episode being built.
type segment struct {
	ep       Episode
	problems []Problem
	starts   map[string]bool // init events seen: a repeat starts a new segment
	turns    []Turn
	have     []bool // turn_completed seen for turn t (index t-1)
	last     int    // the highest turn_completed / turn_exception so far
	ran      int    // the highest turn whose loop-break tracking ran, as logged
	older    string // an E1/E2 event type seen
	e3c, e3b bool
	v1, v2   bool
	finished bool // episode_finalized seen
	end      End
	deaths   map[int]bool
	content  bool // turn data seen: an init event after it starts a new segment
	lines    int  // non-blank lines attributed to this segment
}

func (b *builder) newSegment() *segment {
	return &segment{starts: map[string]bool{}, deaths: map[int]bool{}}
}

// problem notes what was wrong with line n of the segment (skipped: the line
// could not be used).
func (s *segment) problem(n int, skipped bool, format string, args ...any) {
	s.problems = append(s.problems, Problem{Line: n, Msg: fmt.Sprintf(format, args...), Skipped: skipped})
}

func (b *builder) line(line []byte, n int, unterminated bool) {
	b.cur.lines++
	et, err := peek(line)
	if err != nil {
		if line, et, err = b.salvage(line, n, unterminated, err); err != nil {
			return
		}
	}
	info := events[string(et)]
	if info == nil {
		return
	}
	if info.decode && (info.need == nil || bytes.Contains(line, info.need)) {
		var rec record
		rep, err := b.opt.Codec.Decode(line, &rec)
		if err != nil {
			b.cur.problem(n, true, "cannot decode %s: %v", info.name, err)
			return
		}
		if rep&jsonl.RepairedUTF8 != 0 {
			b.cur.problem(n, false, "invalid UTF-8 in %s, replaced with U+FFFD", info.name)
		}
		rec.flatten()
		b.mark(info)
		b.event(info.name, &rec, n)
		return
	}
	b.mark(info)
}

// salvage handles a line that is not one JSON object. A killed run can leave a
// partial record that the next run's first record continues on the same line:
// the complete one is kept. Otherwise the line is reported and skipped.
func (b *builder) salvage(line []byte, n int, unterminated bool, err error) ([]byte, []byte, error) {
	if i := bytes.LastIndex(line, []byte(`{"timestamp": `)); i > 0 {
		if et, err2 := peek(line[i:]); err2 == nil {
			b.cur.problem(n, true, "a broken record (%v) runs into a complete one at column %d: only the complete one is used", err, i+1)
			return line[i:], et, nil
		}
	}
	if unterminated {
		b.cur.problem(n, true, "truncated last line (no newline at the end of the file): %v", err)
	} else {
		b.cur.problem(n, true, "invalid JSON: %v", err)
	}
	return nil, nil, err
}

// mark notes what an event type says of the era.
func (b *builder) mark(info *eventInfo) {
	s := b.cur
	switch info.era {
	case eraOlder:
		if info.name == "episode_start" {
			b.start(info.name)
			s = b.cur
		}
		if s.older == "" {
			s.older = info.name
		}
	case eraJericho:
		s.e3c = true
	case eraAgent:
		s.e3b = true
	}
	if info.v1 {
		s.v1 = true
	}
}

// start begins a new segment at an init event, unless the current one has no
// turns yet and has not seen this kind of init event (HEAD writes
// orchestrator_init, progress{episode_initialization} and episode_initialized
// at the start of one episode).
func (b *builder) start(kind string) {
	if b.cur.content || b.cur.starts[kind] {
		b.segments = append(b.segments, b.cur)
		b.cur = b.newSegment()
	}
	b.cur.starts[kind] = true
}

func (b *builder) event(name string, r *record, n int) {
	switch name {
	case "orchestrator_init":
		b.start(name)
		if r.GameFilePath != nil {
			b.cur.e3c = true
		}
		if r.EpisodeID != nil {
			b.cur.e3b = true // per-episode files, f6a0487+
		}
		if r.CriticEnabled != nil {
			b.cur.v2 = true // d5a6688+, which contains the v2 loop break
		}
	case "episode_initialized":
		b.start(name)
	case "progress":
		if r.Stage != nil && *r.Stage == "episode_initialization" {
			b.start("progress")
		}
		return
	}
	s := b.cur
	if r.EpisodeID != nil && *r.EpisodeID != "" && s.ep.ID == "" {
		s.ep.ID = *r.EpisodeID
	}
	if r.MaxTurns != nil && (name == "orchestrator_init" || name == "episode_initialized") {
		s.ep.MaxTurns = int(*r.MaxTurns)
	}
	turn := -1
	if r.Turn != nil {
		turn = int(*r.Turn)
	} else if r.TurnNumber != nil {
		turn = int(*r.TurnNumber)
	}
	perTurn := func() bool {
		switch {
		case turn < 0:
			s.problem(n, true, "%s without a turn", name)
		case turn == 0:
			s.problem(n, true, "%s for turn 0", name)
		case turn > MaxTurn:
			s.problem(n, true, "%s for turn %d, beyond %d", name, turn, MaxTurn)
		case turn > max(s.ran, s.last)+MaxGap:
			s.problem(n, true, "%s for turn %d, %d turns after the last one (%d): ignored as corrupt", name, turn, turn-max(s.ran, s.last), max(s.ran, s.last))
		default:
			return true
		}
		return false
	}

	switch name {
	case "turn_completed", "turn_exception":
		if !perTurn() {
			return
		}
		if turn < s.last {
			if turn == 1 {
				// Turn numbers restart at 1: a restored session without an init line.
				b.start("restart")
				s = b.cur
				s.problem(n, false, "turn numbers restart at 1 without an init event: a new session")
			} else {
				s.problem(n, true, "%s for turn %d after turn %d: out of order", name, turn, s.last)
				return
			}
		}
		t := s.turn(turn)
		if name == "turn_exception" {
			t.Exception = true
		} else {
			if s.have[turn-1] {
				s.problem(n, false, "turn_completed for turn %d again: the later one is used", turn)
			}
			s.have[turn-1] = true
			if r.Score != nil {
				t.Score = int(*r.Score)
			} else {
				s.have[turn-1] = false
				s.problem(n, false, "turn_completed for turn %d has no score: the previous score is carried forward", turn)
			}
			if r.Action != nil {
				t.Action = b.intern(*r.Action)
			}
			if r.Location != nil && *r.Location != "" {
				t.Location = b.intern(*r.Location)
			}
		}
		s.last = max(s.last, turn)
		s.ran = max(s.ran, turn)
	case "map_movement_update":
		if !perTurn() || turn < s.last {
			return
		}
		t := s.turn(turn)
		if r.ToRoomID != nil {
			t.RoomID = int(*r.ToRoomID)
			s.e3c = true
		}
		if t.Location == "" && r.ToRoom != nil {
			t.Location = b.intern(*r.ToRoom)
		}
	case "map_initial_room_added":
		if r.RoomID != nil {
			s.ep.InitialRoomID = int(*r.RoomID)
		}
		if r.RoomName != nil {
			s.ep.InitialRoom = b.intern(*r.RoomName)
		}
	case "objective_completed":
		if !perTurn() {
			return
		}
		text := ""
		if r.Objective != nil {
			text = *r.Objective
		}
		s.ep.Objectives = append(s.ep.Objectives, Completion{Turn: turn, Objective: text})
		s.content = true
	case "objectives_updated":
		if turn < 0 {
			s.problem(n, true, "objectives_updated without a turn")
			return
		}
		s.ep.ObjectiveUpdates = append(s.ep.ObjectiveUpdates, ObjectiveUpdate{Turn: turn, Objectives: r.Objectives})
	case "game_over_detected":
		if !perTurn() {
			return
		}
		reason := "game over"
		if r.Reason != nil {
			reason = *r.Reason
		}
		s.death(turn, reason)
	case "zork_response":
		z, raw := r.ZorkResponse, r.RawZorkResponse
		if turn > 0 && (z != nil && z.died || raw != nil && raw.died) {
			s.death(turn, "death text in zork_response")
		}
		if z != nil && z.hash != 0 && s.quiet(turn) && turn >= s.last {
			s.turn(turn).ResponseHash = z.hash
		}
	case "location_penalty_applied":
		if !s.quiet(turn) {
			return
		}
		p := RecordedPenalty{Turn: turn, LocationID: int(deref(r.LocationID)), RecentVisits: int(deref(r.RecentVisits)),
			BaseConfidence: floatOrNaN(r.BaseConfidence), AdjustedConfidence: floatOrNaN(r.AdjustedConfidence)}
		s.ep.Recorded.Penalties = append(s.ep.Recorded.Penalties, p)
	case "critic_override":
		if !s.quiet(turn) {
			return
		}
		reason := ""
		if r.Reason != nil {
			reason = *r.Reason
		}
		s.ep.CriticOverrides = append(s.ep.CriticOverrides, CriticOverride{Turn: turn, Reason: b.intern(reason)})
	case "state_loop_detected":
		if !s.quiet(turn) {
			return
		}
		s.ep.StateLoops = append(s.ep.StateLoops, StateLoop{Turn: turn, LoopStartTurn: int(deref(r.LoopStartTurn)), TurnsInLoop: int(deref(r.TurnsInLoop))})
	case "episode_completed":
		reason := ""
		if r.Reason != nil {
			reason = *r.Reason
		}
		s.end = End{Reason: EndReason(reason), Turn: max(turn, 0)}
		if reason != string(EndGameOver) && reason != string(EndMaxTurns) {
			s.problem(n, false, "episode_completed with an unknown reason %q", reason)
		}
		if turn > 0 && turn <= max(s.ran, s.last)+MaxGap {
			s.ran = max(s.ran, turn)
		}
	case "episode_finalized":
		s.finished = true
	case "episode_exception":
		detail := ""
		if r.Error != nil {
			detail = *r.Error
		}
		s.end = End{Reason: EndException, Turn: max(turn, 0), Detail: detail}
	case "stuck_termination":
		if !perTurn() {
			return
		}
		st := &StuckTermination{Turn: turn}
		if r.Score != nil {
			st.Score = int(*r.Score)
		}
		if r.TurnsStuck != nil {
			st.TurnsStuck = int(*r.TurnsStuck)
		}
		s.ep.Recorded.StuckTermination = st
		s.end = End{Reason: EndStuckTermination, Turn: turn, TurnsStuck: st.TurnsStuck}
		s.ran = max(s.ran, turn)
		s.v1 = true
	case "score_change":
		if !perTurn() {
			return
		}
		c := RecordedChange{Turn: turn}
		if r.OldScore != nil {
			c.Old = int(*r.OldScore)
		}
		if r.NewScore == nil {
			s.problem(n, true, "score_change without new_score")
			return
		}
		c.New = int(*r.NewScore)
		s.ep.Recorded.ScoreChanges = append(s.ep.Recorded.ScoreChanges, c)
		s.ran = max(s.ran, turn)
		s.v1 = true
		if r.WasStuckFor != nil {
			s.v2 = true
		}
	case "objective_progress_reset":
		if !perTurn() {
			return
		}
		s.ep.Recorded.ObjectiveResets = append(s.ep.Recorded.ObjectiveResets, turn)
		s.ran = max(s.ran, turn)
		s.v2 = true
	}
}

// quiet reports whether t is a usable turn for an informational event, which
// is dropped without a problem when it is not (its absence changes nothing of
// the replay).
func (s *segment) quiet(t int) bool {
	return t >= 1 && t <= MaxTurn && t <= max(s.ran, s.last)+MaxGap
}

func deref(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

func floatOrNaN(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}

// turn returns the record of turn t, growing the table as needed.
func (s *segment) turn(t int) *Turn {
	for len(s.turns) < t {
		s.turns = append(s.turns, Turn{})
		s.have = append(s.have, false)
	}
	s.content = true
	return &s.turns[t-1]
}

func (s *segment) death(t int, reason string) {
	if s.deaths[t] {
		return
	}
	s.deaths[t] = true
	s.ep.Deaths = append(s.ep.Deaths, Death{Turn: t, Reason: reason})
}

// finish closes the last segment and turns segments into episodes.
func (b *builder) finish() {
	b.segments = append(b.segments, b.cur)
	if len(b.segments) > 1 && b.segments[0].lines == 0 {
		b.segments = b.segments[1:]
	}
	for i, s := range b.segments {
		ep, reason := b.build(s)
		if reason != "" {
			b.log.Rejected = append(b.log.Rejected, Rejected{Segment: i + 1, ID: s.ep.ID, Reason: reason})
			b.log.Problems = append(b.log.Problems, s.problems...)
			continue
		}
		ep.Segment = i + 1
		ep.Segments = len(b.segments)
		b.log.Episodes = append(b.log.Episodes, ep)
	}
}

// build makes the Episode of a segment, or says why it cannot.
func (b *builder) build(s *segment) (*Episode, string) {
	ep := &s.ep
	ep.Source = b.log.Source
	n := s.ran
	if s.older != "" && s.last == 0 {
		return nil, fmt.Sprintf("unsupported era: this is a log of ZorkGPT before 2025-06-08 (era E1/E2, %s events), which lbanalyze cannot replay yet", s.older)
	}
	if n == 0 {
		if s.lines == 0 {
			return nil, "empty file"
		}
		return nil, "no turns: no turn_completed or turn_exception (the run ended before turn 1?)"
	}
	if ep.ID == "" {
		ep.ID = "(no episode id)"
	}
	switch {
	case s.e3c:
		ep.Era = "E3c"
	case s.e3b:
		ep.Era = "E3b"
	default:
		ep.Era = "E3a"
	}
	switch {
	case s.v2:
		ep.LoopBreak = "v2"
	case s.v1:
		ep.LoopBreak = "v1"
	}
	// A turn whose tracking ran but whose turn_completed is missing keeps the
	// previous score (§5.5 item 10), unless the recording's own score_change
	// for that turn tells the score the tracker saw.
	changed := map[int]int{}
	for _, c := range ep.Recorded.ScoreChanges {
		changed[c.Turn] = c.New
	}
	s.turn(n)
	score, room, loc := 0, ep.InitialRoomID, ep.InitialRoom
	for t := 1; t <= n; t++ {
		tu := &s.turns[t-1]
		if !s.have[t-1] {
			tu.Missing = true
			ep.MissingTurns++
			if tu.Exception {
				ep.ExceptionTurns++
			}
			if v, ok := changed[t]; ok {
				score = v
			}
			tu.Score = score
		}
		score = tu.Score
		if tu.RoomID == 0 {
			tu.RoomID = room
		}
		if tu.Location == "" {
			tu.Location = loc
		}
		room, loc = tu.RoomID, tu.Location
	}
	if len(s.turns) > n {
		// Events of a turn whose tracking never ran (the run was killed mid-turn).
		s.turns, s.have = s.turns[:n], s.have[:n]
	}
	ep.Turns = s.turns
	for _, o := range ep.Objectives {
		if o.Turn > n {
			s.problems = append(s.problems, Problem{Msg: fmt.Sprintf("objective_completed for turn %d, after the last complete turn %d: not replayed", o.Turn, n)})
			continue
		}
		ep.Turns[o.Turn-1].Objectives++
	}
	sort.SliceStable(ep.Deaths, func(i, j int) bool { return ep.Deaths[i].Turn < ep.Deaths[j].Turn })

	switch {
	case s.end.Reason != "":
		ep.End = s.end
	case s.finished:
		ep.End = End{Reason: EndInterrupted, Turn: n}
	default:
		ep.End = End{Reason: EndNone}
	}
	if st := ep.Recorded.StuckTermination; st != nil && st.Turn != n {
		s.problems = append(s.problems, Problem{Msg: fmt.Sprintf("stuck_termination at turn %d but the log goes on to turn %d", st.Turn, n)})
	}

	for _, p := range s.problems {
		if p.Skipped {
			ep.SkippedLines++
		}
	}
	ep.ProblemCount = len(s.problems)
	ep.Problems = s.problems[:min(len(s.problems), b.opt.MaxProblems)]
	return ep, ""
}

// intern shares the strings that repeat turn after turn (room names, actions).
func (b *builder) intern(s string) string {
	if len(s) > 64 {
		return s
	}
	if v, ok := b.strs[s]; ok {
		return v
	}
	b.strs[s] = s
	return s
}
