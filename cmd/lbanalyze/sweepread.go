package main

import (
	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/corpus"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/system"
)

// readForSweep is readCorpus keeping of each episode's texts only those a
// config of its system's grid or the current setting reads
// (episode.Episode.DropTexts): a log at the turn cap of distinct actions and
// responses holds 13 MB less (docs/PERFORMANCE.md, "Memory").
func (e *env) readForSweep(paths []string, f *sweepFlags, s settings) *corpus.Corpus {
	read := map[*system.System]episode.Signals{}
	return e.holdCorpus(paths, f.jobs, false, s.sources, f.by.member(), func(ep *episode.Episode) {
		sys := system.Of(ep)
		keep, ok := read[sys]
		if !ok {
			keep = s.readFor(sys)
			read[sys] = keep
		}
		ep.DropTexts(keep)
	})
}

// readFor are the signals that replaying the logs of sys may read: those of
// every policy the sweep may replay over them (sweepFlags.grid, whether or
// not the logs read are of several systems).
func (s settings) readFor(sys *system.System) episode.Signals {
	read, seen := reads(sys.Now), map[policy.Name]bool{}
	if s.current != nil {
		read |= reads(*s.current)
	}
	for p := range s.policiesFor(sys).All() {
		if k := p.Kind(); k == nil || k.Parts == nil {
			if seen[p.Name] {
				continue // its kind's reads, the same for every config
			}
			seen[p.Name] = true
		}
		read |= reads(p)
	}
	return read
}

// reads are the signals replaying p may read, as its registry entry says
// (policy.Kind): what its kind needs, what each of its settings needs or
// reads where a log records it, on or off, and what its rules read, a
// preset's left out on some logs included.
func reads(p policy.Policy) episode.Signals {
	k := p.Kind()
	if k == nil {
		return 0
	}
	read := k.Needs
	for _, s := range k.Settings {
		read = read.With(s.Needs, s.Reads)
	}
	if k.Parts != nil {
		for _, q := range k.Parts(p) {
			read |= reads(q)
		}
	}
	return read
}
