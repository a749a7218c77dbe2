package steps

import (
	"cmp"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/jsonl"
	"github.com/lbanalyze/lbanalyze/source"
)

// builder turns the lines of one log into episodes.
type builder struct {
	src    Source
	format string // the log_format of its episodes
	name   string
	opt    source.Options
	emit   func(*episode.Episode)
	res    *source.Result
	match  *matcher
	runs   source.Runs[*segment]
	cur    *segment // the segment of the line being read

	restart, death *marker
	strs           source.Interner  // actions and rooms
	rejected       source.Leftovers // problems of the segments without a step
	rejections     source.Rejections

	// A preset's first episode, held until the file is read or another run
	// follows, and whether one has: Preset.Finish's several.
	first   *episode.Episode
	several bool
}

// segment is an episode being built.
type segment struct {
	ep       episode.Episode
	id       string
	named    bool // id came from the episode member
	turns    []episode.Turn
	numbered bool // a step number has been read
	offset   int  // 1 when the steps are numbered from 0
	restarts int
	capped   bool          // a step past source.MaxTurn has been named
	sum      episode.Score // the rewards so far, in a log of rewards
	maxScore *episode.Score
	member   *string // the value of source.Options.Member on the first step that has it
	problems source.Problems
	lacking  [nFields]int // steps without an optional member
	// responses are the response texts the episode keeps, by hash: one
	// copy for the steps whose responses are alike, let go with the
	// episode.
	responses map[uint64]string
}

func newBuilder(s Source, name string, opt source.Options, emit func(*episode.Episode)) *builder {
	if p, err := parsePath(opt.Member); err == nil {
		s.Fields.member = p
	}
	b := &builder{src: s, format: s.Format(), name: name, opt: opt.WithDefaults(), emit: emit, res: &source.Result{},
		match: newMatcher(&s.Fields), restart: newMarker(s.Fields.RestartMarker), death: newMarker(s.Fields.DeathMarker),
		strs: source.Interner{}}
	b.rejected.Max = b.opt.MaxProblems
	// Runs of one file: a new value of the episode member, or step numbers
	// that start again (docs/bad-input.md, "Runs in one file").
	b.runs = source.Runs[*segment]{Numbering: source.Numbering{Min: 0, Noun: "step"}, New: b.newSegment, End: b.close,
		Problem: func(s *segment, n int, skipped bool, msg string) { s.problem(n, skipped, "%s", msg) }}
	return b
}

func (b *builder) newSegment(key string) *segment {
	return &segment{id: key, named: b.src.Fields.Episode != nil, problems: source.Problems{Max: b.opt.MaxProblems}}
}

// problem notes what was wrong with line n (skipped: the step was not used).
func (s *segment) problem(n int, skipped bool, format string, args ...any) {
	s.problems.Add(n, skipped, format, args...)
}

// dotHint tells a line that has the nested path of field f as one key with
// dots how to name that key.
func (b *builder) dotHint(l *line, f field) string {
	if !l.dotted[f] {
		return ""
	}
	return "; its " + dotHint(b.src.Fields.paths()[f])
}

// dotHint says how to name the one key that path p spells with dots.
func dotHint(p Path) string {
	one := Path{strings.Join(p, ".")}
	return fmt.Sprintf("key %q has dots in it, but %s names a member %q nested in %q: name that key %s (in a fields file, [%q])",
		one[0], p, p[len(p)-1], p[0], one, one[0])
}

// member names a field in messages: its key, and what it is.
func (b *builder) member(f field) string {
	return fmt.Sprintf("%q (the %s)", b.src.Fields.key(f), names[f])
}

// step adds the step of line n to its run.
func (b *builder) step(l *line, n int) {
	key, ok := b.episodeOf(l, n)
	if !ok {
		return
	}
	b.cur = b.runs.Current(key, n)
	f := fScore
	if b.src.Fields.Reward != nil {
		f = fReward
	}
	v := l.get(f)
	if v.absent() {
		b.cur.problem(n, true, "no %s: this step is skipped%s", b.member(f), b.dotHint(l, f))
		return
	}
	x, why := v.number()
	if why != "" {
		b.cur.problem(n, true, "%s is %s: this step is skipped", b.member(f), why)
		return
	}
	t, ok := b.place(key, l, n)
	if !ok {
		return
	}
	s := b.cur
	score := episode.Score(x)
	if f == fReward {
		if score = s.sum.Add(score); score > maxWhole || score < -maxWhole {
			s.problem(n, true, "the sum of the rewards is beyond ±2^53: this step is skipped")
			return
		}
		s.sum = score
	}
	b.fill(t)
	tu := episode.Turn{Score: score}
	b.optional(l, n, &tu)
	s.turns = append(s.turns, tu)
	if v := l.get(fMember); s.member == nil && !v.absent() {
		m, ok := v.text()
		if !ok {
			m = string(v.raw) // a number or a literal, as written
		}
		m = source.Text(m)
		s.member = &m
	}
}

// episodeOf is the run key of a line: the episode member's value, "" when
// the map has none; false, with a problem, when the line lacks it.
func (b *builder) episodeOf(l *line, n int) (string, bool) {
	if b.src.Fields.Episode == nil {
		return "", true
	}
	v := l.get(fEpisode)
	if v.absent() {
		b.runs.Last(n).problem(n, true, "no %s: this step is skipped", b.member(fEpisode))
		return "", false
	}
	id, ok := v.text()
	if !ok {
		id = string(v.raw) // a number, as written
	}
	return id, true
}

// place is the turn of the step on line n: its number (from 1; a log that
// numbers from 0 is shifted), or its place in the lines; its run is b.cur.
// False, with a problem, for a number that cannot be placed.
func (b *builder) place(key string, l *line, n int) (int, bool) {
	s := b.cur
	if b.src.Fields.Turn == nil { // numbered by its place, bounded as a number
		if len(s.turns) >= source.MaxTurn { // said once, the later steps counted
			if !s.capped {
				s.capped = true
				s.problem(n, true, "%s", source.OutOfRange("step", int64(len(s.turns)+1), 1)+", as is every step after it")
			} else {
				s.problems.Count++
				s.problems.Skipped++
			}
			return 0, false
		}
		return len(s.turns) + 1, true
	}
	raw := l.get(fTurn)
	if raw.absent() {
		s.problem(n, true, "no %s: this step is skipped%s", b.member(fTurn), b.dotHint(l, fTurn))
		return 0, false
	}
	v, why := raw.whole()
	if why != "" {
		s.problem(n, true, "%s is %s: this step is skipped", b.member(fTurn), why)
		return 0, false
	}
	if s, ok := b.runs.Line(key, v, n); ok {
		b.cur = s
	} else {
		return 0, false
	}
	s = b.cur
	if !s.numbered {
		s.numbered = true
		if v == 0 {
			s.offset = 1
		}
	}
	return int(v) + s.offset, true
}

// fill makes up the steps before t that the log leaves out: the score
// carried forward, as a tracker would see it.
func (b *builder) fill(t int) {
	s := b.cur
	for len(s.turns) < t-1 {
		prev := episode.Turn{}
		if k := len(s.turns); k > 0 {
			prev = s.turns[k-1]
		}
		s.turns = append(s.turns, episode.Turn{Score: prev.Score, RoomID: prev.RoomID, Location: prev.Location, Missing: true})
		s.ep.MissingTurns++
	}
}

// optional reads the members a step may lack: without one, the step has no
// such value, and the problem is noted.
func (b *builder) optional(l *line, n int, tu *episode.Turn) {
	f := &b.src.Fields
	get := func(fd field, p Path) (value, bool) {
		if p == nil {
			return value{}, false
		}
		// A table's cell of text is there on every row, if empty: an empty
		// action or response is one, not a missing one.
		text := fd == fAction || fd == fRoom || fd == fResponse || fd == fRestart && b.restart != nil
		if v := l.get(fd); !v.absent() || v.cell && text {
			return v, true
		}
		b.lacks(fd, n)
		return value{}, false
	}
	if v, ok := get(fAction, f.Action); ok {
		a, ok := v.text()
		if !ok {
			a = source.CanonicalJSON(v.raw)
		}
		tu.Action = b.strs.Intern(a)
	}
	if v, ok := get(fRoom, f.Room); ok {
		if name, ok := v.text(); ok {
			tu.Location = b.strs.Intern(name)
		} else if id, why := v.whole(); why == "" && id > 0 && id <= 1<<31 {
			tu.RoomID = int(id)
		} else {
			b.cur.problem(n, false, "%s is neither a name nor a positive id: the room is unknown", b.member(fRoom))
		}
	}
	if v, ok := get(fResponse, f.Response); ok {
		tu.ResponseHash = v.hash()
		tu.Response = b.response(v, tu.ResponseHash)
		if b.death != nil && b.death.in(v) {
			b.cur.ep.Deaths = append(b.cur.ep.Deaths, episode.Death{Turn: len(b.cur.turns) + 1, Reason: "died"})
		}
	}
	if v := l.get(fError); f.Error != nil && !v.absent() {
		tu.Errored = failed(v)
	}
	if v, ok := get(fTokens, f.Tokens); ok {
		tu.Tokens = b.sum(l, v, fTokens, n)
	}
	if v, ok := get(fCalls, f.Calls); ok {
		tu.Calls = int32(min(b.sum(l, v, fCalls, n), 1<<31-1))
	}
	if v, ok := get(fRestart, f.Restart); ok {
		tu.Restart = b.restarted(v, n)
		if tu.Restart {
			b.cur.restarts++
		}
	}
	if v, ok := get(fMaxScore, f.MaxScore); ok && b.cur.maxScore == nil {
		if x, why := v.number(); why == "" {
			m := episode.Score(x)
			b.cur.maxScore = &m
		}
	}
}

// lacks notes a step without an optional member: each member's first few
// word for word, all counted in a note.
func (b *builder) lacks(f field, n int) {
	s := b.cur
	if s.lacking[f]++; s.lacking[f] <= 3 {
		s.problem(n, false, "no %s on this step", b.member(f))
	}
}

// sum reads tokens or calls: the value of their member, raw, plus those of
// the members added to it; unknown (0, noted) when one is missing or not a
// count.
func (b *builder) sum(l *line, v value, f field, n int) int64 {
	total, ok := b.count(v, f, n)
	for _, slot := range b.match.sums[f] {
		more := l.get(slot)
		if !ok {
			return 0
		}
		if more.absent() {
			b.lacks(f, n)
			return 0
		}
		var v int64
		v, ok = b.count(more, f, n)
		total += v
	}
	if !ok {
		return 0
	}
	if total > source.MaxTokens {
		b.cur.problem(n, false, "%s gives %d, more than the %d a step may have: counted as unknown", b.member(f), total, int64(source.MaxTokens))
		b.cur.lacking[f]++
		return 0
	}
	return total
}

// count reads tokens or calls: a whole number, 0 or more; false, noted,
// otherwise.
func (b *builder) count(raw value, f field, n int) (int64, bool) {
	v, why := raw.whole()
	switch {
	case why != "":
	case v < 0:
		why = "negative"
	case v > source.MaxTokens: // and so no sum of a few overflows
		why = fmt.Sprintf("%d, more than the %d a step may have", v, int64(source.MaxTokens))
	}
	if why != "" {
		b.cur.problem(n, false, "%s is %s: counted as unknown", b.member(f), why)
		b.cur.lacking[f]++
		return 0, false
	}
	return v, true
}

// restarted reads the restart member: true or false, or a text that holds
// the marker.
func (b *builder) restarted(v value, n int) bool {
	if b.restart != nil {
		if !v.cell && v.raw[0] != '"' {
			b.cur.problem(n, false, "%s is not a text to find %q in", b.member(fRestart), b.restart.text)
			return false
		}
		return b.restart.in(v)
	}
	if set, ok := v.flag(); ok {
		return set
	}
	b.cur.problem(n, false, "%s is neither true nor false (give restart_marker to find a text in it)", b.member(fRestart))
	return false
}

// close hands over a segment once its run is over.
func (b *builder) close(s *segment) {
	if len(s.turns) == 0 && s.problems.Count == 0 {
		return // nothing at all: no segment
	}
	b.res.Segments++
	if len(s.turns) == 0 {
		b.reject(s)
		return
	}
	ep := b.build(s)
	switch p := b.src.Preset; {
	case p == nil || p.Finish == nil:
		b.emit(ep)
	case b.first == nil && !b.several:
		b.first = ep
	default:
		b.several = true
		b.finishFirst()
		p.Finish(ep, b.name, true)
		b.emit(ep)
	}
}

// finishFirst hands over a preset's first episode, held until now.
func (b *builder) finishFirst() {
	if b.first != nil {
		b.src.Preset.Finish(b.first, b.name, b.several)
		b.emit(b.first)
		b.first = nil
	}
}

// reject gives up a segment without a step, with why.
func (b *builder) reject(s *segment) {
	reason := "no step could be read"
	if p := s.problems.List; len(p) > 0 {
		reason += fmt.Sprintf(" (line %d: %s)", p[0].Line, p[0].Msg)
	}
	b.rejected.Keep(&s.problems)
	b.rejections.Add(b.res.Segments, s.id, reason)
}

// build makes the Episode of a segment.
func (b *builder) build(s *segment) *episode.Episode {
	ep := &s.ep
	f := &b.src.Fields
	ep.ID, ep.Source, ep.Format, ep.Segment = source.Text(s.id), b.name, b.format, b.res.Segments
	if !s.named {
		ep.ID, ep.IDFromPath = cmp.Or(b.opt.PathID, defaultID(b.name)), true
	}
	ep.Turns, ep.Scoring = s.turns, f.Scoring
	ep.End = episode.End{Reason: episode.EndNone}
	for _, m := range signalOf {
		if f.paths()[m.field] != nil {
			ep.Signals = ep.Signals.With(m.signal)
		}
	}
	ep.Facts = b.facts(s)
	b.notes(s)
	s.problems.Set(ep)
	out := *ep // copied out, so that a command holding it does not hold the segment's reading state
	return &out
}

// signalOf are the optional signals the members give.
var signalOf = []struct {
	field  field
	signal episode.Signal
}{{fAction, episode.Actions}, {fRoom, episode.Rooms}, {fResponse, episode.Responses}, {fTokens, episode.Tokens}, {fCalls, episode.Calls}, {fRestart, episode.Restarts},
	{fResponse, episode.ResponseTexts}, {fError, episode.Errors}}

// facts are what the steps say of the run: its best score when it is scored
// by its best, the game's highest score, the restarts.
func (b *builder) facts(s *segment) []episode.Fact {
	var fs []episode.Fact
	num := func(key, val, words string) {
		fs = append(fs, episode.Fact{Key: key, Value: &val, Text: fmt.Sprintf(words, val)})
	}
	if s.ep.Scoring == episode.ScoredBest {
		num("best_score", s.ep.Credited(len(s.turns)).String(), "best score %s")
	}
	if s.maxScore != nil {
		num("max_score", s.maxScore.String(), "max score %s")
	}
	if b.src.Fields.Restart != nil {
		num("restarts", strconv.Itoa(s.restarts), "%s restart(s)")
	}
	if m := b.src.Fields.member; m != nil && s.member != nil {
		fs = append(fs, episode.Fact{Key: m.String(), Value: s.member, Text: m.String() + " " + *s.member})
	}
	return fs
}

// notes say what limits the replay of this log.
func (b *builder) notes(s *segment) {
	ep := &s.ep
	if s.offset == 1 {
		ep.Notes = append(ep.Notes, "the log numbers its steps from 0: step 0 is turn 1 here")
	}
	if ep.MissingTurns > 0 {
		ep.Notes = append(ep.Notes, fmt.Sprintf("%d step numbers are missing from the log: their score is carried forward", ep.MissingTurns))
	}
	if k := s.problems.Skipped; k > 0 && b.src.Fields.Reward != nil {
		ep.Notes = append(ep.Notes, fmt.Sprintf("the score is the sum of the rewards read, without those of the %d skipped lines", k))
	}
	for fd, k := range s.lacking {
		if k > 0 {
			ep.Notes = append(ep.Notes, fmt.Sprintf("%d of %d steps have no usable %s", k, len(s.turns), b.member(field(fd))))
		}
	}
}

// defaultID names an episode of a file named itself after the file: its
// name without the extensions of a log.
func defaultID(path string) string {
	if path == jsonl.StdinName {
		return path
	}
	return source.Stem(filepath.Base(path))
}

// finish closes the last segment and says what the file held.
func (b *builder) finish() *source.Result {
	b.runs.Close()
	b.finishFirst()
	res := b.res
	b.rejections.AddTo(res)
	b.rejected.AddTo(res)
	return res
}

// response is the text of a response as the episode keeps it (source.Text),
// one copy for every step of the episode whose response hashes alike.
func (b *builder) response(v value, hash uint64) string {
	if hash == 0 {
		return ""
	}
	s := b.cur
	if kept, ok := s.responses[hash]; ok {
		return kept
	}
	if s.responses == nil {
		s.responses = map[uint64]string{}
	}
	text, _ := v.text()
	kept := source.Text(text)
	s.responses[hash] = kept
	return kept
}

// failed reads an error member that is there (docs/sources.md, "Any
// per-step JSONL"): false, "", 0 and an empty object or list say the step
// did not fail; anything else, that it did.
func failed(v value) bool {
	if set, ok := v.flag(); ok {
		return set
	}
	if x, why := v.number(); why == "" {
		return x != 0
	}
	if t, ok := v.text(); ok {
		return strings.TrimSpace(t) != ""
	}
	raw := strings.Join(strings.Fields(string(v.raw)), "")
	return raw != "{}" && raw != "[]"
}
