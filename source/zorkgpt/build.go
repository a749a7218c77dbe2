package zorkgpt

import (
	"fmt"
	"slices"
	"sync"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/source"
)

// builder turns the lines of one log into episodes, a segment at a time.
type builder struct {
	opt    source.Options
	name   string
	res    *source.Result
	emit   func(*episode.Episode)
	cur    *segment
	lineNo int // the line being handled

	// fabricated counts the turns made up for gaps in the turn numbers, over
	// all segments, and turnLines the turns the file completes: the one is
	// bounded by the other.
	fabricated, turnLines int
	// problems of the segments that cannot be replayed
	rejectedProblems source.Leftovers
	readErr          *episode.Problem
	rejections       source.Rejections

	records  int    // log records (JSON objects with a timestamp, level or event type) seen
	nonBlank int    // non-blank lines seen, up to the first record
	firstBad string // what was wrong with the first line that is not a record
}

// segment is an episode being built.
type segment struct {
	ep       episode.Episode
	problems source.Problems
	starts   map[string]bool // init events seen: a repeat starts a new segment
	turns    []episode.Turn
	have     []bool     // turn_completed seen for turn t (index t-1)
	table    *turnTable // where turns and have lie, when from turnTables
	last     int        // the highest turn_completed / turn_exception so far
	ran      int        // the highest turn whose loop-break tracking ran, as logged
	older    string     // an E1/E2 event type seen
	e3c, e3b bool
	v1, v2   bool
	finished bool // episode_finalized seen
	end      episode.End
	deaths   map[int]bool
	jump     *jump // the last jump in the turn numbers, until a later line confirms it
	content  bool  // turn data seen: an init event after it starts a new segment
	lines    int   // non-blank lines attributed to this segment
	inits    int   // of which init events
	first    int   // the line of its first init event
	// texts are the names and actions the episode keeps, one copy for
	// alike ones.
	texts source.Texts
}

func newBuilder(name string, opt source.Options, emit func(*episode.Episode)) *builder {
	b := &builder{opt: opt.WithDefaults(), name: name, res: &source.Result{}, emit: emit}
	b.rejectedProblems.Max = b.opt.MaxProblems
	b.cur = b.newSegment()
	return b
}

func (b *builder) newSegment() *segment {
	return &segment{problems: source.Problems{Max: b.opt.MaxProblems}}
}

// problem notes what was wrong with line n of the segment (skipped: the line
// could not be used).
func (s *segment) problem(n int, skipped bool, format string, args ...any) {
	s.problems.Add(n, skipped, format, args...)
}

// apply hands line n's decoding to the segment being built.
func (b *builder) apply(d *decoded, n int) {
	b.cur.lines++
	b.lineNo = n
	for _, p := range d.problems {
		b.cur.problem(n, p.skipped, "%s", p.msg)
	}
	if d.event == nil {
		return
	}
	b.mark(d.event)
	if d.use && !b.foreign(d, n) {
		if t := turnField(&d.rec); t > 0 {
			b.settle(t)
		}
		d.event.handle(b, &d.rec, n)
	}
}

// foreign says whether a line belongs to another episode than the segment
// it falls in, and skips it with a word if so: two runs writing to one file,
// or one line of another, must not merge into one episode. A line that
// starts an episode, or turn 1 again (a restored session), begins a segment
// of its own.
func (b *builder) foreign(d *decoded, n int) bool {
	id, cur := d.rec.EpisodeID, b.cur.ep.ID
	if id == nil || *id == "" || cur == "" || source.SameText(*id, cur) || d.event.starts {
		return false
	}
	if d.event.turns && turnField(&d.rec) == 1 && b.cur.last > 1 {
		return false
	}
	b.cur.problem(n, true, "%s of episode %s in episode %s: skipped (lines of another run)", d.event.name, *id, cur)
	return true
}

// mark notes what an event type says of the era.
func (b *builder) mark(e *event) {
	s := b.cur
	switch e.era {
	case eraOlder:
		if e.name == "episode_start" {
			b.start(e.name)
			s = b.cur
		}
		if s.older == "" {
			s.older = e.name
		}
	case eraJericho:
		s.e3c = true
	case eraAgent:
		s.e3b = true
	}
	if e.v1 {
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
	if b.cur.starts == nil {
		b.cur.starts = map[string]bool{}
	}
	b.cur.starts[kind] = true
	b.cur.inits++
}

// turnOf is the turn a per-turn event names, if it is usable: positive,
// within source.MaxTurn, and not a jump that only corruption explains.
func (b *builder) turnOf(r *record, n int, name string) (int, bool) {
	s := b.cur
	turn := turnField(r)
	hi := max(s.ran, s.last)
	switch {
	case turn < 0:
		s.problem(n, true, "%s without a turn", name)
	case turn == 0:
		s.problem(n, true, "%s for turn 0", name)
	case turn > source.MaxTurn:
		s.problem(n, true, "%s for turn %d, beyond %d", name, turn, source.MaxTurn)
	case turn > hi+source.MaxGap:
		s.problem(n, true, "%s for turn %d, %d turns after the last one (%d): ignored as corrupt", name, turn, turn-hi, hi)
	case turn > hi+1 && b.fabricated+turn-hi-1 > b.gapBudget():
		s.problem(n, true, "%s for turn %d, %d turns after the last one (%d): ignored as corrupt, as this file already skips %d turn numbers, more than its turns allow",
			name, turn, turn-hi, hi, b.fabricated)
	default:
		if turn > hi+1 && s.jump == nil {
			s.jump = b.before(n, name, hi, turn)
		}
		return turn, true
	}
	return turn, false
}

// jump is a line that took the turn numbers forward by more than one, and
// what the segment was before it: a crash skips turns, but so does a corrupt
// turn number, which the lines after it contradict by going on from where
// the numbers were (docs/log-format.md, "9. Bad lines and other problems
// lbanalyze reports").
type jump struct {
	line                  int
	event                 string
	from, to              int // the highest turn before the line, and the line's
	turns, last, ran      int
	fabricated, turnLines int
	objectives, deaths    int
	resets, penalties     int
	overrides, loops      int
	stop                  *episode.Stop
	end                   episode.End
}

// before is the state of the current segment before line n, of event name,
// jumps from turn from to turn to.
func (b *builder) before(n int, name string, from, to int) *jump {
	s := b.cur
	rec := &s.ep.Recorded
	return &jump{line: n, event: name, from: from, to: to, turns: len(s.turns), last: s.last, ran: s.ran,
		fabricated: b.fabricated, turnLines: b.turnLines, objectives: len(s.ep.Objectives), deaths: len(s.ep.Deaths),
		resets: len(rec.Resets), penalties: len(rec.Penalties), overrides: len(rec.CriticOverrides), loops: len(rec.StateLoops),
		stop: rec.Stop, end: s.end}
}

// settle judges the last jump by a later line's turn t: a turn at or past
// the jump confirms it; a turn between where the numbers were and the jump
// shows the jump's line was the corrupt one, and it is undone, with a word.
func (b *builder) settle(t int) {
	s := b.cur
	j := s.jump
	switch {
	case j == nil:
		return
	case t >= j.to:
		s.jump = nil
		return
	case t <= j.from:
		return // an event of a turn already past: no word on the jump yet
	}
	s.jump = nil
	rec := &s.ep.Recorded
	s.turns, s.have = s.turns[:j.turns], s.have[:j.turns]
	s.last, s.ran, b.fabricated, b.turnLines = j.last, j.ran, j.fabricated, j.turnLines
	s.ep.Objectives, rec.Resets = s.ep.Objectives[:j.objectives], rec.Resets[:j.resets]
	rec.Penalties, rec.CriticOverrides, rec.StateLoops = rec.Penalties[:j.penalties], rec.CriticOverrides[:j.overrides], rec.StateLoops[:j.loops]
	for _, d := range s.ep.Deaths[j.deaths:] {
		delete(s.deaths, d.Turn)
	}
	s.ep.Deaths, rec.Stop, s.end = s.ep.Deaths[:j.deaths], j.stop, j.end
	s.problem(j.line, true, "%s for turn %d, after turn %d, while the lines after it go on from turn %d: ignored as a corrupt turn number",
		j.event, j.to, j.from, t)
}

// plausible is turnOf without a word: whether a turn an end event names may
// be reached.
func (b *builder) plausible(turn int) bool {
	s := b.cur
	hi := max(s.ran, s.last)
	return turn > 0 && turn <= source.MaxTurn && turn <= hi+source.MaxGap && b.fabricated+turn-hi-1 <= b.gapBudget()
}

// scoreOK checks that a score is small enough for differences of scores to
// be exact; a larger one skips its line.
func (b *builder) scoreOK(v int64, what, name string, n int) bool {
	if v > source.MaxScore || v < -source.MaxScore {
		b.cur.problem(n, true, "%s %d is absurd (beyond ±2^53): %s skipped", what, v, name)
		return false
	}
	return true
}

// quiet reports whether t is a usable turn for an informational event, which
// is dropped without a problem when it is not (its absence changes nothing of
// the replay).
func (s *segment) quiet(t int) bool {
	return t >= 1 && t <= source.MaxTurn && t <= max(s.ran, s.last)+source.MaxGap
}

// turn returns the record of turn t, growing the table as needed (at once to
// max_turns when it is known).
func (s *segment) turn(t int) *episode.Turn {
	if s.turns == nil && s.ep.MaxTurns > 0 && s.ep.MaxTurns <= source.MaxTurn {
		s.takeTable(s.ep.MaxTurns)
	}
	for len(s.turns) < t {
		s.turns = append(s.turns, episode.Turn{})
		s.have = append(s.have, false)
	}
	s.content = true
	return &s.turns[t-1]
}

// turnTables hold tables of turns sized to max_turns, for the segments being
// built: an episode keeps a copy of its turns (fillTurns) and its table
// serves the next, where a table of its own for each would be garbage at
// once (most episodes stop well before max_turns): `batch` over the 1,000
// synthetic episodes takes 1.15 times the time without them
// (docs/PERFORMANCE.md, "Many episodes").
var turnTables sync.Pool // of *turnTable

type turnTable struct {
	turns []episode.Turn
	have  []bool
}

// maxTableTurns bounds the tables turnTables keep (1.2 MB): a larger
// max_turns is a table of the segment's own.
const maxTableTurns = 10_000

// takeTable gives s a table of n turns.
func (s *segment) takeTable(n int) {
	if n > maxTableTurns {
		s.turns, s.have = make([]episode.Turn, 0, n), make([]bool, 0, n)
		return
	}
	t, _ := turnTables.Get().(*turnTable)
	if t == nil || cap(t.turns) < n {
		t = &turnTable{make([]episode.Turn, 0, n), make([]bool, 0, n)}
	}
	s.table, s.turns, s.have = t, t.turns[:0], t.have[:0]
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
// no more than the turns it completes and 10,000, so that a file of lines
// that jump 999 turns, restart and jump again costs at most twice the
// memory of its real turns.
func (b *builder) gapBudget() int { return 10*source.MaxGap + b.turnLines }

func (s *segment) death(t int, reason string) {
	if s.deaths[t] {
		return
	}
	if s.deaths == nil {
		s.deaths = map[int]bool{}
	}
	s.deaths[t] = true
	s.ep.Deaths = append(s.ep.Deaths, episode.Death{Turn: t, Reason: reason})
}

// finish closes the last segment and says what the file held.
func (b *builder) finish() *source.Result {
	b.close(b.cur, true)
	res := b.res
	b.rejections.AddTo(res)
	res.Cut = b.readErr
	b.rejectedProblems.AddTo(res)
	return res
}

// close builds a segment as soon as it ends, so that only the episodes are
// held: a file of a million init lines yields one rejection, not a million
// segments.
func (b *builder) close(s *segment, last bool) {
	if b.res.Segments == 0 && s.lines == 0 && !last {
		return // nothing before the first init event
	}
	b.res.Segments++
	ep, reason := b.build(s)
	if reason == "" {
		// A copy: the segment (its maps, its table of turns seen, sized to
		// max_turns) is let go with it, not kept as long as the episode.
		out := *ep
		out.Segment = b.res.Segments
		b.emit(&out)
		return
	}
	b.rejectedProblems.Keep(&s.problems)
	b.rejections.Add(b.res.Segments, s.ep.ID, reason)
}

// build makes the Episode of a segment, or says why it cannot.
func (b *builder) build(s *segment) (*episode.Episode, string) {
	ep := &s.ep
	ep.Source, ep.Format = b.name, Format
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
	b.describe(s)
	b.fillTurns(s, n)
	b.notes(s)
	for _, o := range ep.Objectives {
		if o.Turn > n {
			s.problem(0, false, "objective_completed for turn %d, after the last complete turn %d: not replayed", o.Turn, n)
			continue
		}
		ep.Turns[o.Turn-1].Objectives++
	}
	slices.SortStableFunc(ep.Deaths, func(a, b episode.Death) int { return a.Turn - b.Turn })
	switch {
	case s.end.Reason != "":
		ep.End = s.end
	case s.finished:
		ep.End = episode.End{Reason: episode.EndInterrupted, Turn: n}
	default:
		ep.End = episode.End{Reason: episode.EndNone, Truncated: true}
	}
	if st := ep.Recorded.Stop; st != nil && st.Turn != n {
		s.problem(0, false, "stuck_termination at turn %d but the log goes on to turn %d", st.Turn, n)
	}
	s.problems.Set(ep)
	return ep, ""
}

// describe sets what a ZorkGPT log says beyond the turns: its era, the loop
// break it ran, and the signals it records (docs/log-format.md, "2. Eras").
func (b *builder) describe(s *segment) {
	ep := &s.ep
	era := "E3a"
	switch {
	case s.e3c:
		era = "E3c"
	case s.e3b:
		era = "E3b"
	}
	version := ""
	switch {
	case s.v2:
		version = "v2"
	case s.v1:
		version = "v1"
	}
	ep.Recorded.Rules = recordedRules[version]
	ep.Facts = factsOf[[2]string{era, version}]
	ep.Signals = episode.Signals(0).With(episode.Objectives, episode.Rooms, episode.Actions)
	if era != "E3a" {
		ep.Signals = ep.Signals.With(episode.Responses)
	}
	if version != "" {
		ep.Signals = ep.Signals.With(episode.Penalties) // Phase 1B came with the loop break (09a7cc2)
	}
}

// The facts of each era and loop-break version, and the rules each version
// ran, most likely first: made once and shared by the episodes, which only
// read them (a copy each cost 150 bytes an episode).
var (
	recordedRules = map[string][]string{"v2": {"score-or-objective", "score"}, "v1": {"score", "score-or-objective"}}
	factsOf       = func() map[[2]string][]episode.Fact {
		m := map[[2]string][]episode.Fact{}
		for _, era := range []string{"E3a", "E3b", "E3c"} {
			for _, version := range []string{"", "v1", "v2"} {
				m[[2]string{era, version}] = []episode.Fact{{Key: "era", Value: &era, Text: "era " + era}, loopBreakFact(version)}
			}
		}
		return m
	}()
)

// notes are the caveats of a ZorkGPT log: turns it does not complete, and an
// era before Jericho.
func (b *builder) notes(s *segment) {
	ep := &s.ep
	if ep.MissingTurns > 0 {
		verb := "turns have"
		if ep.MissingTurns == 1 {
			verb = "turn has"
		}
		ep.Notes = append(ep.Notes, fmt.Sprintf("%d %s no turn_completed (%d with turn_exception): the score is carried forward, as the shipped tracker saw it",
			ep.MissingTurns, verb, ep.ExceptionTurns))
	}
	if era := *ep.Facts[0].Value; era != "E3c" {
		ep.Notes = append(ep.Notes, eraNote[era])
	}
	if note := s.texts.Note(); note != "" {
		ep.Notes = append(ep.Notes, note)
	}
}

// eraNote is the caveat of each era before Jericho, made once.
var eraNote = func() map[string]string {
	m := map[string]string{}
	for _, era := range []string{"E3a", "E3b"} {
		m[era] = fmt.Sprintf("era %s (before Jericho, 2025-10-17): scores were parsed from the status line and may be stale; no game over was detected", era)
	}
	return m
}()

func loopBreakFact(version string) episode.Fact {
	if version == "" {
		return episode.Fact{Key: "recorded_loop_break", Text: "no loop break recorded"}
	}
	return episode.Fact{Key: "recorded_loop_break", Value: &version, Text: "recorded loop break " + version}
}

// fillTurns completes the turns 1..n: a turn whose tracking ran but whose
// turn_completed is missing keeps the previous score (docs/semantics.md,
// "5.5.10 Turns without turn_completed still count"), unless the recording's
// own score_change for that turn tells the score the tracker saw; rooms carry
// forward from the starting room.
func (b *builder) fillTurns(s *segment, n int) {
	ep := &s.ep
	changed := map[int]int{}
	for _, c := range ep.Recorded.Resets {
		if c.Kind == episode.ScoreChangeReset {
			changed[c.Turn] = c.New
		}
	}
	s.turn(n)
	score, room, loc := episode.Score(0), ep.InitialRoomID, ep.InitialRoom
	for t := 1; t <= n; t++ {
		tu := &s.turns[t-1]
		if !s.have[t-1] {
			tu.Missing = true
			ep.MissingTurns++
			if tu.Exception {
				ep.ExceptionTurns++
			}
			if v, ok := changed[t]; ok {
				score = episode.Score(v)
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
	if s.table != nil || cap(s.turns) > 2*n+64 {
		// Sized from max_turns, but the episode ended early, or a table
		// for the next.
		s.turns = slices.Clone(s.turns)
	}
	if s.table != nil {
		turnTables.Put(s.table)
		s.table, s.have = nil, nil
	}
	ep.Turns = s.turns
}

// noTurns says why a segment without turns is so, as precisely as it can.
func (b *builder) noTurns(s *segment) string {
	switch {
	case b.records == 0 && b.firstBad != "":
		return fmt.Sprintf("does not look like a ZorkGPT episode log: no line is a JSON log record (%s)", b.firstBad)
	case s.lines > 0 || b.records > 0 && s.inits == 0:
		return "no turns: no turn_completed or turn_exception (the run ended before turn 1?)"
	case s.inits > 0:
		return fmt.Sprintf("no turns: the log ends with the start of an episode (line %d) and nothing after it", s.first)
	case b.readErr != nil && b.res.Lines == 0:
		return "nothing could be read before the read error"
	case b.readErr != nil:
		return "no log records before the read error"
	case b.res.Lines > 0:
		return fmt.Sprintf("no log records: the file has only blank lines (%d)", b.res.Lines)
	}
	return "empty file"
}
