package charts

import (
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/report"
)

var update = flag.Bool("update", false, "rewrite the golden SVG files in testdata/ (read the diff before committing it)")

var (
	scorePolicy = policy.Policy{Name: policy.Score}
	v2Policy    = policy.Policy{Name: policy.ScoreOrObjective}
	window      = policy.Policy{Name: policy.Window}
)

// plan describes a test episode compactly: n turns, the score stepping to
// changes[t] at turn t, objectives completed at their turns, deaths, and how
// the log ends. charts tests build replay.Episodes directly: the charts
// package knows nothing of log files.
type plan struct {
	id         string
	n          int
	changes    map[int]int
	objectives map[int]string
	deaths     []int
	end        episode.EndReason
	source     string
}

func (p plan) episode() *episode.Episode {
	// A ZorkGPT log records objectives: score-or-objective and window replay on it.
	ep := &episode.Episode{ID: p.id, Source: p.source, Segment: 1, Format: "zorkgpt", End: episode.End{Reason: p.end, Turn: p.n},
		Signals: episode.Signals(episode.Objectives)}
	if ep.Source == "" {
		ep.Source = p.id + "/episode_log.jsonl"
	}
	if p.end == "" {
		ep.End = episode.End{Reason: episode.EndNone, Truncated: true}
	}
	score := 0
	for t := 1; t <= p.n; t++ {
		if v, ok := p.changes[t]; ok {
			score = v
		}
		tu := episode.Turn{Score: episode.Score(score), Action: fmt.Sprintf("action %d", t), Location: "West of House"}
		if o, ok := p.objectives[t]; ok {
			tu.Objectives = 1
			ep.Objectives = append(ep.Objectives, episode.Completion{Turn: t, Objective: o})
		}
		ep.Turns = append(ep.Turns, tu)
	}
	for _, d := range p.deaths {
		ep.Deaths = append(ep.Deaths, episode.Death{Turn: d, Reason: "Player death"})
	}
	if p.end == episode.EndStuckTermination {
		ep.Recorded.Stop = &episode.Stop{Turn: p.n, Score: score, TurnsStuck: 40}
		ep.End.TurnsStuck = 40
	}
	return ep
}

// analyse replays the policies over the plan's episode, as the commands do.
func (p plan) analyse(policies ...policy.Policy) report.Episode {
	return report.Analyse(p.episode(), policies, policy.DefaultTimer(), report.Options{Costs: metrics.Costs{CallsPerTurn: 4}})
}

// premature is the README's example: flat to 74, +10 at 75, an objective at
// 30. score stops at 40 (a false-termination candidate), score-or-objective
// never stops, window stops at 70 (30 + 40).
var premature = plan{id: "2025-11-12T10:00:00", n: 100, changes: map[int]int{75: 10},
	objectives: map[int]string{30: "Open the window"}}

// dataset is a deterministic dataset of n episodes of every kind: premature
// stops, truly stuck ones, censored ones, deaths and game overs.
func dataset(t testing.TB, n int) *report.Dataset {
	t.Helper()
	return datasetOf(t, n, scorePolicy, v2Policy)
}

// datasetOf is dataset's episodes under baseline and after.
func datasetOf(t testing.TB, n int, baseline, after policy.Policy) *report.Dataset {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, 7))
	var eps []report.Episode
	for i := range n {
		p := plan{id: fmt.Sprintf("2025-11-%02dT%02d:00:00", 1+i%28, i%24), n: 60 + rng.IntN(400), changes: map[int]int{}, objectives: map[int]string{}}
		score := 0
		for t := 1; t <= p.n; t++ {
			switch r := rng.IntN(100); {
			case r < 2:
				score += 5 * (1 + rng.IntN(3))
				p.changes[t] = score
			case r < 3:
				p.objectives[t] = fmt.Sprintf("objective %d", t)
			}
		}
		switch i % 5 {
		case 0:
			p.end = episode.EndMaxTurns
		case 1:
			p.end = episode.EndGameOver
			p.deaths = []int{p.n}
		case 2:
			// Cut by the recording's own loop break (score-only): end the log
			// where score-only stops it.
			o := replay.Run(p.episode(), scorePolicy)
			if o.Terminated() {
				p.n = o.TerminationTurn
				p.end = episode.EndStuckTermination
			}
		}
		eps = append(eps, p.analyse(baseline, after))
	}
	return report.NewDataset(baseline, after, report.Options{Costs: metrics.Costs{CallsPerTurn: 4}}, eps, nil, nil)
}

// written is what write writes of v: a chart in a format (ch.Write), the
// HTML report of a dataset (WriteHTML), the sweep's page (WriteSweepHTML).
func written[V any](t testing.TB, write func(io.Writer, V) error, v V) string {
	t.Helper()
	var b strings.Builder
	if err := write(&b, v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
