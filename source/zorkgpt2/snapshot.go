package zorkgpt2

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/jsonl"
	"github.com/lbanalyze/lbanalyze/source"
)

// Snapshot reads a state snapshot (docs/zorkgpt2.md, "State snapshots"): one
// JSON object whose state holds action_history, a turn an entry, as
// scripts/extract_fixtures.py writes them from the tracker. An entry's room
// is the room its action was taken in: the room after turn t is that of
// entry t+1, and after the last turn the state's own.
type Snapshot struct{}

func (Snapshot) Format() string { return SnapshotFormat }

// Opens takes a snapshot as scripts/extract_fixtures.py names it:
// ep96_t111_evaluate_action.json.
func (Snapshot) Opens(name string) bool { return snapshotName.MatchString(name) }

// Names are the names Opens takes.
func (Snapshot) Names() []string { return []string{"*_t<N>_<action>.json"} }

// snapshot is what a snapshot holds that lbanalyze reads, its keys matched
// exactly: all but its history, whose entries are decoded one by one.
type snapshot struct {
	Meta *struct {
		AppID     *string `json:"app_id"`
		EpisodeID *string `json:"episode_id"`
		Turn      *int64  `json:"turn"`
	} `json:"meta"`
	ActionType *string `json:"action_type"`
	State      *struct {
		EpisodeID    *string `json:"episode_id"`
		LocationID   *int64  `json:"location_id"`
		LocationName *string `json:"location_name"`
	} `json:"state"`
}

type historyEntry struct {
	Turn         *int64   `json:"turn"`
	Action       *string  `json:"action"`
	Response     *string  `json:"response"`
	LocationID   *int64   `json:"location_id"`
	LocationName *string  `json:"location_name"`
	ScoreAfter   *int64   `json:"score_after"`
	Critic       *float64 `json:"critic_score"`
	Rejections   *int64   `json:"rejection_count"`
}

// slimSnapshot is doc slimmed to what snapshot names, and the raw history
// (within doc): the last state's action_history, as json.loads keeps the
// last of a repeated key.
func slimSnapshot(doc []byte) (slim, history []byte, err error) {
	stateKeys := source.Keys(snapshot{}.State)
	keepState := func(key string, v []byte) ([]byte, bool) {
		if key == "action_history" {
			history = v
			return nil, false
		}
		return v, stateKeys[key]
	}
	others := source.Only(source.Keys(snapshot{}))
	keep := source.Nested("meta", source.Only(source.Keys(snapshot{}.Meta)), func(key string, v []byte) ([]byte, bool) {
		if key != "state" {
			return others(key, v)
		}
		history = nil
		if len(v) > 0 && v[0] == '{' {
			s, err := source.Slim(v, keepState)
			return s, err == nil
		}
		return v, true
	})
	slim, err = source.Slim(doc, keep)
	return slim, history, err
}

// keepTurn keeps, of a history entry, what historyEntry names, not the
// agent's reasoning.
var keepTurn = source.Only(source.Keys(historyEntry{}))

// Claims takes a file that begins with a JSON object whose state member, an
// object, has an action_history array, as far as the head shows it.
func (Snapshot) Claims(head []byte) bool {
	return hasMember(head, "state", func(state []byte) bool {
		return state[0] == '{' && hasMember(state, "action_history", func(h []byte) bool { return h[0] == '[' })
	})
}

// hasMember says whether the object that obj begins has the member key (its
// escapes undone) and its value, as far as obj holds it, is what want says.
func hasMember(obj []byte, key string, want func(value []byte) bool) bool {
	found := false
	jsonl.ScanHead(obj, func(k, v []byte) bool {
		found = string(jsonl.Unescape(k)) == key && len(v) > 0 && want(v)
		return !found
	})
	return found
}

// Read reads the snapshot r: one episode of the turns its history holds. It
// is read whole, up to the length of a line (opt.MaxLine): a snapshot of
// 16 MiB holds some 15,000 turns. An entry that cannot be used is skipped,
// named by its line and place in the history; the others are read.
func (Snapshot) Read(r io.Reader, name string, opt source.Options, emit func(*episode.Episode)) *source.Result {
	opt = opt.WithDefaults()
	res := &source.Result{Segments: 1}
	reject := func(reason string) *source.Result {
		res.Rejected = []source.Rejected{{Segment: 1, Reason: reason}}
		return res
	}
	ep, reason := readSnapshot(r, name, opt, res)
	switch {
	case reason != "":
		return reject(reason)
	case ep.N() == 0:
		res.Rejected = []source.Rejected{{Segment: 1, ID: ep.ID, Reason: "no turns: no action_history entry has a turn and a score_after"}}
		res.Problems = ep.Problems
		return res
	}
	emit(ep)
	return res
}

// readSnapshot reads the document r holds into its episode, or says why it
// cannot. The document is held in the buffer the readers share, given back
// before the episode is handed over: the one who takes it may be the one
// the hand-over waits for.
func readSnapshot(r io.Reader, name string, opt source.Options, res *source.Result) (*episode.Episode, string) {
	doc, release, err := jsonl.ReadDocument(r, opt.MaxLine)
	defer release()
	res.Lines = bytes.Count(doc, []byte("\n")) + 1
	switch {
	case err != nil:
		return nil, "not a state snapshot: " + err.Error()
	case len(doc) > opt.MaxLine:
		return nil, fmt.Sprintf("not a state snapshot: longer than %s", jsonl.Size(int64(opt.MaxLine)))
	}
	doc = bytes.TrimPrefix(doc, []byte("\xef\xbb\xbf"))
	slim, history, err := slimSnapshot(doc)
	if err != nil {
		return nil, "not a state snapshot: " + where(doc, err)
	}
	var s snapshot
	if _, err := jsonl.Decode(slim, &s); err != nil {
		return nil, "not a state snapshot: " + err.Error()
	}
	if s.State == nil || len(history) == 0 || history[0] != '[' {
		return nil, "no turns: the snapshot has no state.action_history list"
	}
	return snapshotEpisode(&s, doc, history, name, opt), ""
}

// where says at which line of doc err is, for a message: "line 13: the
// object is cut (truncated?)".
func where(doc []byte, err error) string {
	se, ok := err.(*jsonl.SyntaxError)
	if !ok {
		return err.Error()
	}
	at := min(max(se.Column-1, 0), len(doc))
	if at == len(doc) {
		return fmt.Sprintf("line %d: the object is cut (truncated?)", bytes.Count(doc, []byte("\n"))+1)
	}
	return fmt.Sprintf("line %d: %s", bytes.Count(doc[:at], []byte("\n"))+1, se.Msg)
}

// snapshotEpisode reads the entries of history, a list within doc, one by
// one: an entry that cannot be decoded, or whose turn repeats or goes back
// (source.Sequence), is skipped with a problem that names its line and its
// place in the list (from 0, as in a path to it).
func snapshotEpisode(s *snapshot, doc, history []byte, name string, opt source.Options) *episode.Episode {
	r := newRun(name, SnapshotFormat, opt)
	ep := &r.ep
	texts := &r.texts
	turns := source.NewSequence(1, "entry of turn")
	critic, rejections := true, true
	ids := map[string]int{} // the id the history gives each room name, -1 for several
	var waiting *turn       // the last turn read, whose room is the next entry's
	line, from, i := 1, 0, -1
	jsonl.ScanArray(history, func(elem []byte) { // checked by the slim of doc
		i++
		off := cap(doc) - cap(elem) // elem lies within doc
		line += bytes.Count(doc[from:off], []byte("\n"))
		from = off
		e, why := decodeHistoryEntry(elem)
		if why != "" {
			r.problem(line, true, "state.action_history.%d%s: entry skipped", i, why)
			return
		}
		if waiting != nil { // the room after a turn is the one the next action was taken in
			waiting.roomID, waiting.room = int(deref(e.LocationID)), texts.Text(deref(e.LocationName))
			waiting = nil
		}
		if e.LocationID != nil && e.LocationName != nil {
			if id, ok := ids[*e.LocationName]; !ok || id == int(*e.LocationID) {
				ids[texts.Text(*e.LocationName)] = int(*e.LocationID)
			} else {
				ids[*e.LocationName] = -1
			}
		}
		switch {
		case e.Turn == nil || e.ScoreAfter == nil:
			r.problem(line, true, "state.action_history.%d has no turn or score_after: entry skipped", i)
			return
		case *e.ScoreAfter > source.MaxScore || *e.ScoreAfter < -source.MaxScore:
			r.problem(line, true, "state.action_history.%d: score_after %d is absurd (beyond ±2^53): entry skipped", i, *e.ScoreAfter)
			return
		}
		if why := turns.Place(*e.Turn); why != "" {
			r.problem(line, true, "state.action_history.%d: %s", i, why)
			return
		}
		if i == 0 {
			ep.InitialRoomID, ep.InitialRoom = int(deref(e.LocationID)), texts.Text(deref(e.LocationName))
		}
		tu := r.at(int(*e.Turn))
		*tu = turn{score: int(*e.ScoreAfter), action: texts.Text(deref(e.Action))}
		if e.Response != nil {
			tu.setResponse(*e.Response, texts)
		}
		if e.Critic != nil {
			tu.critic = float32(*e.Critic)
		}
		if e.Rejections != nil {
			tu.rejections = int32(min(max(*e.Rejections, 0), 1<<30))
		}
		critic = critic && e.Critic != nil
		rejections = rejections && e.Rejections != nil
		waiting = tu
	})
	if waiting != nil { // after the last turn, the state's own room
		waiting.roomID, waiting.room = int(deref(s.State.LocationID)), texts.Text(deref(s.State.LocationName))
		if waiting.roomID == 0 && waiting.room != "" {
			waiting.roomID = max(ids[waiting.room], 0) // the state names the last room, by name only
		}
	}
	switch {
	case s.Meta != nil && s.Meta.EpisodeID != nil && *s.Meta.EpisodeID != "":
		ep.ID = source.Text(*s.Meta.EpisodeID)
	case s.State.EpisodeID != nil:
		ep.ID = source.Text(*s.State.EpisodeID)
	case s.Meta != nil && s.Meta.AppID != nil:
		ep.ID = source.Text(*s.Meta.AppID)
	default: // extract_fixtures.py names the file {episode_id}_t{turn}_{action}.json
		if m := snapshotName.FindStringSubmatch(filepath.Base(name)); m != nil {
			ep.ID = m[1]
		}
	}
	if s.Meta != nil && s.Meta.AppID != nil {
		app := source.Text(*s.Meta.AppID)
		ep.Facts = append(ep.Facts, episode.Fact{Key: "app_id", Value: &app, Text: "Burr app " + app})
	}
	at := fmt.Sprintf("after turn %d", len(r.turns))
	if s.Meta != nil && s.Meta.Turn != nil && s.ActionType != nil {
		at = fmt.Sprintf("at turn %d's %s", *s.Meta.Turn, *s.ActionType)
	}
	ep.End = episode.End{Reason: episode.EndNone, Truncated: true}
	ep.Notes = append(ep.Notes, "a state snapshot "+at+": the run went on after it, so its end is not known")
	signals := episode.Signals(0).With(episode.Rooms, episode.Responses, episode.ResponseTexts)
	if critic {
		signals = signals.With(episode.Critic)
	}
	if rejections {
		signals = signals.With(episode.Rejections)
	}
	return r.build(signals)
}

// decodeHistoryEntry decodes one entry of a history, slimmed to what it
// reads: "" or what is wrong with it, as a path from it (".turn: string, not
// a whole number", ": not an object").
func decodeHistoryEntry(elem []byte) (e historyEntry, why string) {
	if len(elem) == 0 || elem[0] != '{' {
		return e, ": not an object"
	}
	var err error
	if len(elem) > source.SlimFrom {
		elem, err = source.Slim(elem, keepTurn)
	}
	if err == nil {
		_, err = jsonl.Decode(elem, &e)
	}
	var se *jsonl.SyntaxError
	switch {
	case errors.As(err, &se):
		return e, ": " + err.Error()
	case err != nil:
		return e, "." + err.Error()
	}
	return e, ""
}

var snapshotName = regexp.MustCompile(`^(.+)_t[0-9]+_[a-z_]+\.json$`)

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
