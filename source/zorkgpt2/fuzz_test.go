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
			if ep.N() < 1 || ep.SkippedLines > res.Lines+1 {
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
