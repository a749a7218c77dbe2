package tau2

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/goccy/go-json/jsontext"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/benchdata"
	"github.com/lbanalyze/lbanalyze/internal/testlogs"
	"github.com/lbanalyze/lbanalyze/source"
	perstep "github.com/lbanalyze/lbanalyze/source/steps"
)

// generated is benchdata.Tau2's file of 30 MB and its simulations.
func generated(tb testing.TB) ([]byte, int) {
	var buf bytes.Buffer
	if err := benchdata.Tau2(&buf, 30<<20); err != nil {
		tb.Fatal(err)
	}
	n := 0
	(Source{}).Read(bytes.NewReader(buf.Bytes()), "bench.json", source.Options{}, func(*episode.Episode) { n++ })
	return buf.Bytes(), n
}

// leaderboard is every leaderboard run (shared/external/tau2, 29 MB; skipped
// when absent) and their simulations.
func leaderboard(tb testing.TB) ([][]byte, int) {
	var data [][]byte
	n := 0
	for _, f := range testlogs.Tau2Runs(tb) {
		d, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		k, _ := scanRead(d)
		data, n = append(data, d), n+k
	}
	return data, n
}

// benchRead reads each of files by read, which gives its simulations, n in
// all, per iteration, reporting CPU time and the rate per byte.
func benchRead(b *testing.B, files [][]byte, n int, read func([]byte) (int, *episode.Problem)) {
	size := 0
	for _, f := range files {
		size += len(f)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	stop := benchdata.CPU(b)
	for b.Loop() {
		got := 0
		for _, f := range files {
			k, cut := read(f)
			if cut != nil {
				b.Fatal(cut)
			}
			got += k
		}
		if got != n {
			b.Fatalf("%d simulations, want %d", got, n)
		}
	}
	stop()
}

// scanRead reads a results file as Read does.
func scanRead(data []byte) (int, *episode.Problem) {
	n := 0
	res := (Source{}).Read(bytes.NewReader(data), "bench.json", source.Options{}, func(*episode.Episode) { n++ })
	return n, res.Cut
}

// decodedRead reads it with goccy/go-json alone (readDocument from the
// start): the path the scan stands in for.
func decodedRead(data []byte) (int, *episode.Problem) {
	eps, res := decoded(data)
	return len(eps), res.Cut
}

// BenchmarkRead reads a generated results file of 30 MB (benchdata.Tau2),
// for its rate per byte beside the per-step JSONL of the same simulations
// (BenchmarkReadSteps; docs/PERFORMANCE.md, "Runs judged by their result").
func BenchmarkRead(b *testing.B) {
	data, n := generated(b)
	benchRead(b, [][]byte{data}, n, scanRead)
}

// BenchmarkReadDecoded reads it with goccy/go-json alone.
func BenchmarkReadDecoded(b *testing.B) {
	data, n := generated(b)
	benchRead(b, [][]byte{data}, n, decodedRead)
}

// tau2Steps is the simulations of BenchmarkRead's file as per-step JSONL
// (benchdata.Tau2Steps), and the field map that reads them.
func tau2Steps(tb testing.TB) ([]byte, int, perstep.Source) {
	_, n := generated(tb)
	var buf bytes.Buffer
	if err := benchdata.Tau2Steps(&buf, n); err != nil {
		tb.Fatal(err)
	}
	f, err := perstep.ParseFields(benchdata.Tau2StepsFields)
	if err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes(), n, perstep.Source{Fields: f}
}

// BenchmarkReadSteps reads the same simulations written as per-step JSONL,
// a line an agent step (benchdata.Tau2Steps), through the per-step reader
// with a field map: the yardstick of BenchmarkRead's rate, on the same
// content.
func BenchmarkReadSteps(b *testing.B) {
	data, n, src := tau2Steps(b)
	benchRead(b, [][]byte{data}, n, func(d []byte) (int, *episode.Problem) {
		k := 0
		res := src.Read(bytes.NewReader(d), "bench.jsonl", source.Options{}, func(*episode.Episode) { k++ })
		return k, res.Cut
	})
}

// BenchmarkReadLeaderboard reads every leaderboard run: the rate on real
// files beside the generated one's.
func BenchmarkReadLeaderboard(b *testing.B) {
	files, n := leaderboard(b)
	benchRead(b, files, n, scanRead)
}

// BenchmarkReadLeaderboardDecoded reads them with goccy/go-json alone.
func BenchmarkReadLeaderboardDecoded(b *testing.B) {
	files, n := leaderboard(b)
	benchRead(b, files, n, decodedRead)
}

// TestStepsAreTheSimulations: BenchmarkReadSteps's lines are the
// simulations of BenchmarkRead's file, step for step: the same ids, agent
// steps, actions, tokens, errors and results, so that the two rates are of
// the same content.
func TestStepsAreTheSimulations(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 30 MB")
	}
	file, _ := generated(t)
	data, n, src := tau2Steps(t)
	tau, res := source.ReadAll(Source{}, bytes.NewReader(file), "bench.json", source.Options{})
	lines, lres := source.ReadAll(src, bytes.NewReader(data), "bench.jsonl", source.Options{})
	if res.Cut != nil || lres.Cut != nil || len(tau) != n || len(lines) != n || n < 400 {
		t.Fatalf("%d and %d episodes of %d, cuts %v %v", len(tau), len(lines), n, res.Cut, lres.Cut)
	}
	for i := range tau {
		a, b := tau[i], lines[i]
		ra, _ := a.Result()
		if a.ID != b.ID || a.N() != 11 || b.N() != 11 || ra != b.FinalScore() {
			t.Fatalf("simulation %d: %s, %d steps, result %v; its lines %s, %d steps, %v", i, a.ID, a.N(), ra, b.ID, b.N(), b.FinalScore())
		}
		for j := range a.Turns {
			x, y := a.Turns[j], b.Turns[j]
			if x.Action != y.Action || x.Tokens != y.Tokens || x.Errored != y.Errored {
				t.Fatalf("%s step %d: %q %d %v; its line: %q %d %v", a.ID, j+1, x.Action, x.Tokens, x.Errored, y.Action, y.Tokens, y.Errored)
			}
		}
	}
}

// leaderboardSteps is every leaderboard run written as per-step JSONL, as
// benchdata.Tau2Steps writes the generated ones: a line an agent step with
// the simulation's id, the step's number, time, cost and usage as written,
// its action as Read makes it, what answered it (the content of the tool
// results after it, else of the user's reply, as written: one, or a list of
// several) and the reward on the last step. Made in memory for the
// benchmark, never kept.
func leaderboardSteps(b *testing.B) []byte {
	type msg struct {
		Role      string          `json:"role"`
		Content   json.RawMessage `json:"content"`
		ToolCalls []struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"tool_calls"`
		Cost      json.RawMessage `json:"cost"`
		Usage     json.RawMessage `json:"usage"`
		Timestamp json.RawMessage `json:"timestamp"`
		Error     *bool           `json:"error"`
	}
	type simulation struct {
		ID         string `json:"id"`
		RewardInfo *struct {
			Reward *float64 `json:"reward"`
		} `json:"reward_info"`
		Messages []msg `json:"messages"`
	}
	orNull := func(v json.RawMessage) json.RawMessage {
		if len(v) == 0 {
			return json.RawMessage("null")
		}
		return v
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	for _, f := range testlogs.Tau2Runs(b) {
		for _, s := range testlogs.Tau2Simulations[simulation](b, f) {
			var agent []int
			for i, m := range s.Messages {
				if m.Role == "assistant" {
					agent = append(agent, i)
				}
			}
			for k, i := range agent {
				m := s.Messages[i]
				var act message
				act.Content.hold(orNull(m.Content))
				for _, c := range m.ToolCalls {
					act.ToolCalls = append(act.ToolCalls, toolCall{Name: c.Name, Arguments: jsontext.Value(c.Arguments)})
				}
				var answers []json.RawMessage
				errored := false
				for j := i + 1; j < len(s.Messages) && s.Messages[j].Role != "assistant"; j++ {
					if r := s.Messages[j]; r.Role == "tool" || j == i+1 {
						answers = append(answers, orNull(r.Content))
						errored = errored || r.Error != nil && *r.Error
					}
					if s.Messages[j].Role != "tool" {
						break
					}
				}
				result := json.RawMessage("null")
				if len(answers) == 1 {
					result = answers[0]
				} else if len(answers) > 1 {
					result, _ = json.Marshal(answers)
				}
				reward := 0.0
				if k == len(agent)-1 && s.RewardInfo != nil && s.RewardInfo.Reward != nil {
					reward = *s.RewardInfo.Reward
				}
				err := enc.Encode(struct {
					Episode   string          `json:"episode_id"`
					Step      int             `json:"step"`
					Timestamp json.RawMessage `json:"timestamp"`
					Action    string          `json:"action"`
					Result    json.RawMessage `json:"result"`
					Error     bool            `json:"error"`
					Cost      json.RawMessage `json:"cost"`
					Usage     json.RawMessage `json:"usage"`
					Reward    float64         `json:"reward"`
				}{s.ID, k, orNull(m.Timestamp), action(&act), result, errored, orNull(m.Cost), orNull(m.Usage), reward})
				if err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	return out.Bytes()
}

// BenchmarkReadLeaderboardSteps reads the leaderboard's simulations as
// per-step JSONL through the field map's reader: BenchmarkReadLeaderboard's
// yardstick on the same content.
func BenchmarkReadLeaderboardSteps(b *testing.B) {
	data := leaderboardSteps(b)
	f, err := perstep.ParseFields(benchdata.Tau2StepsFields)
	if err != nil {
		b.Fatal(err)
	}
	src := perstep.Source{Fields: f}
	read := func(d []byte) (int, *episode.Problem) {
		k := 0
		res := src.Read(bytes.NewReader(d), "bench.jsonl", source.Options{}, func(*episode.Episode) { k++ })
		return k, res.Cut
	}
	n, _ := read(data)
	benchRead(b, [][]byte{data}, n, read)
}
