package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/lbanalyze/lbanalyze/charts"
	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/sweep"
	"github.com/lbanalyze/lbanalyze/internal/textout"
	"github.com/lbanalyze/lbanalyze/report"
)

// checkPlotPath refuses, before any log is read, a --plot file whose
// extension names no image format or that could not be written.
func checkPlotPath(path string) error {
	if _, err := charts.FormatOf(path); err != nil {
		return usageError("--plot: %v", err)
	}
	return checkFilePath("--plot", path)
}

// checkFilePath refuses (exit 1: output that cannot be written), before any
// log is read, an output file that could not be written: its directory must exist and take new files; the file, if
// it exists, must be a file that can be written (it is not changed here).
func checkFilePath(flag, path string) error {
	if fi, err := os.Stat(path); err == nil {
		if fi.IsDir() {
			return failure("%s: %s is a directory; give a file name", flag, path)
		}
		if fi.Mode().IsRegular() {
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				return failure("%s: %s cannot be written: %v", flag, path, unwrapPath(err))
			}
			f.Close()
		}
		return nil
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	switch {
	case err != nil:
		return failure("%s: the directory %s of %s does not exist (make it first)", flag, dir, path)
	case !fi.IsDir():
		return failure("%s: %s is not a directory, so %s cannot be made", flag, dir, path)
	}
	return checkDirWritable(flag, dir)
}

// checkDirPath refuses, before any log is read, an output directory that
// could not be written: it must be a directory that takes new files, or not
// exist yet under one that does (it is made when the charts are written).
func checkDirPath(flag, dir string) error {
	d := filepath.Clean(dir)
	for {
		fi, err := os.Stat(d)
		if err == nil {
			if !fi.IsDir() {
				if d == filepath.Clean(dir) {
					return failure("%s: %s is not a directory", flag, dir)
				}
				return failure("%s: %s is not a directory, so %s cannot be made", flag, d, dir)
			}
			return checkDirWritable(flag, d)
		}
		parent := filepath.Dir(d)
		if parent == d {
			return failure("%s: %s: %v", flag, dir, unwrapPath(err))
		}
		d = parent
	}
}

// checkDirWritable makes and removes a file in dir: the only test that
// holds for permissions, read-only file systems and ACLs alike.
func checkDirWritable(flag, dir string) error {
	f, err := os.CreateTemp(dir, ".lbanalyze-check-*")
	if err != nil {
		return failure("%s: cannot write into the directory %s: %v", flag, dir, unwrapPath(err))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// unwrapPath is the reason of a path error without the path, said already.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// writeTimelines writes the score timeline of each episode: to path when
// there is one; else one file an episode beside path, named after it and the
// episode id ("out.png" gives "out-2025-11-04T09-35-24.png").
func (e *env) writeTimelines(path string, eps []report.Episode) error {
	if k := eps[0].Results(); k > charts.MaxResultsDrawn {
		fmt.Fprintf(e.stderr, "lbanalyze: warning: --plot draws the first %d of the %d results (the legend says so); the tables list them all\n", charts.MaxResultsDrawn, k)
	}
	if len(eps) == 1 {
		if err := charts.Timeline(&eps[0]).Save(path); err != nil {
			return failure("--plot: %v", err)
		}
		fmt.Fprintf(e.stderr, "lbanalyze: wrote the timeline of %s to %s\n", textout.Printable(eps[0].Ep.Name()), path)
		return nil
	}
	ext := filepath.Ext(path)
	dir, prefix := filepath.Dir(path), strings.TrimSuffix(filepath.Base(path), ext)+"-"
	names := charts.FileNames(episodesOf(eps), prefix, ext)
	fmt.Fprintf(e.stderr, "lbanalyze: %d episodes: writing one timeline each, named after %s and the episode id\n", len(eps), path)
	for i := range eps {
		out := filepath.Join(dir, names[i])
		if err := charts.Timeline(&eps[i]).Save(out); err != nil {
			return failure("--plot: %v", err)
		}
		fmt.Fprintf(e.stderr, "lbanalyze: wrote the timeline of %s to %s\n", textout.Printable(eps[i].Ep.Name()), out)
	}
	return nil
}

func episodesOf(eps []report.Episode) []*episode.Episode {
	out := make([]*episode.Episode, len(eps))
	for i := range eps {
		out[i] = eps[i].Ep
	}
	return out
}

// Names of the dataset charts in a --plots directory; the timelines are
// timeline-ID.png, so no episode id can take these names.
const (
	terminationsFile = "terminations.png"
	turnsSavedFile   = "turns-saved.png"
	timelinePrefix   = "timeline-"
)

// timelineChoices are the values of batch's --timelines.
var timelineChoices = []string{"auto", "all", "review", "none"}

// timelinesOf are the episodes of d whose timeline --plots draws: every one,
// none, or those of the review list (in d's order). auto is every one up to
// charts.MaxEpisodeRows episodes and none past that: a directory of
// thousands of PNGs takes long to draw (about 30 ms each) and longer to look
// through, and the HTML report holds every timeline, drawn when opened.
func timelinesOf(d *report.Dataset, which string) []int {
	if which == "auto" {
		which = "all"
		if len(d.Episodes) > charts.MaxEpisodeRows {
			which = "none"
		}
	}
	var out []int
	switch which {
	case "all":
		for i := range d.Episodes {
			out = append(out, i)
		}
	case "review":
		rescued, still, fresh := d.Review()
		review := map[*report.Episode]bool{}
		for _, g := range [][]*report.Episode{rescued, still, fresh} {
			for _, e := range g {
				review[e] = true
			}
		}
		for i := range d.Episodes {
			if review[&d.Episodes[i]] {
				out = append(out, i)
			}
		}
	}
	return out
}

// writePlots writes into dir (made if need be) the dataset charts and the
// timelines (under the baseline and after policies) of the episodes which
// says (timelinesOf), as PNG, jobs at a time.
func (e *env) writePlots(dir string, d *report.Dataset, jobs int, which string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return failure("--plots: %v", err)
	}
	names := charts.FileNames(episodesOf(d.Episodes), timelinePrefix, ".png")
	work := []func() error{
		func() error { return charts.Terminations(d).Save(filepath.Join(dir, terminationsFile)) },
		func() error { return charts.TurnsSaved(d).Save(filepath.Join(dir, turnsSavedFile)) },
	}
	drawn := timelinesOf(d, which)
	for _, i := range drawn {
		work = append(work, func() error { return charts.Timeline(&d.Episodes[i]).Save(filepath.Join(dir, names[i])) })
	}
	step, end := e.progress("drawing charts", len(work))
	errs := make([]error, len(work))
	running := make(chan struct{}, jobs) // at most jobs charts drawn at once
	var wg sync.WaitGroup
	for i := range work {
		running <- struct{}{}
		wg.Go(func() {
			errs[i] = work[i]()
			step()
			<-running
		})
	}
	wg.Wait()
	end()
	for _, err := range errs { // the first in a fixed order, whatever order the work ended in
		if err != nil {
			return failure("--plots: %v", err)
		}
	}
	wrote := fmt.Sprintf("%s, %s and %s (%s*.png)", terminationsFile, turnsSavedFile, textout.Count(len(drawn), "timeline"), timelinePrefix)
	switch {
	case len(drawn) == 0:
		wrote = terminationsFile + " and " + turnsSavedFile + "; no timeline"
		if which == "auto" {
			wrote += fmt.Sprintf(" past %d episodes (the HTML report holds them; --timelines review or all draws them here)", charts.MaxEpisodeRows)
		}
	case len(drawn) < len(d.Episodes):
		wrote += fmt.Sprintf(", those of the review list, %d of %d episodes", len(drawn), len(d.Episodes))
	}
	fmt.Fprintf(e.stderr, "lbanalyze: wrote %s to %s: %s\n", textout.Count(2+len(drawn), "chart"), dir, wrote)
	return nil
}

// writeHTML writes the HTML report of d to path.
func (e *env) writeHTML(path string, d *report.Dataset) error {
	return e.writeHTMLPage(path, "the HTML report ("+textout.Count(len(d.Episodes), "episode")+")",
		func(w io.Writer) error { return charts.WriteHTML(w, d) })
}

// Names of the sweep charts in a --plots directory, each as PNG and SVG.
var sweepChartFiles = []string{"tradeoff", "heatmap"}

// writeSweepPlots writes the trade-off chart and the heat map of r into dir
// (made if need be), as PNG and SVG.
func (e *env) writeSweepPlots(dir string, r *sweep.Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return failure("--plots: %v", err)
	}
	var wrote []string
	heat, whyNot := charts.HeatMap(r)
	for i, ch := range []*charts.Chart{charts.TradeOff(r), heat} {
		if ch == nil {
			fmt.Fprintf(e.stderr, "lbanalyze: no %s chart: %s\n", sweepChartFiles[i], whyNot)
			continue
		}
		for _, ext := range []string{".png", ".svg"} {
			name := sweepChartFiles[i] + ext
			if err := ch.Save(filepath.Join(dir, name)); err != nil {
				return failure("--plots: %v", err)
			}
			wrote = append(wrote, name)
		}
	}
	fmt.Fprintf(e.stderr, "lbanalyze: wrote %s to %s\n", strings.Join(wrote, ", "), dir)
	return nil
}

// writeSweepHTML writes the HTML report of a sweep to path.
func (e *env) writeSweepHTML(path string, r *sweep.Result) error {
	return e.writeHTMLPage(path, "the sweep's HTML report ("+textout.Count(len(r.Configs), "config")+")",
		func(w io.Writer) error { return charts.WriteSweepHTML(w, r) })
}

// writeHTMLPage writes the page what names to path with write, under a
// progress line, and says so when done.
func (e *env) writeHTMLPage(path, what string, write func(io.Writer) error) error {
	_, end := e.progress("writing the HTML report", 0)
	err := createHTML(path, write)
	end()
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "lbanalyze: wrote %s to %s\n", what, path)
	return nil
}

// createHTML writes an HTML page to path with write; a failure says --html.
func createHTML(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return failure("--html: %v", err)
	}
	if err := write(f); err != nil {
		f.Close()
		return failure("--html: %v", err)
	}
	if err := f.Close(); err != nil {
		return failure("--html: %v", err)
	}
	return nil
}
