package main

import (
	"io"
	"sync/atomic"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/corpus"
	"github.com/lbanalyze/lbanalyze/report"
)

// streamEpisodes reads the files, analyses their episodes jobs at a time,
// and writes each episode's report to w in format as soon as it is rendered
// and those before it are written: the bytes WriteEpisodes writes for all of
// them, whatever the jobs. The messages go to stderr as readCorpus tells
// them, with what tell has to say before an episode, each after the reports
// before it (a message flushes stdout, which one goroutine writes). What is
// held at a time is the episodes in flight, 2·jobs at most, each let go once
// rendered. It gives how many episodes it analysed. When a write fails,
// analysis stops but reading goes on, for the messages.
func (e *env) streamEpisodes(w io.Writer, format string, files []string, c *corpus.Corpus, jobs int, srcs *corpus.Sources,
	tell func(*episode.Episode) []string, analyseOne func(*episode.Episode) report.Episode) (int, error) {
	ew, err := report.NewEpisodeWriter(w, format)
	if err != nil {
		return 0, err
	}
	ew.Fit = e.fit
	e.tell(c.Messages...) // of discovery
	type job struct {
		ep *episode.Episode
		r  *report.Report
	}
	type step struct { // in order: a report to write, or a message to tell
		r       *report.Report
		message string
	}
	order, work := make(chan step, 2*jobs), make(chan job)
	go func() {
		c.Stream(files, corpus.Options{Jobs: jobs, Stdin: e.stdin, Sources: srcs}, corpus.Sink{
			Episode: func(ep *episode.Episode) {
				for _, m := range tell(ep) {
					order <- step{message: m}
				}
				r := ew.Report(ep)
				order <- step{r: r}
				work <- job{ep, r}
			},
			Message: func(m string) { order <- step{message: m} },
		})
		close(work)
		close(order)
	}()
	var failed atomic.Bool
	for range jobs {
		go func() {
			for j := range work {
				if failed.Load() {
					j.r.Skip()
					continue
				}
				a := analyseOne(j.ep)
				j.r.Render(&a)
			}
		}()
	}
	n := 0
	for s := range order {
		if s.r == nil {
			e.tell(s.message)
			continue
		}
		if ew.Write(s.r) != nil {
			failed.Store(true)
		}
		n++
	}
	if n == 0 {
		return 0, nil
	}
	return n, ew.Close()
}
