// Package dataset makes lbanalyze's bundled dataset, testdata/episodes: 75
// synthetic ZorkGPT episodes of an LLM agent playing Zork I (package synth's
// model and writer), in ZorkGPT's directory layout, with a README that gives
// their make-up. Everything follows from one seed: the same seed writes the
// same bytes, whatever the machine.
package dataset

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/synth"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/source"
	"github.com/lbanalyze/lbanalyze/source/zorkgpt"
)

// Size is the number of episodes of the bundled set, as in ZorkGPT's own
// validation set.
const Size = 75

// Options say what to make.
type Options struct {
	Seed     uint64
	Episodes int // Size when 0
	// Large makes every episode 10–20 MB by longer reasoning texts (a
	// benchmark set, never committed); the episodes are the same otherwise.
	Large bool
}

func (o Options) episodes() int {
	if o.Episodes == 0 {
		return Size
	}
	return o.Episodes
}

// Slot is one episode of a set: its kind, id and machine.
type Slot struct {
	Index    int // position in the set, in date order
	Kind     *Kind
	ID       string // ZorkGPT's id: the local start time, 2025-11-04T09:35:24
	Start    time.Time
	TaskName bool // run under Python 3.12+: "taskName": null on every line
}

// Dir is the directory of the episode: its id with ':' replaced by '-', as
// Go module zips do not allow ':' in paths.
func (s Slot) Dir() string { return DirName(s.ID) }

// DirName is the directory name of an episode id.
func DirName(id string) string { return strings.ReplaceAll(id, ":", "-") }

// windows are the dates of the recordings by loop break: no loop break before
// 09a7cc2 (2025-11-05 13:21) and after Jericho (9f9f325, 2025-10-17); v1 from
// 09a7cc2 to the v2 merge (2025-11-10 15:29); v2 (HEAD, with critic_enabled)
// after that.
var windows = map[string][2]time.Time{
	"":   {time.Date(2025, 10, 18, 7, 0, 0, 0, time.UTC), time.Date(2025, 11, 5, 10, 0, 0, 0, time.UTC)},
	"v1": {time.Date(2025, 11, 5, 14, 0, 0, 0, time.UTC), time.Date(2025, 11, 9, 22, 0, 0, 0, time.UTC)},
	"v2": {time.Date(2025, 11, 10, 16, 0, 0, 0, time.UTC), time.Date(2025, 11, 14, 12, 0, 0, 0, time.UTC)},
}

// Compose lays out a set of n episodes: the kinds in proportion to their
// quotas (exactly the quotas for n = 75), each recording dated within its
// loop break's window, a third of them on a Python 3.12 machine.
func Compose(seed uint64, n int) []Slot {
	r := stream(seed, 0)
	counts := apportion(n)
	var slots []Slot
	for _, rec := range []string{"", "v1", "v2"} {
		var group []*Kind
		for i, k := range Kinds {
			if k.Recording == rec {
				for range counts[i] {
					group = append(group, k)
				}
			}
		}
		r.Shuffle(len(group), func(i, j int) { group[i], group[j] = group[j], group[i] })
		w := windows[rec]
		span := w[1].Sub(w[0])
		for i, k := range group {
			gap := span / time.Duration(len(group))
			start := w[0].Add(gap*time.Duration(i) + time.Duration(r.Int64N(int64(gap)*6/10))).Truncate(time.Second)
			slots = append(slots, Slot{Kind: k, ID: start.Format("2006-01-02T15:04:05"), Start: start, TaskName: r.IntN(3) == 0})
		}
	}
	for i := range slots {
		slots[i].Index = i
	}
	return slots
}

// apportion shares n episodes among the kinds in proportion to their quotas
// (largest remainder, ties to the earlier kind).
func apportion(n int) []int {
	total := 0
	for _, k := range Kinds {
		total += k.Quota
	}
	counts := make([]int, len(Kinds))
	rem := make([]int, len(Kinds))
	left := n
	for i, k := range Kinds {
		counts[i] = n * k.Quota / total
		rem[i] = n * k.Quota % total
		left -= counts[i]
	}
	order := make([]int, len(Kinds))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return rem[b] - rem[a] })
	for i := 0; left > 0; i, left = i+1, left-1 {
		counts[order[i%len(order)]]++
	}
	return counts
}

// stream is the random stream number i of a seed: stream 0 lays out the set,
// stream 1+2k plays episode k and 2+2k sizes its large version, so that an
// episode's draws depend on no other episode's.
func stream(seed, i uint64) *rand.Rand {
	return rand.New(rand.NewPCG(splitmix(seed^splitmix(i)), splitmix(seed+i*0x9e3779b97f4a7c15+1)))
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

var (
	scorePolicy = policy.Policy{Name: policy.Score}
	soPolicy    = policy.Policy{Name: policy.ScoreOrObjective}
)

// maxDraws bounds the redraws of an episode whose outcome is not its kind's.
const maxDraws = 400

// Episode is one generated episode: its plan, its log and what it is.
type Episode struct {
	Slot
	Plan  *synth.Episode
	Log   []byte
	Draws int // how many plans were drawn to get one of the kind
}

// Generate plays the episode of slot s and writes its log.
func Generate(seed uint64, s Slot, large bool) (*Episode, error) {
	r := stream(seed, 1+2*uint64(s.Index))
	cfg := synth.Config{ID: s.ID, Start: s.Start.Add(time.Duration(100_000+r.IntN(800_000)) * time.Microsecond),
		Code: s.Start, TaskName: s.TaskName, NaN: 0.003}
	switch s.Kind.Recording {
	case "v1":
		cfg.LoopBreak = &scorePolicy
	case "v2":
		cfg.LoopBreak = &soPolicy
	}
	if s.Start.Before(time.Date(2025, 11, 8, 0, 0, 0, 0, time.UTC)) {
		// a929dc2 (2025-11-08) capped the agent's output at 2000 tokens:
		// before it, reasoning models could run away.
		cfg.Huge = 0.0004
	}
	for draw := 1; draw <= maxDraws; draw++ {
		cfg.Script = s.Kind.script(r)
		plan := synth.Play(r, cfg)
		var buf bytes.Buffer
		if _, err := synth.Write(&buf, plan); err != nil {
			return nil, err
		}
		ep, err := readOne(buf.Bytes())
		if err != nil {
			return nil, fmt.Errorf("%s: %v", s.ID, err)
		}
		if !s.Kind.accept(check{ep: ep, s: replay.Run(ep, scorePolicy), o: replay.Run(ep, soPolicy)}) || !spellsFit(plan.Spells) {
			continue
		}
		out := &Episode{Slot: s, Plan: plan, Log: buf.Bytes(), Draws: draw}
		if large {
			if out.Log, err = inflate(plan, stream(seed, 2+2*uint64(s.Index))); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("%s: no draw of kind %s in %d tries", s.ID, s.Kind.Name, maxDraws)
}

// Stuck spells last 20–250 turns; a spell ended by a death or by the end
// of the log may be shorter.
func spellsFit(spells []synth.Spell) bool {
	for _, sp := range spells {
		n := sp.End - sp.Start + 1
		if n > 250 || n < 20 && sp.Ending == "score gain" {
			return false
		}
	}
	return true
}

// readOne reads a log that must hold one episode.
func readOne(data []byte) (*episode.Episode, error) {
	eps, _ := source.ReadAll(zorkgpt.Source{}, bytes.NewReader(data), "episode_log.jsonl", source.Options{})
	if len(eps) != 1 {
		return nil, fmt.Errorf("the log reads as %d episodes", len(eps))
	}
	return eps[0], nil
}

// Large episodes are 10–20 MB.
const (
	largeMin = 10_000_000
	largeMax = 20_000_000
)

// inflate lengthens every reasoning of plan so that its log reaches a size
// drawn in [largeMin, largeMax], and writes it.
func inflate(plan *synth.Episode, r *rand.Rand) ([]byte, error) {
	target := largeMin + r.IntN(largeMax-largeMin) + 1
	var buf bytes.Buffer
	if _, err := synth.Write(&buf, plan); err != nil {
		return nil, err
	}
	for range 3 {
		extra := (target - buf.Len()) / len(plan.Turns)
		if extra <= 0 || buf.Len() >= largeMin && buf.Len() <= largeMax {
			break
		}
		for i := range plan.Turns {
			plan.Turns[i].Reasoning += synth.Deliberation(r, extra)
		}
		buf.Reset()
		if _, err := synth.Write(&buf, plan); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}
