package report

import (
	"slices"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/system"
)

// row is what a dataset reads of an analysed episode: what its tables, JSON,
// CSV, metrics and charts show of it, its outcomes compacted and what most
// episodes lack behind one pointer. A dataset of many episodes holds rows,
// not the episodes and their outcomes (Episode.Compacted; docs/PERFORMANCE.md,
// "Many episodes").
type row struct {
	id, source, format                                    string
	sys                                                   *system.System
	end                                                   episode.EndReason
	segment, maxTurns, missing, endTurn, skipped, updates int
	turns, objectives                                     int32 // at most source.MaxTurn
	final                                                 episode.Score
	finalKnown, whole                                     bool // finalScore is not nil; episode.Episode.WholeScores
	signals, estimated                                    episode.Signals
	outcomes                                              [2]replay.Compact
	rare                                                  *rareRow // nil when the episode has none of it
}

// rareRow is what few episodes of a large dataset have.
type rareRow struct {
	facts      []episode.Fact
	warnings   []string
	selfCheck  *SelfCheckJSON
	deaths     []int
	cost       *float64
	tokens     *int64
	objectives []episode.Completion
	locations  [2]string // at each outcome's stop
}

// newRow is e's row with outcomes, the first two at most (a dataset's).
func newRow(e *Episode, outcomes []replay.Outcome) *row {
	ep := e.Ep
	r := &row{id: ep.ID, source: ep.Source, format: ep.Format, sys: system.Of(ep), end: ep.End.Reason, segment: ep.Segment,
		maxTurns: ep.MaxTurns, missing: ep.MissingTurns, endTurn: ep.End.Turn, skipped: ep.SkippedLines, updates: ep.ObjectiveUpdates,
		turns: int32(ep.N()), objectives: int32(len(ep.Objectives)), final: ep.FinalScore(), finalKnown: finalScore(ep) != nil,
		whole: ep.WholeScores(), signals: ep.Signals, estimated: ep.Estimated}
	rare := rareRow{facts: ep.Facts, warnings: e.Warnings(), selfCheck: e.selfCheckJSON(), objectives: ep.Objectives}
	rare.cost, rare.tokens = spent(ep)
	for _, d := range ep.Deaths {
		rare.deaths = append(rare.deaths, d.Turn)
	}
	for s, o := range outcomes[:min(2, len(outcomes))] {
		r.outcomes[s] = o.Compact()
		rare.locations[s] = locationAt(ep, &o)
	}
	if rare.facts != nil || rare.warnings != nil || rare.selfCheck != nil || rare.deaths != nil || rare.cost != nil || rare.tokens != nil ||
		rare.objectives != nil || rare.locations != [2]string{} {
		r.rare = &rare
	}
	return r
}

// name is the episode's name (episode.Episode.Name).
func (r *row) name() string { return episode.Name(r.id, r.segment) }

// outcome is the outcome of p, the policy of side s (0 the baseline).
func (r *row) outcome(s int, p policy.Policy) replay.Outcome { return r.outcomes[s].Outcome(p) }

// more is what few episodes have, empty when the episode has none of it.
func (r *row) more() *rareRow {
	if r.rare == nil {
		return &noRare
	}
	return r.rare
}

// noRare is the rare part of every row that has none, read, never written:
// a new one each time would be garbage a metric, an episode.
var noRare rareRow

// metric is what a metric reads of the episode.
func (r *row) metric() metrics.Episode {
	return metrics.Episode{Turns: int(r.turns), Objectives: r.more().objectives, Signals: r.signals}
}

// fields is the episode's JSON form without its timeline, patterns and
// results.
func (r *row) fields() EpisodeJSON {
	m := r.more()
	j := EpisodeJSON{
		EpisodeHead: EpisodeHead{EpisodeID: r.id, Source: r.source, LogFormat: r.format, Segment: r.segment},
		Facts:       m.facts,
		EpisodeBody: EpisodeBody{Turns: int(r.turns), MaxTurns: nonZero(r.maxTurns), MissingTurns: r.missing,
			EndReason: string(r.end), EndTurn: nonZero(r.endTurn), Deaths: []int{}, SkippedLines: r.skipped, Warnings: m.warnings,
			SelfCheck: m.selfCheck, Cost: m.cost, Tokens: m.tokens},
	}
	if r.finalKnown {
		j.FinalScore = ptr(r.final)
	}
	if r.sys.Shows.Objectives {
		j.ObjectiveCompletions, j.ObjectiveUpdates = ptr(int(r.objectives)), ptr(r.updates)
	}
	j.Deaths = append(j.Deaths, m.deaths...)
	if j.Warnings == nil {
		j.Warnings = []string{}
	}
	return j
}

// result is the JSON form of the outcome of p, side s's.
func (r *row) result(s int, p policy.Policy, opts Options) ResultJSON {
	o := r.outcome(s, p)
	return resultJSON(&o, opts, r.sys.Shows.Warnings, r.more().locations[s])
}

// systemOfRows is the system that ran the episodes of rows (system.OfAll),
// asked of one stand-in for each kind of log they are: what it reads of
// an episode is its format and whether its scores are whole.
func systemOfRows(eps []Episode) *system.System {
	type kind struct {
		format string
		whole  bool
	}
	var kinds []kind
	var standIns []*episode.Episode
	for i := range eps {
		r := eps[i].row
		k := kind{r.format, r.whole}
		if !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
			ep := &episode.Episode{Format: k.format}
			if !k.whole {
				ep.Turns = []episode.Turn{{Score: 0.5}}
			}
			standIns = append(standIns, ep)
		}
	}
	return system.OfAll(standIns)
}
