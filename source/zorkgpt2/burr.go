package zorkgpt2

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/jsonl"
	"github.com/lbanalyze/lbanalyze/source"
)

// Burr reads a Burr tracker log, log.jsonl (docs/zorkgpt2.md, "The Burr
// tracker log"), named by itself; BurrDir reads the application directory
// that holds it. One begin_entry and one end_entry line a Burr action, the
// end_entry holding the whole state: a log grows with the square of its
// turns. A line's type and action are read from its first bytes (entryKind);
// only the end entries of the actions whose state the episode reads are
// decoded, the rest passed over unread.
type Burr struct{}

func (Burr) Format() string { return BurrFormat }

// Opens takes a log.jsonl found by itself (in an application directory, the
// directory is the log).
func (Burr) Opens(name string) bool { return source.JSONLName(name) }

// Names are the names Opens takes.
func (Burr) Names() []string { return source.JSONLNames }

// Claims takes a file whose first line is a Burr entry: a JSON object that
// begins with "type" begin_entry or end_entry, as Burr's tracking client
// writes them (a cut line is judged by its beginning).
func (Burr) Claims(head []byte) bool {
	line := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	return bytes.HasPrefix(line, []byte(`{"type":"begin_entry",`)) || bytes.HasPrefix(line, []byte(`{"type":"end_entry",`))
}

func (Burr) Read(r io.Reader, name string, opt source.Options, emit func(*episode.Episode)) *source.Result {
	return readBurr(r, name, opt, nil, emit)
}

// BurrDir reads a Burr application directory: ~/.burr/<project>/<app_id>/
// with metadata.json and log.jsonl (or log.jsonl.gz). A project directory of
// many is a directory like any other: the walk meets each application in it.
type BurrDir struct{}

func (BurrDir) Format() string { return BurrFormat }

// Names says what ClaimsDir takes.
func (BurrDir) Names() []string { return []string{"Burr application directories"} }

// ClaimsDir takes a directory whose metadata.json is Burr's application
// metadata and that holds a log.
func (BurrDir) ClaimsDir(dir string) bool {
	if _, ok := burrLog(dir); !ok {
		return false
	}
	_, ok := readMetadata(dir)
	return ok
}

func (BurrDir) ReadDir(dir string, opt source.Options, emit func(*episode.Episode)) *source.Result {
	meta, _ := readMetadata(dir)
	path, _ := burrLog(dir)
	rc, err := jsonl.Open(path, nil, opt.Limits)
	if err != nil {
		return &source.Result{Problems: []episode.Problem{{Msg: err.Error()}}}
	}
	defer rc.Close()
	return readBurr(rc, dir, opt, meta, emit)
}

// burrLog is the application directory's log.
func burrLog(dir string) (string, bool) {
	for _, n := range []string{"log.jsonl", "log.jsonl.gz"} {
		p := filepath.Join(dir, n)
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() {
			return p, true
		}
	}
	return "", false
}

// metadata is Burr's metadata.json, and the directory's name: the app id.
type metadata struct {
	Type         string  `json:"type"`
	PartitionKey *string `json:"partition_key"`
	appID        string
}

// readMetadata reads dir's metadata.json, a small file: it is Burr's when its
// type is application_metadata.
func readMetadata(dir string) (*metadata, bool) {
	f, err := os.Open(filepath.Join(dir, "metadata.json"))
	if err != nil {
		return nil, false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, 64<<10))
	if err != nil {
		return nil, false
	}
	m := &metadata{appID: filepath.Base(filepath.Clean(dir))}
	if _, err := jsonl.Decode(data, m); err != nil || m.Type != "application_metadata" {
		return nil, false
	}
	return m, true
}

// entry is what lbanalyze reads of a log line: of an entry whose action does
// not matter, not its state.
type entry struct {
	head
	State *state `json:"state"`
}

// head is what an entry says before its state.
type head struct {
	Type      string  `json:"type"`
	Action    string  `json:"action"`
	Exception *string `json:"exception"`
}

// state is the few members of a Burr state the episode needs
// (zorkburr/state.py's keys).
type state struct {
	EpisodeID       *string      `json:"episode_id"`
	Turn            *int64       `json:"turn_count"`
	Score           *int64       `json:"score"`
	PreScore        *int64       `json:"pre_score"`
	LocationID      *int64       `json:"location_id"`
	LocationName    *string      `json:"location_name"`
	PreLocationID   *int64       `json:"pre_location_id"`
	PreLocationName *string      `json:"pre_location_name"`
	Critic          *float64     `json:"critic_score"`
	Rejections      *int64       `json:"rejection_count"`
	Action          *string      `json:"action_to_take"`
	Response        *string      `json:"game_response"`
	GameOver        *bool        `json:"game_over"`
	GameOverReason  *string      `json:"game_over_reason"`
	Stuck           *int64       `json:"turns_since_progress"`
	Completed       []completion `json:"completed_objectives"`
}

type completion struct {
	Objective *string `json:"objective"`
	Turn      *int64  `json:"completed_turn"`
}

// The actions whose state the episode reads.
const (
	executeAction = "execute_action" // the turn: score, room, action, critic, rejections
	recordResults = "record_results" // turns_since_progress
	turnComplete  = "turn_complete"  // the game is over
	generate      = "generate_action"
	updateObj     = "update_objectives"
)

// matters says whether the episode reads the state of an action's end entry.
func matters(action string) bool {
	switch action {
	case executeAction, recordResults, turnComplete:
		return true
	}
	return false
}

func readBurr(r io.Reader, name string, opt source.Options, meta *metadata, emit func(*episode.Episode)) *source.Result {
	opt = opt.WithDefaults()
	b := &burr{run: newRun(name, BurrFormat, opt), rooms: source.Interner{}, through: -1}
	rd := jsonl.NewReader(r, jsonl.LineOptions{MaxLine: opt.MaxLine, Skip: b.pass})
	defer rd.Close()
	res := &source.Result{Segments: 1}
	for {
		line, n, err := rd.Next()
		if errors.Is(err, jsonl.ErrLineTooLong) {
			b.problem(n, true, "line longer than %s, skipped", jsonl.Size(int64(opt.MaxLine)))
			b.last = entry{}
			continue
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			res.Problems = append(res.Problems, episode.Problem{Line: n, Msg: "read error: " + err.Error()})
			break
		}
		if len(bytes.TrimSpace(line)) == 0 || b.pass(line) {
			continue
		}
		b.decode(line, n)
	}
	res.Lines = rd.Line()
	ep, reason := b.finish(meta)
	if reason != "" {
		res.Rejected = []source.Rejected{{Segment: 1, ID: ep.ID, Reason: reason}}
		res.Problems = append(res.Problems, ep.Problems...)
		return res
	}
	emit(ep)
	return res
}

// burr is a Burr log being read.
type burr struct {
	*run
	rooms     source.Interner
	proposals int   // begin_entry lines of generate_action since the last execute_action
	last      entry // the last entry, for how the log ends
	complete  *entry
	exception string
	gameOver  *state // the state of an execute_action whose game is over
	completed []completion
	updates   int
	// through is the last turn whose record_results the log holds: the
	// recorded counter covers turns 1..through (-1: no record_results).
	through int
}

func (b *burr) entry(e *entry, n int) {
	b.last = *e
	if e.Type == "begin_entry" && e.Action == generate {
		b.proposals++
	}
	if e.Type != "end_entry" {
		return
	}
	if e.Exception != nil && b.exception == "" {
		tb := strings.Split(strings.TrimSpace(*e.Exception), "\n") // a Python traceback: the error is its last line
		b.exception = fmt.Sprintf("%s failed at line %d: %s", e.Action, n, tb[len(tb)-1])
	}
	switch {
	case e.Action == updateObj:
		b.updates++
	case e.State == nil:
	case e.Action == executeAction:
		b.execute(e.State, n)
	case e.Action == recordResults:
		b.record(e.State, n)
	case e.Action == turnComplete:
		b.complete = e
	}
	if e.State != nil && e.State.Completed != nil {
		b.completed = e.State.Completed
	}
}

// execute reads a turn from execute_action's state, as the runner's TURN
// line prints it.
func (b *burr) execute(s *state, n int) {
	if s.Turn == nil || s.Score == nil {
		b.problem(n, true, "execute_action without turn_count or score")
		return
	}
	t := int(*s.Turn)
	if t <= len(b.turns) {
		b.problem(n, true, "execute_action of turn %d after turn %d: skipped", t, len(b.turns))
		return
	}
	if t > len(b.turns)+1 {
		b.problem(n, false, "execute_action of turn %d after turn %d", t, len(b.turns))
	}
	tu := b.at(t, n)
	if tu == nil {
		return
	}
	if len(b.turns) == 1 && b.ep.InitialRoom == "" {
		b.ep.InitialRoomID, b.ep.InitialRoom = int(deref(s.PreLocationID)), b.rooms.Intern(deref(s.PreLocationName))
	}
	if b.ep.ID == "" && s.EpisodeID != nil {
		b.ep.ID = *s.EpisodeID
	}
	*tu = turn{score: int(*s.Score), roomID: int(deref(s.LocationID)), room: b.rooms.Intern(deref(s.LocationName)),
		action: deref(s.Action), critic: float32(deref(s.Critic)), rejections: int32(min(max(deref(s.Rejections), 0), 1<<30)),
		proposals: b.proposals}
	if s.Response != nil {
		tu.response = responseHash(*s.Response)
	}
	b.proposals = 0
	b.gameOver = nil
	if deref(s.GameOver) {
		b.gameOver = s
		if deref(s.GameOverReason) == "death" {
			b.ep.Deaths = append(b.ep.Deaths, episode.Death{Turn: t, Reason: "death"})
		}
	}
}

// record reads record_results's counter: 0 is a reset at that turn.
func (b *burr) record(s *state, n int) {
	if s.Turn == nil || s.Stuck == nil {
		b.problem(n, true, "record_results without turn_count or turns_since_progress")
		return
	}
	t := int(*s.Turn)
	b.through = t
	if *s.Stuck == 0 && t >= 1 {
		b.ep.Recorded.Resets = append(b.ep.Recorded.Resets, episode.Reset{Turn: t, Kind: episode.ScoreChangeReset,
			Old: int(deref(s.PreScore)), New: int(deref(s.Score))})
	}
}

// finish makes the episode, or says why there is none.
func (b *burr) finish(meta *metadata) (*episode.Episode, string) {
	ep := &b.ep
	if meta != nil {
		if ep.ID == "" && meta.PartitionKey != nil {
			ep.ID = *meta.PartitionKey
		}
		if ep.ID == "" {
			ep.ID = meta.appID
		}
		ep.Facts = append(ep.Facts, episode.Fact{Key: "app_id", Value: &meta.appID, Text: "Burr app " + meta.appID})
		if pk := meta.PartitionKey; pk != nil {
			ep.Facts = append(ep.Facts, episode.Fact{Key: "partition_key", Value: pk, Text: "partition key " + *pk})
		}
	}
	n := len(b.turns)
	if n == 0 {
		ep.ID = cmp.Or(ep.ID, "(no episode id)")
		return b.build(0), "no turns: no execute_action entry"
	}
	for _, c := range b.completed {
		if c.Turn != nil && *c.Turn >= 1 && int(*c.Turn) <= n {
			ep.Objectives = append(ep.Objectives, episode.Completion{Turn: int(*c.Turn), Objective: deref(c.Objective)})
		}
	}
	ep.ObjectiveUpdates = b.updates
	if b.through >= 1 { // the counter is recorded: the self-check compares it with the rule's replay
		ep.Recorded.CounterOnly = true
		if b.through < n {
			ep.Recorded.Through = b.through
		}
	}
	b.end(n)
	out := b.build(episode.Signals(0).With(episode.Rooms, episode.Responses, episode.Critic, episode.Rejections, episode.Objectives))
	for _, c := range out.Objectives {
		out.Turns[c.Turn-1].Objectives++
	}
	return out, ""
}

// end says how the log ends (docs/zorkgpt2.md, "How a Burr log ends"): both
// runners break right after the execute_action that ends the game or the
// turn budget, and zorkburr/main.py after the step whose counter reaches the
// rule's stop; any other last line is a kill from outside.
func (b *burr) end(n int) {
	ep, last := &b.ep, &b.last
	switch {
	case b.complete != nil:
		reason := ""
		if b.complete.State != nil {
			reason = deref(b.complete.State.GameOverReason)
		}
		ep.End = episode.End{Reason: episode.EndGameOver, Turn: n, Detail: reason}
		if reason == "max_turns" {
			ep.End.Reason, ep.End.Detail = episode.EndMaxTurns, ""
		}
	case b.exception != "":
		ep.End = episode.End{Reason: episode.EndException, Turn: n, Detail: b.exception}
	case last.Type == "end_entry" && last.Action == executeAction && b.gameOver != nil:
		ep.End = episode.End{Reason: episode.EndGameOver, Turn: n, Detail: deref(b.gameOver.GameOverReason)}
	case last.Type == "end_entry" && last.Action == executeAction:
		ep.End = episode.End{Reason: episode.EndMaxTurns, Turn: n, Detail: "the runner stopped after this turn's execute_action: its turn budget"}
	case last.Type == "end_entry" && last.Action == recordResults && last.State != nil && last.State.Stuck != nil:
		// Only zorkburr/main.py's stuck check stops a run there.
		stuck := int(*last.State.Stuck)
		ep.End = episode.End{Reason: episode.EndStuckTermination, Turn: n, TurnsStuck: stuck}
		ep.Recorded.Stop = &episode.Stop{Turn: n, Score: b.turns[n-1].score, TurnsStuck: stuck}
		ep.Recorded.CounterOnly = false
	default:
		b.killed("the Burr log ends mid-turn, with no turn_complete")
	}
}

// pass takes an entry whose state the episode does not read from its first
// bytes (entryKind), and says so: it is not decoded.
func (b *burr) pass(line []byte) bool {
	typ, action, _, plain := entryKind(line)
	if !plain || typ == "end_entry" && matters(string(action)) {
		return false
	}
	b.entry(&entry{head: head{Type: typ, Action: string(action)}}, 0) // no line number: nothing to say of it
	return true
}

// decode reads line n whole.
func (b *burr) decode(line []byte, n int) {
	e, err := decodeEntry(line)
	var se *jsonl.SyntaxError
	switch {
	case errors.As(err, &se):
		b.problem(n, true, "%v", err)
		b.last = entry{} // the log's last line may be a cut one
		return
	case err != nil:
		b.problem(n, true, "not a Burr entry: %v", err)
		return
	}
	b.entry(&e, n)
}

// decodeEntry decodes an entry: of one whose action does not matter, what
// comes before its state. A long one is first slimmed to what entry reads:
// Burr's state grows with the turns, the few members read do not.
func decodeEntry(line []byte) (e entry, err error) {
	_, action, known, _ := entryKind(line)
	if len(line) > source.SlimFrom {
		if line, err = source.Slim(line, keepBurr); err != nil {
			return e, err
		}
	}
	if known && !matters(string(action)) {
		_, err = jsonl.Decode(line, &e.head)
		return e, err
	}
	if _, err = jsonl.Decode(line, &e); !matters(e.Action) {
		e.State = nil
	}
	return e, err
}

// keepBurr keeps, of a long entry, what entry names.
var keepBurr = source.Nested("state", source.Only(source.Keys(state{})), source.Only(source.Keys(head{})))

// entryKind reads an entry's type and action from its first members, as
// Burr's tracking client writes them (pydantic's compact JSON, in its
// models' order): {"type":"begin_entry","start_time":"…","action":"…", or
// {"type":"end_entry","end_time":"…","action":"…","result":{},"exception":null,
// for an end entry with an empty result and no exception. known says the line
// begins so; plain, that its type and action are all there is to read of it
// but its state (a begin entry, or an end entry with no exception).
func entryKind(line []byte) (typ string, action []byte, known, plain bool) {
	p := prefix{rest: line, ok: true}
	switch t := p.text(`{"type":"`); {
	case string(t) == "begin_entry":
		typ = "begin_entry"
		p.text(`,"start_time":"`)
	case string(t) == "end_entry":
		typ = "end_entry"
		p.text(`,"end_time":"`)
	default:
		return "", nil, false, false
	}
	if action = p.text(`,"action":"`); !p.ok {
		return "", nil, false, false
	}
	return typ, action, true, typ == "begin_entry" || p.is(`,"result":{},"exception":null,`)
}

// prefix reads the first members of a line as a writer of compact JSON
// writes them, as long as it goes as expected (ok).
type prefix struct {
	rest []byte
	ok   bool
}

// text reads lead, then a string without escapes up to its closing quote.
func (p *prefix) text(lead string) []byte {
	if !p.is(lead) {
		return nil
	}
	i := bytes.IndexByte(p.rest, '"')
	if i < 0 || bytes.IndexByte(p.rest[:i], '\\') >= 0 {
		p.ok = false
		return nil
	}
	s := p.rest[:i]
	p.rest = p.rest[i+1:]
	return s
}

// is reads lit.
func (p *prefix) is(lit string) bool {
	p.ok = p.ok && bytes.HasPrefix(p.rest, []byte(lit))
	if p.ok {
		p.rest = p.rest[len(lit):]
	}
	return p.ok
}
