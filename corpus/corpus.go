// Package corpus turns the paths a user gives into episodes: it finds the logs
// under directories (passing over what is not production data), reads every
// file once — standard input included, and a file reached by two paths — in
// parallel, and returns the episodes in an order that depends on the input
// only, with what could not be read and why. Every command that reads logs
// goes through it.
package corpus

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"sync"

	"github.com/lbanalyze/lbanalyze/jsonl"
	"github.com/lbanalyze/lbanalyze/replay"
)

// Skip is an input, or part of one, that could not be analysed, and why.
type Skip struct {
	Source string `json:"source"`
	Reason string `json:"reason"`
}

// Corpus is what a set of paths holds.
type Corpus struct {
	// Episodes are in discovery order: file by file in lexical order of
	// the paths found, segment by segment within a file.
	Episodes []*replay.Episode
	Skipped  []Skip   // inputs (or segments) left out, with the reason
	Passed   []string // test_*, test-*, unknown and *_error directories passed over
	Messages []string // what to tell the user about the lines read, in discovery order
}

// Options say how to read.
type Options struct {
	Jobs     int       // files read at once (at least 1)
	Stdin    io.Reader // what "-" reads
	Progress func()    // called after each file; may be nil
	Replay   replay.Options
}

// Read discovers the logs under paths and reads each once, Jobs at a time.
func Read(paths []string, opt Options) *Corpus {
	files, c := Discover(paths)
	c.ReadFiles(files, opt)
	return c
}

// ReadFiles reads the files, Jobs at a time, and adds what they hold to c.
// The result does not depend on the order the reads finish in.
func (c *Corpus) ReadFiles(files []string, opt Options) {
	results := make([]fileResult, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(max(opt.Jobs, 1), len(files)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = readFile(files[i], opt)
				if opt.Progress != nil {
					opt.Progress()
				}
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, r := range results { // in discovery order, whatever order the reads ended in
		for _, s := range r.skipped {
			c.Messages = append(c.Messages, s.Source+": "+s.Reason)
		}
		c.Messages = append(c.Messages, r.problems...)
		c.Episodes = append(c.Episodes, r.eps...)
		c.Skipped = append(c.Skipped, r.skipped...)
	}
	c.Messages = append(c.Messages, duplicateIDs(c.Episodes)...)
}

// fileResult is what one file gives: its episodes, what was left out, and
// the messages about its lines.
type fileResult struct {
	eps      []*replay.Episode
	skipped  []Skip
	problems []string
}

func readFile(path string, opt Options) (r fileResult) {
	lg, err := replay.ReadFile(path, opt.Stdin, opt.Replay)
	if err != nil {
		r.skipped = append(r.skipped, Skip{Source: jsonl.DisplayName(path), Reason: openReason(err)})
		return r
	}
	r.skipped = rejections(path, lg)
	r.problems = problems(lg)
	r.eps = lg.Episodes
	return r
}

// openReason says why a file could not be read, without repeating its path.
func openReason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		if pe.Op == "stat" || pe.Op == "lstat" { // found missing before any open
			return pe.Err.Error()
		}
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}

// rejections are the parts of a log that cannot be analysed: a read error that
// ended it early, segments that cannot be replayed.
func rejections(path string, lg *replay.Log) []Skip {
	name := jsonl.DisplayName(path)
	var s []Skip
	for _, p := range lg.Problems {
		s = append(s, Skip{Source: fmt.Sprintf("%s:%d", name, p.Line), Reason: p.Msg})
	}
	for _, r := range lg.Rejected {
		src := name
		if len(lg.Rejected)+len(lg.Episodes) > 1 {
			src = fmt.Sprintf("%s (segment %d)", name, r.Segment)
			if r.ID != "" {
				src = fmt.Sprintf("%s (segment %d, %s)", name, r.Segment, r.ID)
			}
		}
		s = append(s, Skip{Source: src, Reason: r.Reason})
	}
	return s
}

// problems are the messages about the lines of a log's episodes: the first
// few word for word with file and line, then how many lines were skipped.
func problems(lg *replay.Log) []string {
	var m []string
	for _, ep := range lg.Episodes {
		m = append(m, ep.ProblemMessages()...)
		if ep.SkippedLines > 0 {
			m = append(m, fmt.Sprintf("%s: %s skipped in %s; the rest was analysed",
				jsonl.DisplayName(ep.Source), plural(ep.SkippedLines, "line"), ep.Name()))
		}
	}
	return m
}

// duplicateIDs warns of an episode id found in two files (a .jsonl beside its
// .jsonl.gz, a backup copy): both are analysed, and both count in n.
func duplicateIDs(eps []*replay.Episode) []string {
	sources := map[string][]string{}
	var order []string
	for _, ep := range eps {
		if ep.ID == "" {
			continue
		}
		s := sources[ep.ID]
		if len(s) == 0 {
			order = append(order, ep.ID)
		}
		if len(s) == 0 || s[len(s)-1] != ep.Source {
			sources[ep.ID] = append(s, ep.Source)
		}
	}
	var m []string
	for _, id := range order {
		if s := sources[id]; len(s) > 1 {
			names := make([]string, len(s))
			for i, p := range s {
				names[i] = jsonl.DisplayName(p)
			}
			m = append(m, fmt.Sprintf("warning: episode %s is in %d files (%s): each is analysed and counted; remove the copies you do not mean",
				id, len(s), strings.Join(names, ", ")))
		}
	}
	return m
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}
