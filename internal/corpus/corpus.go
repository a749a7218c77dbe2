// Package corpus turns the paths a user gives into episodes: it finds the logs
// under directories (passing over what is not production data), reads every
// file once — standard input included, and a file reached by two paths — in
// parallel, and returns the episodes, or hands them over as they are read, in
// an order that depends on the input only, with what could not be read and
// why. Every command that reads logs goes through it.
package corpus

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"
	"sync"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/source"
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
	Episodes []*episode.Episode
	Skipped  []Skip   // inputs (or segments) left out, with the reason
	Passed   []string // test_*, test-*, unknown and *_error directories passed over
	Messages []string // what to tell the user about the lines read, in discovery order
	// roots are the directories given, named the files named themselves
	// (Below); alike the ids of episodes whose logs record none of the
	// files that their path below a directory alone would not tell apart
	// (pathID).
	roots []string
	named map[string]bool
	alike map[string]string
}

// Options say how to read.
type Options struct {
	Jobs     int       // files read at once (at least 1)
	Stdin    io.Reader // what "-" reads
	Progress func()    // called after each file; may be nil
	Read     source.Options
	// Sources are the sources asked to claim each input; the Registry when
	// nil.
	Sources *Sources
}

// Read discovers the logs under paths and reads each once, Jobs at a time:
// for the tests of the packages that read episodes (the commands discover,
// then read with progress or as a stream).
func Read(paths []string, opt Options) *Corpus {
	files, c := Discover(paths, opt.sources())
	c.ReadFiles(files, opt)
	return c
}

// ReadFiles reads the files, Jobs at a time, and adds what they hold to c.
// The result does not depend on the order the reads finish in.
func (c *Corpus) ReadFiles(files []string, opt Options) {
	c.Stream(files, opt, Sink{Episode: func(ep *episode.Episode) { c.Episodes = append(c.Episodes, ep) }})
}

// Sink is what Stream hands what it reads to, in discovery order: file by
// file, segment by segment within a file, whatever order the reads go in.
// Its functions are called one at a time, from the goroutine that called
// Stream; they may block, and the reading waits.
type Sink struct {
	// Episode is given each episode as soon as its segment ends.
	Episode func(*episode.Episode)
	// Message, when set, is given each message as Stream adds it to c.Messages.
	Message func(string)
}

// streamWindow is how many files may be read ahead, beyond Jobs, of the one
// being handed over, and streamQueue how many episodes of each may wait,
// built, for their turn: what Stream holds is bounded by these and Jobs, not
// by the input.
const (
	streamWindow = 4
	streamQueue  = 2
)

// Stream reads the files, Jobs at a time, and hands what they hold to sink
// as soon as its turn comes in discovery order, adding to c what was left
// out and the messages (ReadFiles's, in the same order), but not the
// episodes: those are the sink's.
func (c *Corpus) Stream(files []string, opt Options, sink Sink) {
	jobs := max(opt.Jobs, 1)
	order := make(chan *fileRead, jobs+streamWindow) // a full window holds the next file back
	next := make(chan *fileRead)
	go func() {
		var opened chan struct{} // the file before's
		for _, path := range files {
			r := &fileRead{path: path, eps: make(chan *episode.Episode, streamQueue), after: opened, opened: make(chan struct{}), pathID: c.pathID(path)}
			opened = r.opened
			order <- r
			next <- r
		}
		close(order)
		close(next)
	}()
	for range min(jobs, len(files)) {
		go func() {
			for r := range next {
				r.read(opt)
				if opt.Progress != nil {
					opt.Progress()
				}
			}
		}()
	}
	ids := newCopies()
	var cut []string // the logs whose one problem is a cut last line
	var same causes
	for r := range order {
		for ep := range r.eps {
			ids.add(ep)
			sink.Episode(ep)
		}
		if r.content != nil && r.episodes > 0 {
			ids.content(r.path, *r.content)
		}
		told := false
		for _, s := range r.skipped {
			if same.tell(r.path, s.Source+": "+s.Reason) {
				c.tell(sink, s.Source+": "+s.Reason)
				told = true
			}
		}
		for _, m := range r.problems {
			if strings.HasSuffix(m, restAnalysed) && !told {
				same.lines += skippedIn(m)
				continue // the count of a file whose every problem was held back
			}
			if same.tell(r.path, m) {
				c.tell(sink, m)
				told = true
			}
		}
		cut = append(cut, r.cut...)
		c.Skipped = append(c.Skipped, r.skipped...)
	}
	for _, m := range same.held() {
		c.tell(sink, m)
	}
	for _, m := range ids.warnings() {
		c.tell(sink, m)
	}
	if len(cut) > 0 {
		c.tell(sink, cutLines(cut))
	}
}

// cutLastLine begins the problem every source reports for a last line
// without its newline that is no whole record: a run killed while it wrote
// (the bundled set holds one on purpose: docs/development.md, "The bundled
// dataset"). TestCutLastLineWording holds the sources to it.
const cutLastLine = "truncated last line (no newline at the end of the file)"

// onlyCut reports an episode whose one problem is its cut last line,
// skipped: a killed run, said once for all such logs (cutLines) rather than
// in two messages each.
func onlyCut(ep *episode.Episode) bool {
	return ep.ProblemCount == 1 && ep.SkippedLines == 1 && len(ep.Problems) == 1 &&
		ep.Problems[0].Skipped && strings.HasPrefix(ep.Problems[0].Msg, cutLastLine)
}

// maxCutNamed is how many logs with a cut last line are named by file and
// line; the rest are counted.
const maxCutNamed = 5

// cutLines is the one message about the logs whose last line is cut, each
// FILE:LINE.
func cutLines(cut []string) string {
	named := strings.Join(cut[:min(len(cut), maxCutNamed)], ", ")
	if n := len(cut) - maxCutNamed; n > 0 {
		named += fmt.Sprintf(" and %d more", n)
	}
	verb := "ends"
	if len(cut) > 1 {
		verb = "end"
	}
	return fmt.Sprintf("note: %s %s in a truncated last line, skipped (a run killed while it wrote; the rest analysed): %s",
		plural(len(cut), "log"), verb, named)
}

// tell adds a message, and gives it to the sink.
func (c *Corpus) tell(sink Sink, m string) {
	c.Messages = append(c.Messages, m)
	if sink.Message != nil {
		sink.Message(m)
	}
}

// fileRead is one file being read: its episodes as they come, then, once
// eps is closed, what was left out of it and the messages about its lines.
type fileRead struct {
	path string
	// after is closed once the file before is open, and opened once this one
	// is and the file before too: a zstd file takes its window of the
	// decoding budget (jsonl.Limits.InTurn) after the file before is open,
	// so that a later file never holds the budget while it waits for its
	// turn to hand over, and the file whose turn it is waits for the budget.
	after, opened chan struct{}
	eps           chan *episode.Episode
	skipped       []Skip
	problems      []string
	cut           []string // FILE:LINE of its episodes whose one problem is a cut last line (onlyCut)
	// named are the file's episodes that the messages name (those with
	// problems), without their turns, so that what the sink lets go is freed:
	// the first maxNamed, and how many more there were and lines they skipped.
	named                []*episode.Episode
	moreNamed, moreLines int
	episodes             int // handed over
	// content is the hash of what the file holds (decompressed), when it was
	// read to its end: two files of the same content are copies.
	content *uint64
	pathID  string // source.Options.PathID
}

// maxNamed is how many episodes of a file the messages name one by one.
const maxNamed = 100

func (r *fileRead) read(opt Options) {
	defer close(r.eps)
	opt.Read.Limits.InTurn = func(take func()) {
		if r.after != nil {
			<-r.after
		}
		take()
	}
	var once sync.Once
	open := func() { once.Do(r.open) }
	defer open()
	path := r.path
	opt.Read.PathID = r.pathID
	res, err := opt.sources().read(path, opt.Stdin, opt.Read, open, func(ep *episode.Episode) {
		r.episodes++
		r.name(ep) // before the sink has it
		r.eps <- ep
	}, func(sum uint64) { r.content = &sum })
	if err != nil {
		r.skipped = append(r.skipped, Skip{Source: path, Reason: openReason(err)})
		return
	}
	r.skipped = rejections(path, res, r.episodes)
	r.problems, r.cut = problems(r.named)
	if c := res.Cut; c != nil && r.episodes > 0 { // said once: what was read is analysed, nothing is left out
		r.problems = append(r.problems, where(path, *c)+": "+c.Msg+"; what was read before it is analysed")
	}
	if r.moreNamed > 0 {
		r.problems = append(r.problems, fmt.Sprintf("%s: %s more with problems (%s skipped); the rest of each was analysed",
			path, plural(r.moreNamed, "episode"), plural(r.moreLines, "line")))
	}
}

// open says that the file is open, once the file before is: at once when
// it is, else when it will be, without waiting for it.
func (r *fileRead) open() {
	if r.after == nil {
		close(r.opened)
		return
	}
	select {
	case <-r.after:
		close(r.opened)
	default:
		go func() {
			<-r.after
			close(r.opened)
		}()
	}
}

// name keeps what the messages need of an episode with problems.
func (r *fileRead) name(ep *episode.Episode) {
	if ep.ProblemCount == 0 && ep.SkippedLines == 0 {
		return
	}
	if len(r.named) == maxNamed {
		r.moreNamed++
		r.moreLines += ep.SkippedLines
		return
	}
	r.named = append(r.named, named(ep))
}

func (opt Options) sources() *Sources {
	if opt.Sources != nil {
		return opt.Sources
	}
	return Registry()
}

// named is what the messages about an episode need of it: its name and its
// problems.
func named(ep *episode.Episode) *episode.Episode {
	return &episode.Episode{ID: ep.ID, Source: ep.Source, Segment: ep.Segment,
		Problems: ep.Problems, ProblemCount: ep.ProblemCount, SkippedLines: ep.SkippedLines}
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
// ended it before any episode, segments that cannot be replayed.
func rejections(name string, lg *source.Result, episodes int) []Skip {
	var s []Skip
	if c := lg.Cut; c != nil && episodes == 0 {
		s = append(s, Skip{Source: where(name, *c), Reason: c.Msg})
	}
	for _, p := range lg.Problems {
		s = append(s, Skip{Source: where(name, p), Reason: p.Msg})
	}
	for _, r := range lg.Rejected {
		src := name
		if len(lg.Rejected)+episodes > 1 {
			src = fmt.Sprintf("%s (segment %d)", name, r.Segment)
			if r.ID != "" {
				src = fmt.Sprintf("%s (segment %d, %s)", name, r.Segment, r.ID)
			}
		}
		s = append(s, Skip{Source: src, Reason: r.Reason})
	}
	return s
}

// where names the file and line of a problem of the log at path: FILE:LINE,
// the file the line is in (an application directory's log.jsonl) when
// the problem says.
func where(path string, p episode.Problem) string {
	return fmt.Sprintf("%s:%d", cmp.Or(p.File, path), p.Line)
}

// problems are the messages about the lines of a log's episodes: the first
// few word for word with file and line, then how many lines were skipped;
// and, apart, FILE:LINE of the episodes whose one problem is a cut last line.
func problems(eps []*episode.Episode) (m, cut []string) {
	for _, ep := range eps {
		if onlyCut(ep) {
			cut = append(cut, fmt.Sprintf("%s:%d", ep.Source, ep.Problems[0].Line))
			continue
		}
		m = append(m, ep.ProblemMessages()...)
		if ep.SkippedLines > 0 {
			m = append(m, fmt.Sprintf("%s: %s skipped in %s"+restAnalysed,
				ep.Source, plural(ep.SkippedLines, "line"), ep.Name()))
		}
	}
	return m, cut
}

// restAnalysed ends the count of the lines skipped in an episode.
const restAnalysed = "; the rest was analysed"

// skippedIn is the count of lines of a message "FILE: N lines skipped in
// NAME; the rest was analysed".
func skippedIn(m string) int {
	i := strings.LastIndex(m, " skipped in ")
	j := strings.LastIndex(m[:max(i, 0)], ": ")
	if i < 0 || j < 0 {
		return 0
	}
	n, _ := strconv.Atoi(strings.Fields(m[j+2 : i])[0])
	return n
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}
