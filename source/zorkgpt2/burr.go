package zorkgpt2

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/klauspost/compress/zstd"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/filekind"
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
// metadata and that holds a log; or whose metadata.json cannot be read (not
// a regular file, too large: it is said) beside a log that is Burr's.
func (BurrDir) ClaimsDir(dir string) bool {
	path, _ := findBurrLog(dir)
	if path == "" {
		return false
	}
	_, refused, ok := readMetadata(dir)
	return ok || refused != "" && burrHead(path)
}

// Marks takes the names of an application's log, which ClaimsDir needs.
func (BurrDir) Marks(name string) bool { return slices.Contains(burrLogs, name) }

// burrHead says whether the log at path begins as a Burr log.
func burrHead(path string) bool {
	rc, err := jsonl.Open(path, nil, jsonl.Limits{})
	if err != nil {
		return false
	}
	defer rc.Close()
	head := make([]byte, 256)
	n, _ := io.ReadFull(rc, head)
	return Burr{}.Claims(head[:n])
}

func (BurrDir) ReadDir(dir string, opt source.Options, emit func(*episode.Episode)) *source.Result {
	meta, refused, _ := readMetadata(dir)
	path, passed := findBurrLog(dir)
	if refused != "" {
		passed = append(passed, refused)
	}
	rc, err := jsonl.Open(path, nil, opt.Limits)
	if err != nil {
		return &source.Result{Problems: []episode.Problem{{Msg: err.Error()}}}
	}
	defer rc.Close()
	return readBurr(rc, dir, opt, &appDir{meta: meta, log: path, passed: passed}, emit)
}

// burrLogs are the names an application's log may have, the one read first.
var burrLogs = []string{"log.jsonl", "log.jsonl.gz", "log.jsonl.zst"}

// findBurrLog is the application directory's log, and what is said of the
// others beside it (a log compressed after the run, the plain one kept): a
// copy of the same length is passed over without a word.
func findBurrLog(dir string) (path string, passed []string) {
	var length int64
	for _, n := range burrLogs {
		p := filepath.Join(dir, n)
		info, err := os.Stat(p)
		switch {
		case err != nil || !info.Mode().IsRegular():
		case path == "":
			path, length = p, logLength(p, info)
		case length < 0 || logLength(p, info) != length:
			passed = append(passed, fmt.Sprintf("%s is passed over: %s is read, and the two may differ (their lengths do not match)", n, filepath.Base(path)))
		}
	}
	return path, passed
}

// logLength is the length of a log decompressed, modulo 2^32, as far as its
// file says without decompressing it: a gzip stream's last four bytes, a
// zstd frame's content size; -1 when it does not say.
func logLength(path string, info os.FileInfo) int64 {
	if !strings.HasSuffix(path, ".gz") && !strings.HasSuffix(path, ".zst") {
		return info.Size() & (1<<32 - 1)
	}
	f, err := os.Open(path)
	if err != nil {
		return -1
	}
	defer f.Close()
	if strings.HasSuffix(path, ".gz") {
		var tail [4]byte
		if _, err := f.ReadAt(tail[:], info.Size()-4); err != nil {
			return -1
		}
		return int64(binary.LittleEndian.Uint32(tail[:]))
	}
	head := make([]byte, zstd.HeaderMaxSize)
	n, _ := io.ReadFull(f, head)
	var h zstd.Header
	if h.Decode(head[:n]) != nil || !h.HasFCS {
		return -1
	}
	return int64(h.FrameContentSize & (1<<32 - 1))
}

// metadata is Burr's metadata.json, and the directory's name: the app id.
type metadata struct {
	Type         string  `json:"type"`
	PartitionKey *string `json:"partition_key"`
	appID        string
}

// readMetadata reads dir's metadata.json, a small file: it is Burr's when its
// type is application_metadata. One that is not a regular file of 64 KiB at
// most is not read (filekind.ReadSmall: a FIFO would hang the walk), and
// refused says so.
func readMetadata(dir string) (m *metadata, refused string, ok bool) {
	data, err := filekind.ReadSmall(filepath.Join(dir, "metadata.json"), 64<<10)
	var nr *filekind.NotRegular
	var tl *filekind.TooLarge
	switch {
	case errors.As(err, &nr) || errors.As(err, &tl):
		return nil, fmt.Sprintf("metadata.json is %s: not read", strings.TrimPrefix(err.Error(), filepath.Join(dir, "metadata.json")+": ")), false
	case err != nil:
		return nil, "", false
	}
	m = &metadata{appID: filepath.Base(filepath.Clean(dir))}
	if _, err := jsonl.Decode(data, m); err != nil || m.Type != "application_metadata" {
		return nil, "", false
	}
	if m.PartitionKey != nil {
		pk := source.Text(*m.PartitionKey)
		m.PartitionKey = &pk
	}
	return m, "", true
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
	// Sequence is Burr's sequence_id: the step's number in its application,
	// from 0, the same in a step's begin_entry and end_entry.
	Sequence *int64 `json:"sequence_id"`
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

// appDir is what an application directory adds to its log: the metadata,
// the log's path (for the messages about its lines), and the logs beside it
// that are passed over.
type appDir struct {
	meta   *metadata
	log    string
	passed []string
}

func readBurr(r io.Reader, name string, opt source.Options, dir *appDir, emit func(*episode.Episode)) *source.Result {
	bl := &burrLog{logRead: newLogRead(name, opt, emit), dir: dir}
	// A run of the log is an application's: its sequence ids start again
	// at 0 where another run's lines begin (source.Runs).
	bl.runs = source.Runs[*burr]{Numbering: source.Numbering{Min: 0, Unbounded: true, Noun: "sequence_id"},
		New: bl.newRun, End: bl.close,
		Problem: func(b *burr, n int, skipped bool, msg string) { b.problem(n, skipped, "%s", msg) }}
	bl.runs.Current("", 0) // the run a log without a numbered line is
	var rd *jsonl.Reader
	rd = jsonl.NewReader(r, jsonl.LineOptions{MaxLine: bl.opt.MaxLine, Skip: func(head []byte) bool { return bl.pass(head, rd.Line()+1) }})
	defer rd.Close()
	for {
		line, n, err := rd.Next()
		if errors.Is(err, jsonl.ErrLineTooLong) {
			b := bl.runs.Current("", n)
			b.problem(n, true, "line longer than %s, skipped", jsonl.Size(int64(bl.opt.MaxLine)))
			b.last = entry{}
			continue
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			bl.res.Cut = &episode.Problem{Line: n, Msg: "read error: " + err.Error(), File: bl.file()}
			break
		}
		if len(bytes.TrimSpace(line)) == 0 || bl.pass(line, n) {
			continue
		}
		bl.decode(line, n)
	}
	bl.runs.Close()
	return bl.result(rd.Line())
}

// burrLog is a Burr log being read: its runs, one an application.
type burrLog struct {
	logRead
	dir  *appDir // nil for a log named by itself
	runs source.Runs[*burr]
}

// file is the path of the log, for messages about its lines: in an
// application directory, its log.jsonl.
func (bl *burrLog) file() string {
	if bl.dir != nil {
		return bl.dir.log
	}
	return ""
}

func (bl *burrLog) newRun(string) *burr {
	b := &burr{run: newRun(bl.name, BurrFormat, bl.opt), log: bl, through: -1, lastEnd: -1,
		turnNumbers: source.NewSequence(1, "execute_action of turn")}
	b.problems.File = bl.file()
	return b
}

// close hands over a run once it is over, or says why it cannot be.
func (bl *burrLog) close(b *burr) {
	ep, reason := b.finish(bl.dir)
	bl.handOver(ep, &b.problems, reason)
}

// burr is one run of a Burr log being read: an application's.
type burr struct {
	*run
	log       *burrLog
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
	// The step begun and not yet ended (its begin_entry read), and the
	// sequence id of the last step ended: an end_entry is its begin_entry's,
	// once (docs/bad-input.md, "Runs in one file").
	open        *step
	lastEnd     int64
	turnNumbers *source.Sequence
}

// step is a Burr step begun: its action and sequence id.
type step struct {
	action string
	seq    int64
}

// begin reads a begin_entry of action with sequence id seq (-1: none).
func (bl *burrLog) begin(action string, seq int64, n int) {
	var b *burr
	if seq < 0 {
		b = bl.runs.Current("", n)
	} else if b, _ = bl.runs.Line("", seq, n); b == nil {
		return
	}
	b.open = &step{action: action, seq: seq}
	b.entry(&entry{head: head{Type: "begin_entry", Action: action}}, n)
}

// ended checks an end_entry of action, sequence id seq (-1: not read), of
// the current run: the end of the step begun, or of one whose begin_entry
// is lost (a later id); false, with a problem, for an end_entry repeated or
// out of order.
func (b *burr) ended(action string, seq int64, n int) bool {
	o := b.open
	switch {
	case o != nil && o.action == action && (seq < 0 || seq == o.seq):
		b.open, b.lastEnd = nil, o.seq
		return true
	case seq > b.lastEnd:
		b.open, b.lastEnd = nil, seq
		return true
	case seq < 0:
		b.problem(n, true, "end_entry of %s without its begin_entry: a repeated line? skipped", action)
	case seq == b.lastEnd:
		b.problem(n, true, "end_entry of %s, sequence_id %d again: a repeat, skipped", action, seq)
	default:
		b.problem(n, true, "end_entry of %s, sequence_id %d, after sequence_id %d: out of order, skipped", action, seq, b.lastEnd)
	}
	return false
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
		b.exception = source.Text(fmt.Sprintf("%s failed at line %d: %s", e.Action, n, tb[len(tb)-1]))
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
	if b.foreign(s, executeAction, n) {
		return
	}
	if v := *s.Score; v > source.MaxScore || v < -source.MaxScore {
		b.problem(n, true, "score %d is absurd (beyond ±2^53): execute_action skipped", v)
		return
	}
	last := len(b.turns)
	if why := b.turnNumbers.Place(*s.Turn); why != "" {
		b.problem(n, true, "%s", why)
		return
	}
	t := int(*s.Turn)
	if t > last+1 {
		b.problem(n, false, "execute_action of turn %d after turn %d", t, last)
	}
	tu := b.at(t)
	texts := &b.texts
	if t == 1 && b.ep.InitialRoom == "" {
		b.ep.InitialRoomID, b.ep.InitialRoom = int(deref(s.PreLocationID)), texts.Text(deref(s.PreLocationName))
	}
	if b.ep.ID == "" && s.EpisodeID != nil {
		b.ep.ID = source.Text(*s.EpisodeID)
	}
	*tu = turn{score: int(*s.Score), roomID: int(deref(s.LocationID)), room: texts.Text(deref(s.LocationName)),
		action: texts.Text(deref(s.Action)), critic: float32(deref(s.Critic)), rejections: int32(min(max(deref(s.Rejections), 0), 1<<30)),
		proposals: b.proposals}
	if s.Response != nil {
		tu.setResponse(*s.Response, texts)
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

// foreign says whether a state is of another episode than the run's (two
// applications writing to one log), and skips its line with a word if so.
func (b *burr) foreign(s *state, action string, n int) bool {
	if s.EpisodeID == nil || *s.EpisodeID == "" || b.ep.ID == "" || source.SameText(*s.EpisodeID, b.ep.ID) {
		return false
	}
	b.problem(n, true, "%s of episode %s in episode %s: skipped (lines of another run)", action, *s.EpisodeID, b.ep.ID)
	return true
}

// record reads record_results's counter: 0 is a reset at that turn.
func (b *burr) record(s *state, n int) {
	if s.Turn == nil || s.Stuck == nil {
		b.problem(n, true, "record_results without turn_count or turns_since_progress")
		return
	}
	if b.foreign(s, recordResults, n) {
		return
	}
	t := int(min(max(*s.Turn, -1), source.MaxTurn))
	if t >= 1 && t != len(b.turns) {
		b.problem(n, true, "record_results of turn %d after execute_action of turn %d: skipped", t, len(b.turns))
		return
	}
	b.through = t
	if *s.Stuck == 0 && t >= 1 {
		b.ep.Recorded.Resets = append(b.ep.Recorded.Resets, episode.Reset{Turn: t, Kind: episode.ScoreChangeReset,
			Old: int(deref(s.PreScore)), New: int(deref(s.Score))})
	}
}

// finish makes the episode, or says why there is none.
func (b *burr) finish(dir *appDir) (*episode.Episode, string) {
	ep := &b.ep
	if dir != nil {
		for _, p := range dir.passed {
			b.problem(0, false, "%s", p)
		}
	}
	if dir != nil && dir.meta != nil {
		meta := dir.meta
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
			ep.Objectives = append(ep.Objectives, episode.Completion{Turn: int(*c.Turn), Objective: source.Text(deref(c.Objective))})
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
	out := b.build(episode.Signals(0).With(episode.Rooms, episode.Responses, episode.ResponseTexts, episode.Critic, episode.Rejections, episode.Objectives))
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
		ep.End = episode.End{Reason: episode.EndGameOver, Turn: n, Detail: source.Text(reason)}
		if reason == "max_turns" {
			ep.End.Reason, ep.End.Detail = episode.EndMaxTurns, ""
		}
	case b.exception != "":
		ep.End = episode.End{Reason: episode.EndException, Turn: n, Detail: b.exception}
	case last.Type == "end_entry" && last.Action == executeAction && b.gameOver != nil:
		ep.End = episode.End{Reason: episode.EndGameOver, Turn: n, Detail: source.Text(deref(b.gameOver.GameOverReason))}
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

// pass takes line n, an entry whose state the episode does not read, from
// its first bytes (entryKind) and its sequence id at its end (tailSequence),
// and says so: it is not decoded. A begin_entry whose sequence id is not in
// line (a line longer than the read buffer) is decoded whole.
func (bl *burrLog) pass(line []byte, n int) bool {
	typ, action, _, plain := entryKind(line)
	if !plain || typ == "end_entry" && matters(string(action)) {
		return false
	}
	seq := tailSequence(line)
	if typ == "begin_entry" {
		if seq >= 0 {
			bl.begin(string(action), seq, n)
		}
		return seq >= 0
	}
	if b := bl.runs.Current("", n); b.ended(string(action), seq, n) {
		b.entry(&entry{head: head{Type: typ, Action: string(action)}}, n)
	}
	return true
}

// tailSequence is the sequence id a line ends with, as Burr writes it
// (,"sequence_id":N}); -1 when it does not.
func tailSequence(line []byte) int64 {
	line = bytes.TrimRight(line, " \t\r\n")
	rest, ok := bytes.CutSuffix(line, []byte("}"))
	if !ok {
		return -1
	}
	i := len(rest)
	for i > 0 && rest[i-1] >= '0' && rest[i-1] <= '9' {
		i--
	}
	if i == len(rest) || len(rest)-i > 15 || !bytes.HasSuffix(rest[:i], []byte(`,"sequence_id":`)) {
		return -1
	}
	v, _ := strconv.ParseInt(string(rest[i:]), 10, 64)
	return v
}

// decode reads line n whole.
func (bl *burrLog) decode(line []byte, n int) {
	e, err := decodeEntry(line)
	b := bl.runs.Current("", n)
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
	seq := int64(-1)
	if e.Sequence != nil && *e.Sequence >= 0 {
		seq = *e.Sequence
	}
	switch e.Type {
	case "begin_entry":
		bl.begin(e.Action, seq, n)
	case "end_entry":
		if b.ended(e.Action, seq, n) {
			b.entry(&e, n)
		}
	default:
		b.entry(&e, n)
	}
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
