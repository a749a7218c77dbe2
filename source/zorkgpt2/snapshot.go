package zorkgpt2

import (
	"bytes"
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
// exactly.
type snapshot struct {
	Meta *struct {
		AppID     *string `json:"app_id"`
		EpisodeID *string `json:"episode_id"`
		Turn      *int64  `json:"turn"`
	} `json:"meta"`
	ActionType *string `json:"action_type"`
	State      *struct {
		History      []historyEntry `json:"action_history"`
		EpisodeID    *string        `json:"episode_id"`
		LocationID   *int64         `json:"location_id"`
		LocationName *string        `json:"location_name"`
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

// keepSnapshot keeps, of a snapshot, what snapshot names: of its history,
// each turn's few members, not the agent's reasoning.
var (
	keepSnapshot = source.Nested("meta", source.Only(source.Keys(snapshot{}.Meta)),
		source.Nested("state", keepState, source.Only(source.Keys(snapshot{}))))
	stateKeys = source.Keys(snapshot{}.State)
	keepTurn  = source.Only(source.Keys(historyEntry{}))
)

func keepState(key string, v []byte) ([]byte, bool) {
	if key == "action_history" && len(v) > 0 && v[0] == '[' {
		s, err := source.SlimEach(v, keepTurn)
		return s, err == nil
	}
	return v, stateKeys[key]
}

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
// 16 MiB holds some 15,000 turns.
func (Snapshot) Read(r io.Reader, name string, opt source.Options, emit func(*episode.Episode)) *source.Result {
	opt = opt.WithDefaults()
	res := &source.Result{Segments: 1}
	reject := func(reason string) *source.Result {
		res.Rejected = []source.Rejected{{Segment: 1, Reason: reason}}
		return res
	}
	doc, err := io.ReadAll(io.LimitReader(r, int64(opt.MaxLine)+1))
	switch {
	case err != nil:
		return reject("not a state snapshot: " + err.Error())
	case len(doc) > opt.MaxLine:
		return reject(fmt.Sprintf("not a state snapshot: longer than %s", jsonl.Size(int64(opt.MaxLine))))
	}
	doc = bytes.TrimPrefix(doc, []byte("\xef\xbb\xbf"))
	slim, err := source.Slim(doc, keepSnapshot)
	if err != nil {
		return reject("not a state snapshot: " + where(doc, err))
	}
	var s snapshot
	if _, err := jsonl.Decode(slim, &s); err != nil {
		return reject("not a state snapshot: " + err.Error())
	}
	if s.State == nil || len(s.State.History) == 0 {
		return reject("no turns: the snapshot's action_history is empty")
	}
	ep := snapshotEpisode(&s, name, opt)
	if ep.N() == 0 {
		res.Rejected = []source.Rejected{{Segment: 1, ID: ep.ID, Reason: "no turns: no action_history entry has a turn and a score_after"}}
		res.Problems = ep.Problems
		return res
	}
	emit(ep)
	return res
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

func snapshotEpisode(s *snapshot, name string, opt source.Options) *episode.Episode {
	r := newRun(name, SnapshotFormat, opt)
	ep := &r.ep
	rooms := source.Interner{}
	hist := s.State.History
	critic, rejections := true, true
	for i := range hist {
		e := &hist[i]
		if e.Turn == nil || e.ScoreAfter == nil {
			r.problem(0, false, "action_history entry %d has no turn or score_after: left out", i+1)
			continue
		}
		tu := r.at(int(*e.Turn), 0)
		switch {
		case tu == nil:
			continue
		case !tu.missing:
			r.problem(0, false, "action_history has turn %d twice: the later entry is left out", *e.Turn)
			continue
		}
		*tu = turn{score: int(*e.ScoreAfter), action: deref(e.Action)}
		if e.Response != nil {
			tu.response = responseHash(*e.Response)
		}
		if e.Critic != nil {
			tu.critic = float32(*e.Critic)
		}
		if e.Rejections != nil {
			tu.rejections = int32(min(max(*e.Rejections, 0), 1<<30))
		}
		critic = critic && e.Critic != nil
		rejections = rejections && e.Rejections != nil
		if i == 0 {
			ep.InitialRoomID, ep.InitialRoom = int(deref(hist[0].LocationID)), rooms.Intern(deref(hist[0].LocationName))
		}
		// The room after this turn is the one the next action was taken in.
		id, room := s.State.LocationID, s.State.LocationName
		if i+1 < len(hist) {
			id, room = hist[i+1].LocationID, hist[i+1].LocationName
		}
		tu.roomID, tu.room = int(deref(id)), rooms.Intern(deref(room))
	}
	if n := len(r.turns); n > 0 && r.turns[n-1].roomID == 0 && r.turns[n-1].room != "" {
		last := &r.turns[n-1]
		last.roomID = idOfRoom(hist, last.room) // the state names the last room, by name only
	}
	switch {
	case s.Meta != nil && s.Meta.EpisodeID != nil && *s.Meta.EpisodeID != "":
		ep.ID = *s.Meta.EpisodeID
	case s.State.EpisodeID != nil:
		ep.ID = *s.State.EpisodeID
	case s.Meta != nil && s.Meta.AppID != nil:
		ep.ID = *s.Meta.AppID
	default: // extract_fixtures.py names the file {episode_id}_t{turn}_{action}.json
		if m := snapshotName.FindStringSubmatch(filepath.Base(name)); m != nil {
			ep.ID = m[1]
		}
	}
	if s.Meta != nil && s.Meta.AppID != nil {
		ep.Facts = append(ep.Facts, episode.Fact{Key: "app_id", Value: s.Meta.AppID, Text: "Burr app " + *s.Meta.AppID})
	}
	at := fmt.Sprintf("after turn %d", len(r.turns))
	if s.Meta != nil && s.Meta.Turn != nil && s.ActionType != nil {
		at = fmt.Sprintf("at turn %d's %s", *s.Meta.Turn, *s.ActionType)
	}
	ep.End = episode.End{Reason: episode.EndNone}
	ep.Notes = append(ep.Notes, "a state snapshot "+at+": the run went on after it, so its end is not known")
	signals := episode.Signals(0).With(episode.Rooms, episode.Responses)
	if critic {
		signals = signals.With(episode.Critic)
	}
	if rejections {
		signals = signals.With(episode.Rejections)
	}
	return r.build(signals)
}

// idOfRoom is the one id the history gives rooms named room, 0 when it
// gives none or several (Zork has several rooms named "Forest").
func idOfRoom(hist []historyEntry, room string) int {
	id := 0
	for _, e := range hist {
		if e.LocationID != nil && deref(e.LocationName) == room {
			if id != 0 && id != int(*e.LocationID) {
				return 0
			}
			id = int(*e.LocationID)
		}
	}
	return id
}

var snapshotName = regexp.MustCompile(`^(.+)_t[0-9]+_[a-z_]+\.json$`)

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
