package replay

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/lbanalyze/lbanalyze/jsonl"
)

// sameAsCodec checks that a line the fast path decodes is decoded exactly as
// encoding/json decodes it.
func sameAsCodec(t *testing.T, line []byte) {
	t.Helper()
	// The reader's one scan: the event type peek gives, and the fields
	// fastDecode gives whenever it says they are exact (each into arenas of
	// its own, so that the comparison is of values written twice).
	var scanned record
	var as1, as2 arenas
	et, scanFast, scanErr := scan(line, &scanned, &as1)
	scanFast = scanFast && cleanText(line)
	pet, peekErr := peek(line)
	if (scanErr == nil) != (peekErr == nil) || !bytes.Equal(et, pet) {
		t.Fatalf("scan: event type %q (%v), peek: %q (%v): %s", et, scanErr, pet, peekErr, line)
	}
	var fast record
	ok := fastDecode(line, &fast, &as2)
	// A line that is not decoded: scan stops reading its fields at its event
	// type, so only the lines that matter are compared.
	if info := events[string(et)]; info != nil && info.decode {
		if ok != scanFast {
			t.Fatalf("scan says fast %v, fastDecode %v: %s", scanFast, ok, line)
		}
		if ok && !reflect.DeepEqual(fast, scanned) {
			t.Fatalf("scan %+v, fastDecode %+v: %s", scanned, fast, line)
		}
	}
	if !ok {
		return
	}
	var slow record
	if _, err := jsonl.StdCodec.Decode(line, &slow); err != nil {
		t.Fatalf("fast path accepts what encoding/json rejects (%v): %s", err, line)
	}
	fast.flatten()
	slow.flatten()
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("fast %+v, encoding/json %+v: %s", fast, slow, line)
	}
}

// TestFastDecodeMatchesCodec decodes every line of the bundled dataset both ways.
func TestFastDecodeMatchesCodec(t *testing.T) {
	files, _ := filepath.Glob("../testdata/episodes/*/episode_log.jsonl")
	files = append(files, "../testdata/samples/episode-2025-06-09T20-04-36.jsonl")
	n := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range bytes.Split(data, []byte("\n")) {
			sameAsCodec(t, line)
			n++
		}
	}
	for _, s := range []string{
		`{"event_type": "turn_completed", "turn": 1, "score": NaN, "Score": 5}`,
		`{"event_type": "turn_completed", "turn": 1.0}`,
		`{"event_type": "turn_completed", "turn": "1"}`,
		`{"event_type": "turn_completed", "turn": 99999999999999999999}`,
		`{"extras": {"event_type": "objectives_updated", "turn": 3, "objectives": ["a", ["b", "c"]]}, "turn": null}`,
		`{"event_type": "orchestrator_init", "critic_enabled": true, "extras": null, "turn": -0}`,
		`{"event_type": "turn_completed", "action": "say \"hi\""}`,
		`{"event_type": "turn_completed", "action": "caf` + "\xc3\xa9" + `"}`,
		`{"event_type": "turn_completed", "action": "caf\u00e9 \ud83d\ude00 \ud800 x\/y\\"}`,
		`{"event_type": "turn_completed", "action": "bad \x escape"}`,
		`{"event_type": "turn_completed", "action": "short \u12"}`,
		`{"event_type": "turn_completed", "sc\u006fre": 7, "score": 5}`,
		`{"event_type": "turn_\u0063ompleted", "turn": 2}`,
		`{"event_type": "turn_completed", "zork_response": "a \\x", "reasoning": "tab\tquote\" \q"}`,
		`{"event_type": "turn_completed", "zork_response": "raw` + "\t" + `tab"}`,
	} {
		sameAsCodec(t, []byte(s))
	}
	t.Logf("%d lines", n)
}

// TestFastDecodeTakesEscapes: a line whose strings hold JSON escapes (the
// game's newlines, quotes in reasoning) is decoded without the codec, and an
// escape JSON does not allow, a raw control character or an escaped key is not.
func TestFastDecodeTakesEscapes(t *testing.T) {
	for _, c := range []struct {
		line string
		fast bool
	}{
		{`{"event_type": "turn_completed", "turn": 3, "zork_response": "West of House\nYou are \"here\".", "action": "say \"hi\"\u00e9"}`, true},
		{`{"event_type": "turn_completed", "reasoning": "a \ud83d\ude00 \/ \\", "score": 5}`, true},
		{`{"event_type": "turn_completed", "reasoning": "bad \x", "score": 5}`, false},
		{`{"event_type": "turn_completed", "reasoning": "cut \u00", "score": 5}`, false},
		{`{"event_type": "turn_completed", "reasoning": "raw` + "\n" + `newline", "score": 5}`, false},
		{`{"event_type": "turn_completed", "sc\u006fre": 5}`, false},
		// encoding/json matches keys without regard to case: "taskName"
		// (every v2 record has it) matches no field, "Score" and "ſcore"
		// (U+017F folds to s) might.
		{`{"event_type": "turn_completed", "taskName": null, "score": 5}`, true},
		{`{"event_type": "turn_completed", "Score": 7, "score": 5}`, false},
		{`{"event_type": "turn_completed", "\u017fcore": 7, "score": 5}`, false},
		{`{"event_type": "turn_completed", "` + "\xc5\xbf" + `core": 7, "score": 5}`, false},
	} {
		var r record
		if got := fastDecode([]byte(c.line), &r, &arenas{}); got != c.fast {
			t.Errorf("fastDecode = %v, want %v: %s", got, c.fast, c.line)
		}
		sameAsCodec(t, []byte(c.line))
	}
	for k := range recordKeys {
		if len(k) > len(lowerBuf{}) {
			t.Errorf("key %q is longer than lowerBuf: foldsToField would miss it", k)
		}
	}
	var r record
	fastDecode([]byte(`{"event_type": "turn_completed", "action": "say \"hi\"\u00e9"}`), &r, &arenas{})
	if r.Action == nil || *r.Action != "say \"hi\"é" {
		t.Errorf("action %v, want say \"hi\"é", r.Action)
	}
}

// FuzzFastDecode: whatever the fast path decodes, encoding/json decodes the same.
func FuzzFastDecode(f *testing.F) {
	f.Add([]byte(`{"event_type": "turn_completed", "turn": 1, "score": 5, "action": "look", "extras": {"turn": 2}}`))
	f.Add([]byte(`{"extras": {"event_type": "objectives_updated", "objectives": ["a", {"b": [1]}]}}`))
	f.Add([]byte(`{"event_type": "orchestrator_init", "critic_enabled": false, "max_turns": NaN}`))
	f.Add([]byte(`{"event_type": "turn_completed", "action": "a\"b\u00e9\ud800", "zork_response": "x\ny"}`))
	f.Fuzz(func(t *testing.T, line []byte) { sameAsCodec(t, line) })
}
