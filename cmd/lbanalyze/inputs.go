package main

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/corpus"
	"github.com/lbanalyze/lbanalyze/internal/textout"
	"github.com/lbanalyze/lbanalyze/report"
	"github.com/lbanalyze/lbanalyze/source"
)

// readCorpus reads the logs found under paths (or, explicit, the files
// named), each once, jobs at a time, with the sources srcs (the registry's
// when nil), and tells on stderr what could not be used.
func (e *env) readCorpus(paths []string, jobs int, explicit bool, srcs *corpus.Sources, member string) *corpus.Corpus {
	return e.holdCorpus(paths, jobs, explicit, srcs, member, func(*episode.Episode) {})
}

// holdCorpus is readCorpus handing each episode to slim before it is held.
func (e *env) holdCorpus(paths []string, jobs int, explicit bool, srcs *corpus.Sources, member string, slim func(*episode.Episode)) *corpus.Corpus {
	var eps []*episode.Episode
	c := e.streamCorpus(paths, jobs, explicit, srcs, member, func(*corpus.Corpus) func(*episode.Episode) {
		return func(ep *episode.Episode) {
			slim(ep)
			eps = append(eps, ep)
		}
	})
	c.Episodes = eps
	return c
}

// streamCorpus is readCorpus handing each episode, in discovery order, to
// the sink that sink makes of the corpus found (which says where each log
// lies below the paths given), holding none.
func (e *env) streamCorpus(paths []string, jobs int, explicit bool, srcs *corpus.Sources, member string,
	sink func(*corpus.Corpus) func(*episode.Episode)) *corpus.Corpus {
	discover := corpus.Discover
	if explicit {
		discover = corpus.Files
	}
	if srcs == nil {
		srcs = corpus.Registry()
	}
	files, c := discover(paths, srcs)
	bar, wait := e.progress("reading logs", len(files))
	c.Stream(files, corpus.Options{Jobs: jobs, Stdin: e.stdin, Progress: bar, Sources: srcs, Read: source.Options{Member: member}},
		corpus.Sink{Episode: sink(c)})
	wait()
	e.tell(c.Messages...)
	return c
}

// skips are the inputs left out, as a dataset names them.
func skips(s []corpus.Skip) []report.Skip {
	out := make([]report.Skip, len(s))
	for i := range s {
		out[i] = report.Skip(s[i])
	}
	return out
}

// tell writes messages about the input to stderr.
func (e *env) tell(messages ...string) {
	for _, m := range messages {
		fmt.Fprintf(e.stderr, "lbanalyze: %s\n", textout.Printable(m)) // one line, whatever an id holds
	}
}

// tellOnce tells each message once: groups of one system share what is said
// of their settings.
func (e *env) tellOnce(messages ...string) {
	if e.told == nil {
		e.told = map[string]bool{}
	}
	for _, m := range messages {
		if !e.told[m] {
			e.told[m] = true
			e.tell(m)
		}
	}
}

// analyse analyses every episode with analyseOne, on every core; step is
// told of each.
func analyse(eps []*episode.Episode, analyseOne func(*episode.Episode) report.Episode, step func()) []report.Episode {
	out := make([]report.Episode, len(eps))
	// Episodes in parallel, each into its own place: the same result as in
	// order. Replaying is most of the work with many configs.
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(len(eps), runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(eps); i = int(next.Add(1) - 1) {
				out[i] = analyseOne(eps[i])
				step()
			}
		})
	}
	wg.Wait()
	return out
}
