package zorkgpt2

import (
	"bytes"
	"testing"

	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/source"
)

// FuzzRead feeds each of ZorkGPT2's three readers arbitrary bytes (the first
// byte picks the reader): none may panic, and what each returns must hold
// together and replay.
func FuzzRead(f *testing.F) {
	var burr bytes.Buffer
	for _, l := range turnLines(1, 0, 0, "assemble_context", nil) {
		burr.WriteString(l)
	}
	for _, l := range turnLines(2, 0, 5, "record_results", map[string]any{"rejection_count": 3}) {
		burr.WriteString(l)
	}
	f.Add(append([]byte{0}, burr.Bytes()...))
	// Entries repeated, and a second application appended, its ids from 0.
	var twice bytes.Buffer
	for _, l := range bytes.SplitAfter(burr.Bytes(), []byte("\n")) {
		twice.Write(l)
		if bytes.Contains(l, []byte("generate_action")) || bytes.Contains(l, []byte(`"execute_action","result"`)) {
			twice.Write(l)
		}
	}
	twice.Write(bytes.ReplaceAll(burr.Bytes(), []byte(`"sequence_id":2`), []byte(`"sequence_id":`)))
	f.Add(append([]byte{0}, twice.Bytes()...))
	f.Add(append([]byte{1}, "TURN 1 | loc=A | score=0/350 | critic=0.70 | rejections=0 | action=x\nTURN 2 | loc=A | score=0/350 | critic=0.70 | rejections=0 | action=x\n"+
		"TURN 2 | loc=A | score=0/350 | critic=0.70 | rejections=0 | action=x\nTURN 1 | loc=B | score=5/350 | critic=0.70 | rejections=0 | action=y\n"+
		"TURN 3 | loc=A | score=0/350 | critic=0.70 | rejections=0 | action=x\nTURN 1 | loc=B | score=5/350 | critic=0.70 | rejections=0 | action=y\n"+
		"TURN 2 | loc=B | score=5/350 | critic=0.70 | rejections=0 | action=y\n"...))
	f.Add(append([]byte{0}, burr.Bytes()[:burr.Len()/2]...))
	f.Add(append([]byte{1}, runLogText...))
	f.Add(append([]byte{2}, snapshotDoc...))
	f.Add(append([]byte{2}, snapshotDoc[:len(snapshotDoc)/2]...))
	readers := []source.Source{Burr{}, RunLog{}, Snapshot{}}
	policies := []policy.Policy{{Name: policy.Zorkburr}, {Name: policy.Supervisor}}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		src := readers[int(data[0])%len(readers)]
		eps, res := source.ReadAll(src, bytes.NewReader(data[1:]), "fuzz", source.Options{})
		for _, ep := range eps {
			if ep.N() < 1 || ep.N() > source.MaxTurn || ep.SkippedLines > res.Lines+1 || ep.Segment < 1 || ep.Segment > res.Segments {
				t.Fatalf("%s: episode of %d turns, %d skipped of %d lines", src.Format(), ep.N(), ep.SkippedLines, res.Lines)
			}
			for _, p := range policies {
				if o := replay.Run(ep, p); o.Length < 1 || o.Length > ep.N() {
					t.Fatalf("%s: %s length %d of %d turns", src.Format(), p, o.Length, ep.N())
				}
			}
		}
	})
}
