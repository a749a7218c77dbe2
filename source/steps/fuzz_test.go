package steps

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"io"
	"os"
	"reflect"
	"testing"

	"github.com/lbanalyze/lbanalyze/source"
)

// FuzzRead feeds the per-step reader arbitrary bytes through a field map
// with every optional field, nested keys among them: it must never panic,
// and what it returns must hold together.
func FuzzRead(f *testing.F) {
	harness, err := os.ReadFile("../../testdata/steps/harness.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(harness)
	f.Add(harness[:len(harness)/2])
	f.Add([]byte(`{"step": 0, "score": 5, "obs": {"room": "Hall", "text": "-= Restarting =-"}, "usage": {"tokens": 12}}` + "\n" +
		`{"step": 1, "score": NaN, "obs": {"room": 7}, "usage": {"tokens": -1}, "episode": "b"}` + "\n"))
	// Runs in one file (docs/bad-input.md, "Runs in one file"): two keys
	// interleaved, a step repeated, one swapped, a restart, a stray first
	// step, a key again after another.
	f.Add([]byte(`{"episode": "a", "step": 0, "score": 0}` + "\n" + `{"episode": "b", "step": 0, "score": 1}` + "\n" +
		`{"episode": "a", "step": 1, "score": 2}` + "\n" + `{"episode": "a", "step": 1, "score": 2}` + "\n" +
		`{"episode": "b", "step": 2, "score": 1}` + "\n" + `{"episode": "b", "step": 1, "score": 1}` + "\n" +
		`{"episode": "a", "step": 0, "score": 9}` + "\n" + `{"episode": "a", "step": 1, "score": 9}` + "\n" +
		`{"episode": "b", "step": 0, "score": 1}` + "\n" + `{"episode": "b", "step": 3, "score": 1}` + "\n"))
	// What a step did (docs/sources.md, "What a step did"): a tool call as
	// an object, a response, errors of every kind.
	f.Add([]byte(`{"step": 0, "score": 0, "act": {"b": [1, 2.0], "a": "ls"}, "out": "pid 4", "err": "boom"}` + "\n" +
		`{"step": 1, "score": 0, "act": "ls", "out": 7, "err": {}}` + "\n" + `{"step": 2, "score": 0, "act": null, "err": 0}` + "\n"))
	fields, err := ParseFields("turn=step,score=score,action=act,room=obs.room,tokens=usage.tokens,restart=obs.text,episode=episode,response=out,error=err")
	if err != nil {
		f.Fatal(err)
	}
	fields.RestartMarker = "-= Restarting =-"
	f.Fuzz(func(t *testing.T, data []byte) {
		eps, res := source.ReadAll(Source{Fields: fields}, bytes.NewReader(data), "fuzz.jsonl", source.Options{})
		read := 0 // the turns read from a line, over the file: no line in two runs
		for _, ep := range eps {
			if ep.N() < 1 || ep.N() > source.MaxTurn || ep.SkippedLines > res.Lines || ep.Segment < 1 || ep.Segment > res.Segments {
				t.Fatalf("episode %d of %d, of %d turns, %d skipped of %d lines", ep.Segment, res.Segments, ep.N(), ep.SkippedLines, res.Lines)
			}
			read += ep.N() - ep.MissingTurns
			for _, tu := range ep.Turns {
				if len(tu.Action) > source.MaxText || len(tu.Response) > source.MaxText || tu.Response != "" && tu.ResponseHash == 0 {
					t.Fatalf("a step keeps %d bytes of action, %d of response (hash %x)", len(tu.Action), len(tu.Response), tu.ResponseHash)
				}
			}
		}
		if read > res.Lines {
			t.Fatalf("%d turns read from %d lines", read, res.Lines)
		}
		if len(eps) == 0 && len(res.Rejected) == 0 && len(bytes.TrimSpace(data)) > 0 {
			t.Fatal("neither an episode nor a reason")
		}
	})
}

// FuzzTable feeds the table reader arbitrary bytes. Where encoding/csv reads
// them without error (RFC 4180 with no carriage return, on which it and
// Python's csv module agree), the records are its records; and through a
// field map the reader never panics, and what it returns holds together.
func FuzzTable(f *testing.F) {
	f.Add([]byte("Step,Observation,Action,Reward\n0,\"a\nb\",go,0.5\n1,x,\"y,\"\"z\"\"\",-0.1\n"))
	f.Add([]byte("Step\tReward\n0\t1\n\n1\t\n2\tx\n"))
	f.Add([]byte("Step,Reward\n0,1,2\n\"1\",\"2\"\n2,3\r\n\"ab\"c,d\n"))
	f.Add([]byte("Step,Reward,Observation\n0,1,\"cut"))
	fields, err := ParseFields("turn=Step,reward=Reward,action=Action,response=Observation")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !bytes.ContainsRune(data, '\r') {
			r := csv.NewReader(bytes.NewReader(data))
			r.FieldsPerRecord = -1
			if want, err := r.ReadAll(); err == nil {
				got, whole := readAll(t, data)
				if len(want) == 0 {
					want = nil
				}
				if whole && !reflect.DeepEqual(got, want) {
					t.Fatalf("%q: read %q, encoding/csv %q", data, got, want)
				}
			}
		}
		eps, res := source.ReadAll(Table{Fields: fields}, bytes.NewReader(data), "fuzz.csv", source.Options{MaxLine: 64})
		for _, ep := range eps {
			if ep.N() < 1 || ep.SkippedLines > res.Lines+1 {
				t.Fatalf("episode of %d turns, %d skipped of %d lines", ep.N(), ep.SkippedLines, res.Lines)
			}
		}
	})
}

// readAll reads every record of data with every cell held; false when one
// is past the reader's bound (cellCost a cell), so not held whole.
func readAll(t *testing.T, data []byte) ([][]string, bool) {
	c := newCells(bufio.NewReaderSize(bytes.NewReader(data), 16), ',', 1<<20)
	var recs [][]string
	for {
		var rec record
		err := c.next(nil, &rec)
		if err == io.EOF {
			return recs, true
		}
		if err != nil {
			t.Fatalf("%q: %v where encoding/csv reads it", data, err)
		}
		if rec.tooLong >= 0 {
			return nil, false
		}
		row := []string{}
		for _, b := range rec.cells {
			row = append(row, string(b))
		}
		recs = append(recs, row)
	}
}
