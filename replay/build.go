package replay

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/lbanalyze/lbanalyze/jsonl"
)

// Log is what one file yields: its replayable episodes, in file order, and the
// segments that cannot be replayed.
type Log struct {
	Source   string
	Episodes []*Episode // none when Options.OnEpisode takes them
	Rejected []Rejected
	Lines    int // lines read
	// Segments is how many segments the file holds, replayable or not: the
	// Segments of each of its episodes.
	Segments int
	// Problems are file-level: a read error that ended the file early.
	Problems []Problem
}

// Rejected is a segment of a log that cannot be replayed, and why.
type Rejected struct {
	Segment int
	ID      string
	Reason  string
	// Alike is how many segments right after this one were rejected for the
	// same reason; they are counted here (and in Reason) instead of listed.
	Alike int
}

// Options tune reading.
type Options struct {
	Codec jsonl.Codec // decoder of the lines that matter; jsonl.DefaultCodec when nil
	// MaxProblems is how many problems an episode keeps word for word (all are
	// counted); 10 when 0. The segments that cannot be replayed keep as many
	// between them.
	MaxProblems int
	// MaxLine bounds the length of a line that matters (jsonl.DefaultMaxLine
	// when 0): a longer one is skipped with a problem. Lines that do not
	// matter are passed over whatever their length.
	MaxLine int
	// MaxRatio bounds the decompression ratio of a compressed file
	// (jsonl.DefaultMaxRatio when 0, none when negative).
	MaxRatio int
	// OnEpisode, when set, is handed each replayable episode as soon as its
	// segment ends, instead of Log.Episodes, so that a long log of many
	// episodes need not be held whole. Its Segments is then 0: how many
	// segments the file holds is known at its end only (Log.Segments).
	OnEpisode func(*Episode)
}

// MaxTurn bounds turn numbers (ZorkGPT's max_turns was at most 5000), and
// MaxGap the jump from one turn to a later one: a corrupt line must not make
// the reader allocate for turns that never were.
const (
	MaxTurn = 200_000
	MaxGap  = 1000
	// MaxScore bounds scores so that their differences are exact (2^53).
	MaxScore = 1 << 53
)

// ReadFile reads the log at path ("-" for stdin). A large plain file is read
// on every core (parallel.go), with the same result.
func ReadFile(path string, stdin io.Reader, opt Options) (*Log, error) {
	if lg := readLarge(path, opt); lg != nil {
		return lg, nil
	}
	rc, err := jsonl.OpenLimited(path, stdin, jsonl.Limits{MaxRatio: opt.MaxRatio})
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return Read(rc, path, opt), nil
}

// Read reads one log from r; source names it in the episodes.
func Read(r io.Reader, source string, opt Options) *Log {
	b := newBuilder(source, opt)
	rd := jsonl.NewReaderOptions(r, b.lineOptions(b.skip, false))
	defer rd.Close()
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
		b.bytes += int64(len(line)) + 1
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if b.records == 0 {
			if reason := b.judge(startOf(line), n, rd.Unterminated); reason != "" {
				return b.reject(rd.Line(), reason)
			}
		}
		b.line(line, n, rd.Unterminated)
	}
	b.log.Lines = rd.Line()
	b.finish()
	return b.log
}

func newBuilder(source string, opt Options) *builder {
	if opt.Codec == nil {
		opt.Codec = jsonl.DefaultCodec
	}
	if opt.MaxProblems == 0 {
		opt.MaxProblems = 10
	}
	if opt.MaxLine <= 0 {
		opt.MaxLine = jsonl.DefaultMaxLine
	}
	b := &builder{opt: opt, log: &Log{Source: source}, strs: map[string]string{}}
	b.cur = b.newSegment()
	return b
}

// lineOptions are how the lines of a log are read; within: the stream starts
// inside the file.
func (b *builder) lineOptions(skip func([]byte) bool, within bool) jsonl.LineOptions {
	return jsonl.LineOptions{MaxLine: b.opt.MaxLine, Key: "event_type", Nested: "extras", Skip: skip, Within: within}
}

// tooLong notes line n, passed over for its length.
func (b *builder) tooLong(n int) {
	b.cur.lines++
	b.cur.problem(n, true, "line longer than %s, skipped", jsonl.Size(int64(b.opt.MaxLine)))
}

// stop notes what ended the reading at line n, unless it is the end.
func (b *builder) stop(n int, err error) {
	if !errors.Is(err, io.EOF) {
		b.readErr = &Problem{Line: n, Msg: "read error: " + err.Error()}
	}
}

// reject gives up a file that is not a log, after its line lines.
func (b *builder) reject(lines int, reason string) *Log {
	b.log.Lines = lines
	b.log.Rejected = []Rejected{{Segment: 1, Reason: reason}}
	return b.log
}

// skip is asked about a line too long to hold cheaply, once its event type is
// known: a line that is not decoded is passed over, after noting what its
// event type says of the era (final_action_selection lines, the longest of
// all, mark E3b).
func (b *builder) skip(eventType []byte) bool {
	info, ok := passOver(eventType)
	if ok {
		b.passed(info)
	}
	return ok
}

// passOver says whether a line of this event type is passed over, and its
// event (nil when lbanalyze knows none).
func passOver(eventType []byte) (*eventInfo, bool) {
	info := events[string(eventType)]
	return info, info == nil || !info.decode
}

// passed counts a line passed over by its event type.
func (b *builder) passed(info *eventInfo) {
	b.cur.lines++
	b.records++
	if info != nil {
		b.mark(info)
	}
}

// recordsNeeded is how many non-blank lines may come before the first log
// record: after that many, the file is not a ZorkGPT log.
const recordsNeeded = 5

// start is what a line says of whether its file is a log, as long as none
// of the lines before it was a log record.
type start struct {
	utf16  bool
	record bool
	bad    string // why it is not a record
}

func startOf(line []byte) start {
	s := start{utf16: jsonl.LooksUTF16(line), record: isRecord(line)}
	if !s.record {
		_, err := peek(line)
		if err == nil {
			err = errors.New("a JSON object without timestamp, level or event_type")
		}
		s.bad = err.Error()
	}
	return s
}

// judge says why a file is not a ZorkGPT log, judged from its first lines
// (while no record has been seen): UTF-16 text, or JSON (a state dump, a
// config file) whose first lines are not log records.
func (b *builder) judge(s start, n int, unterminated bool) string {
	b.nonBlank++
	if b.nonBlank == 1 && s.utf16 {
		return "looks like UTF-16, not UTF-8 (Windows PowerShell writes it with >): convert it first, e.g. iconv -f UTF-16 -t UTF-8"
	}
	if s.record {
		b.records++
		return ""
	}
	if b.firstBad == "" {
		b.firstBad = fmt.Sprintf("line %d: %s", n, s.bad)
	}
	if b.nonBlank < recordsNeeded || unterminated {
		return ""
	}
	return fmt.Sprintf("does not look like a ZorkGPT episode log: none of its first %d lines is a JSON log record (%s)", recordsNeeded, b.firstBad)
}

type builder struct {
	opt  Options
	log  *Log
	cur  *segment
	strs map[string]string // interned names and actions
	// dec and as hold the line being decoded: its strings may point into
	// the line, so whatever is kept is cloned (keep, intern).
	dec decoded
	as  arenas

	segments int   // segments closed so far
	bytes    int64 // bytes of the lines read
	// fabricated counts the turns made up for gaps in the turn numbers, over
	// all segments: they are bounded by the size of the file.
	fabricated int
	// problems of the segments that cannot be replayed, the first few, and
	// how many more there were.
	rejectedProblems []Problem
	moreProblems     int
	readErr          *Problem
	// segments that cannot be replayed beyond the first MaxRejected: counted
	// from the first of them on, not listed.
	moreRejected, firstUnlisted int

	lineNo   int    // the line being handled
	records  int    // log records (JSON objects with a timestamp, level or event type) seen
	nonBlank int    // non-blank lines seen, up to the first record
	firstBad string // what was wrong with the first line that is not a record
}

// segment is an episode being built.
type segment struct {
	ep       Episode
	problems []Problem       // the first MaxProblems
	nProblem int             // all problems
	skipped  int             // problems that skipped their line
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
	inits    int  // of which init events
	first    int  // the line of its first init event
	max      int  // MaxProblems
}

func (b *builder) newSegment() *segment {
	return &segment{starts: map[string]bool{}, deaths: map[int]bool{}, max: b.opt.MaxProblems}
}

// problem notes what was wrong with line n of the segment (skipped: the line
// could not be used). Only the first few are kept word for word: a file of a
// million bad lines must not cost a million messages.
func (s *segment) problem(n int, skipped bool, format string, args ...any) {
	s.nProblem++
	if skipped {
		s.skipped++
	}
	if len(s.problems) < s.max {
		s.problems = append(s.problems, Problem{Line: n, Msg: fmt.Sprintf(format, args...), Skipped: skipped})
	}
}

func (b *builder) line(line []byte, n int, unterminated bool) {
	decodeLine(line, unterminated, b.opt.Codec, &b.dec, &b.as)
	b.apply(&b.dec, n)
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
		b.close(b.cur, false)
		b.cur = b.newSegment()
	}
	if b.cur.first == 0 {
		b.cur.first = b.lineNo
	}
	b.cur.starts[kind] = true
	b.cur.inits++
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
		s.ep.ID = strings.Clone(*r.EpisodeID)
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
		hi := max(s.ran, s.last)
		switch {
		case turn < 0:
			s.problem(n, true, "%s without a turn", name)
		case turn == 0:
			s.problem(n, true, "%s for turn 0", name)
		case turn > MaxTurn:
			s.problem(n, true, "%s for turn %d, beyond %d", name, turn, MaxTurn)
		case turn > hi+MaxGap:
			s.problem(n, true, "%s for turn %d, %d turns after the last one (%d): ignored as corrupt", name, turn, turn-hi, hi)
		case turn > hi+1 && b.fabricated+turn-hi-1 > b.gapBudget():
			s.problem(n, true, "%s for turn %d, %d turns after the last one (%d): ignored as corrupt, as this file already skips %d turn numbers, more than its size allows",
				name, turn, turn-hi, hi, b.fabricated)
		default:
			return true
		}
		return false
	}
	// score reads a score, which must be small enough for differences of
	// scores to be exact.
	score := func(v *int64, what string) (int, bool) {
		if *v > MaxScore || *v < -MaxScore {
			s.problem(n, true, "%s %d is absurd (beyond ±2^53): %s skipped", what, *v, name)
			return 0, false
		}
		return int(*v), true
	}

	switch name {
	case "turn_completed", "turn_exception":
		if !perTurn() {
			return
		}
		if r.Score != nil && name == "turn_completed" {
			if _, ok := score(r.Score, "score"); !ok {
				return
			}
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
		b.reach(turn)
		s.last = max(s.last, turn)
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
			text = strings.Clone(*r.Objective)
		}
		s.ep.Objectives = append(s.ep.Objectives, Completion{Turn: turn, Objective: text})
		s.content = true
	case "objectives_updated":
		if turn < 0 {
			s.problem(n, true, "objectives_updated without a turn")
			return
		}
		count := 0
		if r.Objectives != nil {
			count = int(*r.Objectives)
		}
		s.ep.ObjectiveUpdates = append(s.ep.ObjectiveUpdates, ObjectiveUpdate{Turn: turn, Count: count})
	case "game_over_detected":
		if !perTurn() {
			return
		}
		reason := "game over"
		if r.Reason != nil {
			reason = strings.Clone(*r.Reason)
		}
		s.death(turn, reason)
	case "zork_response":
		z, raw := r.ZorkResponse, r.RawZorkResponse
		if turn > 0 && perTurn() && (z != nil && z.died || raw != nil && raw.died) {
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
			reason = strings.Clone(*r.Reason)
		}
		s.end = End{Reason: EndReason(reason), Turn: max(turn, 0)}
		if reason != string(EndGameOver) && reason != string(EndMaxTurns) {
			s.problem(n, false, "episode_completed with an unknown reason %q", reason)
		}
		if turn > 0 && turn <= MaxTurn && turn <= max(s.ran, s.last)+MaxGap && b.fabricated+turn-max(s.ran, s.last)-1 <= b.gapBudget() {
			b.reach(turn)
		}
	case "episode_finalized":
		s.finished = true
	case "episode_exception":
		detail := ""
		if r.Error != nil {
			detail = strings.Clone(*r.Error)
		}
		s.end = End{Reason: EndException, Turn: max(turn, 0), Detail: detail}
	case "stuck_termination":
		if !perTurn() {
			return
		}
		st := &StuckTermination{Turn: turn}
		if r.Score != nil {
			var ok bool
			if st.Score, ok = score(r.Score, "score"); !ok {
				return
			}
		}
		if r.TurnsStuck != nil {
			st.TurnsStuck = int(*r.TurnsStuck)
		}
		s.ep.Recorded.StuckTermination = st
		s.end = End{Reason: EndStuckTermination, Turn: turn, TurnsStuck: st.TurnsStuck}
		b.reach(turn)
		s.v1 = true
	case "score_change":
		if !perTurn() {
			return
		}
		c := RecordedChange{Turn: turn}
		var ok bool
		if r.OldScore != nil {
			if c.Old, ok = score(r.OldScore, "old_score"); !ok {
				return
			}
		}
		if r.NewScore == nil {
			s.problem(n, true, "score_change without new_score")
			return
		}
		if c.New, ok = score(r.NewScore, "new_score"); !ok {
			return
		}
		s.ep.Recorded.ScoreChanges = append(s.ep.Recorded.ScoreChanges, c)
		b.reach(turn)
		s.v1 = true
		if r.WasStuckFor != nil {
			s.v2 = true
		}
	case "objective_progress_reset":
		if !perTurn() {
			return
		}
		s.ep.Recorded.ObjectiveResets = append(s.ep.Recorded.ObjectiveResets, turn)
		b.reach(turn)
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

// turn returns the record of turn t, growing the table as needed (at once to
// max_turns when it is known).
func (s *segment) turn(t int) *Turn {
	if s.turns == nil && s.ep.MaxTurns > 0 && s.ep.MaxTurns <= MaxTurn {
		s.turns = make([]Turn, 0, s.ep.MaxTurns)
		s.have = make([]bool, 0, s.ep.MaxTurns)
	}
	for len(s.turns) < t {
		s.turns = append(s.turns, Turn{})
		s.have = append(s.have, false)
	}
	s.content = true
	return &s.turns[t-1]
}

// reach notes that the tracking of turn t ran, counting the turns that a gap
// before it makes up.
func (b *builder) reach(t int) {
	s := b.cur
	if hi := max(s.ran, s.last); t > hi+1 {
		b.fabricated += t - hi - 1
	}
	s.ran = max(s.ran, t)
}

// gapBudget is how many made-up turns (for gaps in the turn numbers) a file
// may have: plenty for real gaps (a crashed turn, a run of exceptions), but
// in proportion to its size, so that a small file of lines that jump 999
// turns, restart and jump again cannot make the reader hold millions of turns.
func (b *builder) gapBudget() int { return 10*MaxGap + int(b.bytes/16) }

func (s *segment) death(t int, reason string) {
	if s.deaths[t] {
		return
	}
	s.deaths[t] = true
	s.ep.Deaths = append(s.ep.Deaths, Death{Turn: t, Reason: reason})
}

// finish closes the last segment and gives the episodes their count.
func (b *builder) finish() {
	b.close(b.cur, true)
	b.log.Segments = b.segments
	for _, ep := range b.log.Episodes {
		ep.Segments = b.segments
	}
	for i := range b.log.Rejected {
		if r := &b.log.Rejected[i]; r.Alike > 0 {
			r.Reason += fmt.Sprintf(" (as are the %d segments after it)", r.Alike)
		}
	}
	if b.moreRejected > 0 {
		b.log.Rejected = append(b.log.Rejected, Rejected{Segment: b.firstUnlisted,
			Reason: fmt.Sprintf("cannot be replayed, nor can %d of the segments after it (a file's first %d such segments are listed one by one)", b.moreRejected-1, MaxRejected)})
	}
	if b.readErr != nil {
		b.log.Problems = append(b.log.Problems, *b.readErr)
	}
	b.log.Problems = append(b.log.Problems, b.rejectedProblems...)
	if b.moreProblems > 0 {
		b.log.Problems = append(b.log.Problems, Problem{Msg: fmt.Sprintf("… and %d more problems in segments that cannot be replayed", b.moreProblems)})
	}
}

// close builds a segment as soon as it ends, so that only the episodes are
// held: a file of a million init lines yields one rejection, not a million
// segments.
func (b *builder) close(s *segment, last bool) {
	if b.segments == 0 && s.lines == 0 && !last {
		return // nothing before the first init event
	}
	b.segments++
	ep, reason := b.build(s)
	if reason == "" {
		ep.Segment = b.segments
		if b.opt.OnEpisode != nil {
			b.opt.OnEpisode(ep)
		} else {
			b.log.Episodes = append(b.log.Episodes, ep)
		}
		return
	}
	if n := len(b.log.Rejected); n > 0 {
		if r := &b.log.Rejected[n-1]; r.Segment+r.Alike == b.segments-1 && r.Reason == reason && r.ID == s.ep.ID {
			r.Alike++
			b.keepProblems(s)
			return
		}
	}
	if len(b.log.Rejected) == MaxRejected {
		if b.moreRejected == 0 {
			b.firstUnlisted = b.segments
		}
		b.moreRejected++
		b.keepProblems(s)
		return
	}
	b.log.Rejected = append(b.log.Rejected, Rejected{Segment: b.segments, ID: s.ep.ID, Reason: reason})
	b.keepProblems(s)
}

// MaxRejected is how many segments that cannot be replayed a file lists one
// by one (alike ones in a row count as one); the rest are counted: a file of
// a million init lines of distinct ids must not cost a million messages.
const MaxRejected = 20

// keepProblems keeps the problems of a segment that cannot be replayed, up
// to MaxProblems over the whole file, and counts the rest.
func (b *builder) keepProblems(s *segment) {
	room := max(b.opt.MaxProblems-len(b.rejectedProblems), 0)
	keep := s.problems[:min(room, len(s.problems))]
	b.rejectedProblems = append(b.rejectedProblems, keep...)
	b.moreProblems += s.nProblem - len(keep)
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
		return nil, b.noTurns(s)
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
	if cap(s.turns) > 2*n+64 {
		// Sized from max_turns, but the episode ended early.
		s.turns = append([]Turn(nil), s.turns...)
	}
	ep.Turns = s.turns
	for _, o := range ep.Objectives {
		if o.Turn > n {
			s.problem(0, false, "objective_completed for turn %d, after the last complete turn %d: not replayed", o.Turn, n)
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
		s.problem(0, false, "stuck_termination at turn %d but the log goes on to turn %d", st.Turn, n)
	}

	ep.SkippedLines = s.skipped
	ep.ProblemCount = s.nProblem
	ep.Problems = s.problems
	return ep, ""
}

// noTurns says why a segment without turns is so, as precisely as it can:
// "empty file" only of a file without a byte.
func (b *builder) noTurns(s *segment) string {
	switch {
	case b.records == 0 && b.firstBad != "":
		return fmt.Sprintf("does not look like a ZorkGPT episode log: no line is a JSON log record (%s)", b.firstBad)
	case s.lines > 0 || b.records > 0 && s.inits == 0:
		return "no turns: no turn_completed or turn_exception (the run ended before turn 1?)"
	case s.inits > 0:
		return fmt.Sprintf("no turns: the log ends with the start of an episode (line %d) and nothing after it", s.first)
	case b.readErr != nil && b.log.Lines == 0:
		return "nothing could be read before the read error"
	case b.readErr != nil:
		return "no log records before the read error"
	case b.log.Lines > 0:
		return fmt.Sprintf("no log records: the file has only blank lines (%d)", b.log.Lines)
	}
	return "empty file"
}

// intern shares the strings that repeat turn after turn (room names, actions).
// s may point into the line being read: what is kept is a copy.
func (b *builder) intern(s string) string {
	if len(s) > 64 {
		return strings.Clone(s)
	}
	if v, ok := b.strs[s]; ok {
		return v
	}
	s = strings.Clone(s)
	b.strs[s] = s
	return s
}
