package zorkgpt

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/internal/realdata"
)

// asGeneral checks that quick, when it is sure of a line, reads it as
// readAny does, and says whether it was sure.
func asGeneral(t testing.TB, line []byte) bool {
	t.Helper()
	return asGeneralAfter(t, new(decoded), line)
}

// asGeneralAfter is asGeneral with q, which may have read other lines
// before: nothing of theirs is left in what it reads.
func asGeneralAfter(t testing.TB, q *decoded, line []byte) bool {
	t.Helper()
	var g decoded
	if !q.quick(line) {
		q.read(line, false) // as Read goes on
		return false
	}
	if err := g.readAny(line, false); err != nil || len(g.problems) > 0 {
		t.Fatalf("quick took %q, which readAny finds wrong: %v %v", line, err, g.problems)
	}
	if q.event != g.event || q.use != g.use {
		t.Fatalf("%q: quick read event %v (use %v), readAny %v (use %v)", line, q.event, q.use, g.event, g.use)
	}
	if q.use && !reflect.DeepEqual(q.rec, g.rec) {
		t.Fatalf("%q: quick read\n%+v\nreadAny\n%+v", line, q.rec, g.rec)
	}
	return true
}

const plainTurn = `{"timestamp": "2025-11-13T08:33:25.358228", "level": "INFO", "message": "Turn 1 completed", "event_type": "turn_completed", "episode_id": "2025-11-13T08:32:52", "turn": 1, "action": "south", "score": 0, "location": "South of House", "confidence": 0.8}`

// quickCases are lines quick is sure of or leaves to readAny, and why.
var quickCases = []struct {
	line string
	sure bool
}{
	{plainTurn, true},
	// texts with escapes, null members, every kind of member
	{`{"event_type": "zork_response", "turn": 3, "action": "say \"hi\"", "zork_response": "You died.\nYou have died", "raw_zork_response": "x\u00e9"}`, true},
	{`{"event_type": "location_penalty_applied", "turn": 2, "location_id": 7, "recent_visits": 3, "base_confidence": 0.8, "adjusted_confidence": 1e-3}`, true},
	{`{"event_type": "orchestrator_init", "episode_id": null, "critic_enabled": false, "max_turns": -0, "game_file_path": "z.z5"}`, true},
	{` {"event_type":"turn_completed","turn":1,"score":5,"extra":[1,{"a":null}],"b":true}  `, true},
	{`{"level": "INFO", "message": "Loaded map state"}`, true},                       // no event type
	{`{"event_type": "final_action_selection", "agent_reasoning": "x\ud800"}`, true}, // not decoded: not read past its event type
	{`{"event_type": "progress", "stage": "other", "turn": 3}`, true},                // progress of no segment
	{`{"event_type": "progress", "stage": "episode_initialization"}`, true},
	// left to readAny
	{`{"event_type": "turn_completed", "turn": 1.0}`, false},
	{`{"event_type": "turn_completed", "turn": "1"}`, false},
	{`{"event_type": "turn_completed", "turn": 99999999999999999999}`, false},
	{`{"event_type": "turn_completed", "turn": 1, "turn": 2}`, false},
	{`{"event_type": "turn_completed", "tur\u006e": 1}`, false},
	{`{"event_type": "turn_completed", "score": NaN}`, false},
	{`{"event_type": "turn_completed", "action": "a` + "\x01" + `"}`, false},
	{`{"event_type": "turn_completed", "action": "` + "\xff" + `"}`, false},
	{`{"event_type": "turn_completed", "action": "\ud800"}`, false},
	{`{"event_type": "turn_completed", "zork_response": null}`, false},
	{`{"event_type": "turn_completed", "extras": {"turn": 1}}`, false},
	{`{"event_type": "", "extras": {"event_type": "turn_completed"}}`, false},
	{`{"event_type": "turn_completed", "event_type": "turn_exception"}`, false},
	{`{"event_type": "jericho_started", "x": {"event_type": "turn_completed"}}`, false},
	{`{"event_type": "jericho_started", "x": "cut {"timestamp": 1}`, false},
	{`{"event_type": "turn_completed", "turn": 1} {"turn": 2}`, false},
	{`{"event_type": "turn_completed", "turn": 1,}`, false},
	{`{"event_type": "turn_completed", "turn": 1`, false},
	{`{}`, false},
	{`[]`, false},
}

func TestQuickAsGeneral(t *testing.T) {
	var after decoded // every case after the one before: nothing of it is left
	for _, tc := range quickCases {
		if sure := asGeneral(t, []byte(tc.line)); sure != tc.sure {
			t.Errorf("%s: sure %v, want %v", tc.line, sure, tc.sure)
		}
		asGeneralAfter(t, &after, []byte(tc.line))
	}
	long := strings.Replace(plainTurn, "south", strings.Repeat("s", maxValue), 1)
	if asGeneral(t, []byte(long)) {
		t.Error("a line longer than maxValue read quickly")
	}
}

// The lines of the bundled episodes are read quickly, as readAny reads
// them, but for those with a NaN (repaired) and those longer than maxValue
// (slimmed).
func TestQuickBundled(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/episodes/*/*.jsonl")
	if len(files) == 0 {
		t.Fatal("no bundled episodes")
	}
	for _, f := range files {
		var q decoded
		eachLine(t, f, func(line []byte) {
			if !asGeneralAfter(t, &q, line) && !bytes.Contains(line, []byte("NaN")) && len(line) <= maxValue {
				t.Errorf("%s: not read quickly: %.200s", f, line)
			}
		})
	}
}

// The lines of other projects' real runs, whatever their format, are read
// quickly as readAny reads them, or left to it.
func TestQuickReal(t *testing.T) {
	for _, dir := range []string{realdata.Dir(t, ""), realdata.External(t, "")} {
		filepath.WalkDir(dir, func(path string, e os.DirEntry, err error) error {
			if err == nil && strings.HasSuffix(path, ".jsonl") {
				var q decoded
				eachLine(t, path, func(line []byte) { asGeneralAfter(t, &q, line) })
			}
			return nil
		})
	}
}

func eachLine(t *testing.T, path string, f func([]byte)) {
	t.Helper()
	file, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) > 0 {
			f(sc.Bytes())
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

// FuzzQuick holds quick to readAny's reading of any line, after the line
// before.
func FuzzQuick(f *testing.F) {
	for i, tc := range quickCases {
		f.Add([]byte(tc.line))
		f.Add([]byte(quickCases[(i+1)%len(quickCases)].line + "\n" + tc.line))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var q decoded
		for l := range bytes.SplitSeq(line, []byte("\n")) {
			if len(bytes.TrimSpace(l)) > 0 {
				asGeneralAfter(t, &q, l)
			}
		}
	})
}

// Every field of record is a member quick reads by its type, but extras,
// which it leaves to the decoder: a field of a new type is to be read here
// too, or its lines all go the general way.
func TestMembers(t *testing.T) {
	rt := reflect.TypeFor[record]()
	for i := range rt.NumField() {
		key, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		if m, ok := members[key]; !ok || (m.kind == mOther) != (key == "extras") {
			t.Errorf("%s: %+v, %v", key, m, ok)
		}
	}
	for key, want := range map[string]memberKind{
		"event_type": mEventType, "episode_id": mText, "turn": mNumber, "adjusted_confidence": mFraction,
		"critic_enabled": mFlag, "raw_zork_response": mResponse, "extras": mOther,
	} {
		if got := members[key].kind; got != want {
			t.Errorf("%s read as %d, want %d", key, got, want)
		}
	}
	for _, key := range []string{"", "timestamp", "level", "message", "turns", "Turn", "turn_numbe", "extras2"} {
		if _, ok := members[key]; ok {
			t.Errorf("%q found", key)
		}
	}
}
