package tau2

import (
	"bytes"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/benchdata"
	"github.com/lbanalyze/lbanalyze/internal/realdata"
	"github.com/lbanalyze/lbanalyze/source"
)

// decoded is a results file read by goccy/go-json alone (readDocument from
// the start): the oracle the scan is held to.
func decoded(data []byte) ([]*episode.Episode, *source.Result) {
	var eps []*episode.Episode
	res := &source.Result{}
	d := source.NewDocument(bytes.NewReader(data), maxSimulation)
	readDocument(d, fromStart, &results{}, res, "f.json", func(ep *episode.Episode) { eps = append(eps, ep) })
	return eps, res
}

// chunked reads at most n bytes a call, so that the scan's buffer ends inside
// every kind of value.
type chunked struct {
	r io.Reader
	n int
}

func (c chunked) Read(p []byte) (int, error) { return c.r.Read(p[:min(len(p), c.n)]) }

// scanned fails unless the scan reads data to its end, handing nothing
// over to goccy/go-json.
func scanned(t *testing.T, data []byte) {
	t.Helper()
	if h := newScan(bytes.NewReader(data), "f.json", &source.Result{}, func(*episode.Episode) {}).read(); h != nil {
		t.Fatalf("handed over at byte %d", h.at)
	}
}

// sameAsDecoded fails unless Read gives, for data read whole and in chunks
// of n bytes, what goccy/go-json gives: the same episodes, rejections, lines
// and fault, word for word. It returns the simulations counted.
func sameAsDecoded(t *testing.T, data []byte, n int) int {
	t.Helper()
	want, wantRes := decoded(data)
	for _, r := range []io.Reader{bytes.NewReader(data), chunked{bytes.NewReader(data), n}} {
		got, res := source.ReadAll(Source{}, r, "f.json", source.Options{})
		if !reflect.DeepEqual(res, wantRes) {
			t.Fatalf("result %+v (cut %v), goccy/go-json's %+v (cut %v)", res, res.Cut, wantRes, wantRes.Cut)
		}
		if len(got) != len(want) {
			t.Fatalf("%d episodes, goccy/go-json's %d", len(got), len(want))
		}
		for i := range got {
			if !sameEpisode(got[i], want[i]) {
				t.Fatalf("episode %d:\n%+v\ngoccy/go-json's:\n%+v", i, got[i], want[i])
			}
		}
	}
	return wantRes.Segments
}

// sameEpisode is reflect.DeepEqual with NaN equal to NaN (a cost or a
// reward may be one).
func sameEpisode(a, b *episode.Episode) bool {
	if reflect.DeepEqual(a, b) {
		return true
	}
	if len(a.Turns) != len(b.Turns) {
		return false
	}
	x, y := *a, *b
	x.Turns, y.Turns = nil, nil
	if !reflect.DeepEqual(x, y) {
		return false
	}
	for i := range a.Turns {
		s, u := a.Turns[i], b.Turns[i]
		if math.IsNaN(s.Cost) && math.IsNaN(u.Cost) {
			s.Cost, u.Cost = 0, 0
		}
		if math.IsNaN(float64(s.Score)) && math.IsNaN(float64(u.Score)) {
			s.Score, u.Score = 0, 0
		}
		if !reflect.DeepEqual(s, u) {
			return false
		}
	}
	return true
}

// TestScanAsDecoded holds the scan to goccy/go-json's reading on the
// project's sample, a generated file and every leaderboard run
// (shared/external/tau2, skipped when absent), each read whole and in
// chunks.
func TestScanAsDecoded(t *testing.T) {
	sample, err := os.ReadFile(filepath.Join("..", "..", "testdata", "tau2", "airline.json"))
	if err != nil {
		t.Fatal(err)
	}
	var gen bytes.Buffer
	if err := benchdata.Tau2(&gen, 2<<20); err != nil {
		t.Fatal(err)
	}
	t.Run("sample", func(t *testing.T) {
		scanned(t, sample)
		if n := sameAsDecoded(t, sample, 7); n != 3 {
			t.Errorf("%d simulations, want 3", n)
		}
	})
	t.Run("generated", func(t *testing.T) {
		scanned(t, gen.Bytes())
		if n := sameAsDecoded(t, gen.Bytes(), 4093); n < 30 {
			t.Errorf("%d simulations, want 30 or more", n)
		}
	})
	t.Run("long", func(t *testing.T) {
		long := []byte(`[{"id": "a", "messages": [{"role": "assistant", "content": "hi"}, {"role": "user", "content": "` +
			strings.Repeat("x", maxScanned+2*chunk) + `"}]}, {"id": "b", "messages": [{"role": "assistant", "content": "bye"}]}]`)
		if h := newScan(bytes.NewReader(long), "f.json", &source.Result{}, func(*episode.Episode) {}).read(); h == nil || h.from != fromSimulations {
			t.Fatalf("handed over %+v, want from the first simulation, longer than the scan holds", h)
		}
		if n := sameAsDecoded(t, long, 1<<20); n != 2 {
			t.Errorf("%d simulations, want 2", n)
		}
	})
	t.Run("leaderboard", func(t *testing.T) {
		dir := realdata.External(t, "tau2")
		files, _ := filepath.Glob(filepath.Join(dir, "*", "*.json"))
		sims := 0
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			scanned(t, data)
			sims += sameAsDecoded(t, data, 65521)
		}
		if len(files) == 0 || sims == 0 {
			t.Fatalf("%d simulations in %d files", sims, len(files))
		}
		t.Logf("%d simulations in %d files read as goccy/go-json reads them", sims, len(files))
	})
}

// FuzzScan: whatever the bytes, Read gives what goccy/go-json gives, read
// whole and in chunks of a few bytes.
func FuzzScan(f *testing.F) {
	sample, err := os.ReadFile(filepath.Join("..", "..", "testdata", "tau2", "airline.json"))
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range [][]byte{sample,
		[]byte(`[{"id": "a", "task_id": 7, "reward_info": {"reward": 0.25}, "messages": [{"role": "assistant", "content": null, "tool_calls": [{"name": "x", "arguments": {"b": 1, "a": [2]}}]}, {"role": "tool", "content": "\"\\u00e9\\ud83d\\ude00\"", "error": true}]}]`),
		[]byte(`{"simulations": [{"id": "a", "messages": [{"role": "assistant", "cost": NaN}]}]}`),
		[]byte(`{"model": "m", "simulations": [{"id": "a", "id": "b", "messages": [{"role": "assistant", "content": "x"}]}], "domain": "d", "model": "n"}`),
		[]byte(`[{"id": "a", "messages": [{"role": "assistant", "usage": {"prompt_tokens": 1.5}}]}, {"id": "b", "messages": [{"role": "assistant", "content": "\x01"}]}] x`),
		[]byte("{}\x00"), // a 0 byte after the document: not the buffer's end
	} {
		f.Add(s, uint8(3))
	}
	f.Fuzz(func(t *testing.T, data []byte, n uint8) {
		sameAsDecoded(t, data, int(n)+1)
	})
}

// stalled gives its bytes, then nothing, never an error.
type stalled struct{ r io.Reader }

func (s stalled) Read(p []byte) (int, error) {
	n, _ := s.r.Read(p)
	return n, nil
}

// A reader that stops giving bytes without an error cuts the file there,
// said, where goccy/go-json alone would wait for ever.
func TestScanNoProgress(t *testing.T) {
	data := []byte(`[{"id": "a", "messages": [{"role": "assistant", "content": "x"}]}, {"id": "b", "mess`)
	eps, res := source.ReadAll(Source{}, stalled{bytes.NewReader(data)}, "f.json", source.Options{})
	if len(eps) != 1 || res.Cut == nil || !strings.HasPrefix(res.Cut.Msg, "line 1: ") {
		t.Fatalf("%d episodes, cut %+v", len(eps), res.Cut)
	}
}
