package zorkgpt

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/lbanalyze/lbanalyze/jsonl"
	"github.com/lbanalyze/lbanalyze/source"
)

// asDecoded fails unless scan, where it reads line, reads what jsonl.Decode
// reads (goccy/go-json, the oracle), with nothing to mend; it reports
// whether scan read it.
func asDecoded(t *testing.T, line []byte) bool {
	t.Helper()
	var got, want record
	if !scan(line, &got, new(held)) {
		if !reflect.DeepEqual(got, record{}) {
			t.Fatalf("%q: scan declined but left %+v", line, got)
		}
		return false
	}
	rep, err := jsonl.Decode(line, &want)
	if err != nil || rep != 0 || !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\nscan %+v\ngoccy/go-json %+v (repairs %d, %v)", line, got, want, rep, err)
	}
	return true
}

// TestScanAsDecoded holds scan to jsonl.Decode on every line of the bundled
// set and the samples, and says how many it read itself: all but those it
// leaves to goccy/go-json.
func TestScanAsDecoded(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "episodes", "*", "*.jsonl"))
	files = append(files, filepath.Join("..", "..", "testdata", "samples", "episode-e3a.jsonl"))
	lines, read := 0, 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if len(sc.Bytes()) > maxValue {
				continue
			}
			lines++
			if asDecoded(t, sc.Bytes()) {
				read++
			}
		}
	}
	if len(files) < 76 || read < lines*99/100 {
		t.Errorf("%d files: scan read %d lines of %d", len(files), read, lines)
	}
	t.Logf("%d files: scan read %d lines of %d as goccy/go-json reads them", len(files), read, lines)
}

// Every member record names has its place in field, each its own.
func TestScanFields(t *testing.T) {
	var r record
	seen := map[int]bool{}
	for key := range source.Keys(record{}) {
		i, p := r.field(key)
		if p == nil || seen[i] || i >= fields {
			t.Errorf("%s: field %d, %T", key, i, p)
		}
		seen[i] = true
	}
	if len(seen) != fields {
		t.Errorf("%d members, fields says %d", len(seen), fields)
	}
	if _, p := r.field("agent_reasoning"); p != nil {
		t.Errorf("agent_reasoning: %T, want none", p)
	}
}

// FuzzScan: whatever the line, scan reads it as jsonl.Decode does, or
// leaves it to it.
func FuzzScan(f *testing.F) {
	for _, s := range []string{
		tc(3, 5),
		`{"timestamp": "t", "event_type": "zork_response", "turn": 2, "zork_response": "You have died.\n\u00e9", "raw_zork_response": null}`,
		`{"event_type": "location_penalty_applied", "turn": 4, "base_confidence": 0.75, "adjusted_confidence": -1e-3, "critic_enabled": true, "extras": null}`,
		`{"event_type": "turn_completed", "turn": 1.0, "score": NaN, "action": "\ud83d\ude00 \ud800", "act\u0069on": "x"}`,
		`{"event_type": "map_movement_update", "to_room_id": 9223372036854775808, "to_room": 5}`,
		`{"event_type": "score_change", "old_score": 1, "old_score": 2} `,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) { asDecoded(t, line) })
}

// BenchmarkDecodeLine decodes the lines that matter of a turn, as ZorkGPT
// writes them: by scan, and by jsonl.Decode (goccy/go-json) for comparison.
func BenchmarkDecodeLine(b *testing.B) {
	lines := [][]byte{
		[]byte(tc(7, 5)),
		[]byte(`{"timestamp": "2025-10-18T07:04:35.097214", "level": "INFO", "message": "ZORK RESPONSE for 'south':\nSouth of House\nYou are facing the south side of a white house.", "event_type": "zork_response", "episode_id": "2025-10-18T07:04:05", "turn": 7, "action": "south", "zork_response": "South of House\nYou are facing the south side of a white house. There is no door here, and all the windows are boarded.", "raw_zork_response": "South of House\nYou are facing the south side of a white house. There is no door here, and all the windows are boarded."}`),
		[]byte(`{"timestamp": "2025-10-18T07:04:35.098214", "level": "INFO", "message": "Movement: West of House -> South of House", "event_type": "map_movement_update", "episode_id": "2025-10-18T07:04:05", "turn": 7, "from_room": "West of House", "to_room": "South of House", "from_room_id": 180, "to_room_id": 181, "action": "south"}`),
	}
	size := 0
	for _, l := range lines {
		size += len(l)
	}
	for _, by := range []string{"scan", "goccy"} {
		b.Run(by, func(b *testing.B) {
			b.SetBytes(int64(size))
			var h held
			for b.Loop() {
				for _, l := range lines {
					var r record
					if by == "scan" && !scan(l, &r, &h) {
						b.Fatal("not scanned")
					} else if by == "goccy" {
						jsonl.Decode(l, &r)
					}
				}
			}
		})
	}
}
