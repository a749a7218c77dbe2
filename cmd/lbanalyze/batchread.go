package main

import (
	"runtime"
	"slices"
	"sync"

	"github.com/spf13/cobra"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/corpus"
	"github.com/lbanalyze/lbanalyze/internal/group"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/report"
	"github.com/lbanalyze/lbanalyze/system"
)

// batchRead is what batch keeps of the episodes as they are read: each is
// analysed under the sides of the system that ran it as soon as it comes,
// on every core, and let go once its row is made, so that no more than a
// few batches of episodes are held whole at a time (docs/PERFORMANCE.md,
// "Many episodes"). The groups are made after the reading from a stand-in
// episode for each (group.Split), and the notes on what their logs lack from
// the few episodes that lack something (replay.Comparable).
type batchRead struct {
	f     *batchFlags
	cmd   *cobra.Command
	sides sides
	whole bool // keep each episode whole (Summarised): the charts and the HTML page read its turns
	below func(string) string
	n     int // episodes read

	mu       sync.Mutex
	analysed []report.Episode // in the order read, of those analysed
	work     chan []analysisJob
	batch    []analysisJob // gathered for work
	turns    int           // of batch
	wg       sync.WaitGroup

	pairs    map[*system.System]*systemSides
	groups   map[groupID]*readGroup
	order    []groupID                       // the groups as first seen
	standIns map[*episode.Episode]*readGroup // each group's stand-in
}

// systemSides are the sides of one system's logs and their options.
type systemSides struct {
	pair []policy.Policy
	opts report.Options
}

type groupID struct {
	sys   *system.System
	value string
}

// readGroup is what is kept of the episodes of one group.
type readGroup struct {
	// standIn names the group for group.Split and group.Unseen: the format
	// and source of its first episode, and every fact its episodes have
	// (the first value of each key).
	standIn *episode.Episode
	sides   *systemSides
	// odd are its episodes whose logs lack a signal a side needs, or turn a
	// setting of one off: the notes of replay.Comparable are all theirs.
	odd []*episode.Episode
	// at are the places in analysed of its episodes, in the order read.
	at []int
}

type analysisJob struct {
	ep    *episode.Episode
	at    int
	sides *systemSides
}

// The workers are handed episodes in batches, each handed on once it holds
// batchJobs episodes or batchTurns turns: what waits is bounded by turns,
// fewer than batchTurns a batch beside its last episode, however long that
// one is. Handed on one at a time, 50,000 episodes of two steps would cost a
// goroutine's wake-up each, and `batch` over them 1.3 times as long
// (docs/PERFORMANCE.md, "Many episodes").
const (
	batchJobs  = 64
	batchTurns = 256
)

// read reads the logs under paths and analyses their episodes as they come.
func (b *batchRead) read(e *env, paths []string, srcs *corpus.Sources) *corpus.Corpus {
	b.pairs, b.groups, b.standIns = map[*system.System]*systemSides{}, map[groupID]*readGroup{}, map[*episode.Episode]*readGroup{}
	b.work = make(chan []analysisJob, runtime.GOMAXPROCS(0))
	for range runtime.GOMAXPROCS(0) {
		b.wg.Go(func() {
			for batch := range b.work {
				for _, j := range batch {
					a := report.Analyse(j.ep, j.sides.pair, b.sides.recording, j.sides.opts)
					if b.whole {
						a = a.Summarised()
					} else {
						a = a.Compacted()
					}
					b.mu.Lock()
					b.analysed[j.at] = a
					b.mu.Unlock()
				}
			}
		})
	}
	c := e.streamCorpus(paths, b.f.jobs, false, srcs, b.f.by.member(), func(c *corpus.Corpus) func(*episode.Episode) {
		b.below = c.Below
		return b.add
	})
	b.handOn()
	close(b.work)
	b.wg.Wait()
	return c
}

// add takes an episode as it is read.
func (b *batchRead) add(ep *episode.Episode) {
	b.n++
	sys := system.Of(ep)
	g := b.groupOf(ep, sys)
	var lacks, off bool
	for _, p := range g.sides.pair {
		lacks = lacks || len(replay.Lacking(ep, p)) > 0
		keys, _ := p.Off(ep.Signals)
		off = off || len(keys) > 0
	}
	if lacks || off {
		g.odd = append(g.odd, ep)
	}
	if lacks {
		return
	}
	b.mu.Lock()
	at := len(b.analysed)
	b.analysed = append(b.analysed, report.Episode{})
	b.mu.Unlock()
	g.at = append(g.at, at)
	b.batch, b.turns = append(b.batch, analysisJob{ep, at, g.sides}), b.turns+ep.N()
	if len(b.batch) == batchJobs || b.turns >= batchTurns {
		b.handOn()
	}
}

// handOn hands the batch gathered to the workers.
func (b *batchRead) handOn() {
	if len(b.batch) > 0 {
		b.work <- b.batch
		b.batch, b.turns = nil, 0
	}
}

// groupOf is the group of ep, run by sys, made when it is the first.
func (b *batchRead) groupOf(ep *episode.Episode, sys *system.System) *readGroup {
	key := b.f.by.key
	id := groupID{sys: sys}
	if key != nil {
		id.value = key.Value(ep, b.below)
	}
	g := b.groups[id]
	if g == nil {
		g = &readGroup{standIn: &episode.Episode{ID: ep.ID, Format: ep.Format, Source: ep.Source}, sides: b.sidesOf(sys)}
		b.groups[id] = g
		b.order = append(b.order, id)
		b.standIns[g.standIn] = g
	}
	if key != nil {
		for _, fact := range ep.Facts {
			if !slices.ContainsFunc(g.standIn.Facts, func(f episode.Fact) bool { return f.Key == fact.Key }) {
				g.standIn.Facts = append(g.standIn.Facts, fact)
			}
		}
	}
	return g
}

// sidesOf are the sides of the logs of sys, as the flags and the system's
// defaults say.
func (b *batchRead) sidesOf(sys *system.System) *systemSides {
	if s := b.pairs[sys]; s != nil {
		return s
	}
	opts := b.sides.opts
	opts.CallsPerTurn = b.f.calls.of(sys)
	baseline, after := b.f.sides(b.cmd, sys, b.sides.baseline, b.sides.after)
	s := &systemSides{[]policy.Policy{baseline, after}, opts}
	b.pairs[sys] = s
	return s
}

// split groups the episodes read: by system always, and by --by (byFlag.split).
func (b *batchRead) split() ([]group.Group, bool, error) {
	standIns := make([]*episode.Episode, len(b.order))
	for i, id := range b.order {
		standIns[i] = b.groups[id].standIn
	}
	return b.f.by.splitOf(standIns, b.below)
}

// episodes are the analysed episodes of the group g (of split), in the
// order read, and the notes on those left out; each is let go here.
func (b *batchRead) episodes(g group.Group, fate string) ([]report.Episode, []string) {
	rg := b.standIns[g.Episodes[0]]
	_, notes := replay.Comparable(rg.odd, rg.sides.pair, fate)
	rg.odd = nil
	if len(rg.at) == len(b.analysed) { // every episode read: no copy
		eps := b.analysed
		b.analysed, rg.at = nil, nil
		return eps, notes
	}
	eps := make([]report.Episode, len(rg.at))
	for i, at := range rg.at {
		eps[i], b.analysed[at] = b.analysed[at], report.Episode{}
	}
	rg.at = nil
	return eps, notes
}
