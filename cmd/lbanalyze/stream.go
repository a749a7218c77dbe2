package main

import (
	"io"
	"sync/atomic"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/corpus"
	"github.com/lbanalyze/lbanalyze/internal/report"
)

// step is one thing the writer of a stream does, in discovery order: write
// an episode once it is analysed and rendered (done is closed then), end a
// file (end), or tell a message (the rest).
type step struct {
	ep       *episode.Episode // to analyse; nil once rendered, so that it is freed
	rendered *report.Rendered
	done     chan struct{}

	end      bool
	segments int // of the file ended
	message  string
}

// streamEpisodes reads the files and analyses their episodes, jobs at a
// time each, and writes the episodes to w in format, as WriteEpisodes would
// write them all, and the messages about them to stderr, as readCorpus
// would, with what tell has to say before an episode. Each episode is analysed as soon as its segment ends, and let go
// once rendered: what is held at a time is the episodes in flight and the
// rendered reports of one file, which are written when it ends (their names
// need how many segments it holds). It gives how many episodes it analysed.
// When a write fails, analysis stops but reading goes on, for the messages.
func (e *env) streamEpisodes(w io.Writer, format string, files []string, c *corpus.Corpus, jobs int, srcs *corpus.Sources,
	tell func(*episode.Episode) []string, analyseOne func(*episode.Episode) report.Episode) (int, error) {
	ew, err := report.NewEpisodeWriter(w, format)
	if err != nil {
		return 0, err
	}
	ew.Fit = e.fit
	defer ew.Release()
	e.tell(c.Messages...) // of discovery
	steps, work := e.readSteps(files, c, jobs, srcs, tell)
	var failed atomic.Bool
	for range jobs {
		go func() {
			for s := range work {
				if !failed.Load() {
					a := analyseOne(s.ep)
					s.rendered = ew.Render(&a)
				}
				s.ep = nil
				close(s.done)
			}
		}()
	}
	return e.writeSteps(steps, ew, &failed)
}

// readSteps streams the files into steps, in order, and their episodes into work
// as well, to be analysed; steps is the bound on the episodes in flight. What
// tell says of an episode comes before it.
func (e *env) readSteps(files []string, c *corpus.Corpus, jobs int, srcs *corpus.Sources,
	tell func(*episode.Episode) []string) (steps <-chan *step, work <-chan *step) {
	st, wk := make(chan *step, 2*jobs), make(chan *step)
	go func() {
		c.Stream(files, corpus.Options{Jobs: jobs, Stdin: e.stdin, Sources: srcs}, corpus.Sink{
			Episode: func(ep *episode.Episode) {
				for _, m := range tell(ep) {
					st <- &step{message: m}
				}
				s := &step{ep: ep, done: make(chan struct{})}
				st <- s
				wk <- s
			},
			FileEnd: func(segments int) { st <- &step{end: true, segments: segments} },
			Message: func(m string) { st <- &step{message: m} },
		})
		close(wk)
		close(st)
	}()
	return st, wk
}

// writeSteps takes the steps in order: it holds the episodes of a file, rendered,
// until the file ends, then writes them, and tells the messages. After a
// failed write it writes nothing, and says so to the analysis (failed), but
// takes every step. It gives how many episodes there were.
func (e *env) writeSteps(steps <-chan *step, ew *report.EpisodeWriter, failed *atomic.Bool) (int, error) {
	n := 0
	var err error
	for s := range steps {
		switch {
		case s.done != nil:
			<-s.done
			if err == nil {
				err = ew.Hold(s.rendered)
			}
			s.rendered = nil
			n++
		case s.end:
			if err == nil {
				err = ew.Flush(s.segments)
			}
			failed.Store(err != nil)
		default:
			e.tell(s.message)
		}
	}
	if err == nil && n > 0 {
		err = ew.Close()
	}
	return n, err
}
