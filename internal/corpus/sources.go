package corpus

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/jsonl"
	"github.com/lbanalyze/lbanalyze/source"
	"github.com/lbanalyze/lbanalyze/source/atif"
	"github.com/lbanalyze/lbanalyze/source/balrog"
	"github.com/lbanalyze/lbanalyze/source/miniswe"
	"github.com/lbanalyze/lbanalyze/source/tales"
	"github.com/lbanalyze/lbanalyze/source/tau2"
	"github.com/lbanalyze/lbanalyze/source/terminalbench"
	"github.com/lbanalyze/lbanalyze/source/zorkgpt"
	"github.com/lbanalyze/lbanalyze/source/zorkgpt2"
)

// Sources are the sources a run asks to claim its inputs, in order: the
// first that claims a file (or a directory) reads it.
type Sources struct {
	Files []source.Source
	Dirs  []source.DirSource
}

// Registry is every source lbanalyze has, one line a source
// (docs/sources.md, "Adding a source").
func Registry() *Sources {
	return &Sources{
		Files: []source.Source{
			zorkgpt.Source{},
			zorkgpt2.Burr{}, zorkgpt2.RunLog{}, zorkgpt2.Snapshot{},
			tales.Source,
			balrog.Source,
			tau2.Source{},
			terminalbench.Source{},
			atif.Source{},
			miniswe.Source{},
		},
		Dirs: []source.DirSource{zorkgpt2.BurrDir{}, terminalbench.Dir{}},
	}
}

// opens says whether a directory walk opens a file so named: one of the
// sources would (source.Source's Opens).
func (srcs Sources) opens(name string) bool {
	return slices.ContainsFunc(srcs.Files, func(s source.Source) bool { return s.Opens(name) })
}

// opened says what a walk opens, as the sources name it (source.Named):
// "files named *.jsonl or run_log_*.txt, and Burr application directories".
func (srcs Sources) opened() string {
	var files, dirs []string
	add := func(to *[]string, s any) {
		if named, ok := s.(source.Named); ok {
			for _, x := range named.Names() {
				if !slices.Contains(*to, x) {
					*to = append(*to, x)
				}
			}
		}
	}
	for _, s := range srcs.Files {
		add(&files, s)
	}
	for _, s := range srcs.Dirs {
		add(&dirs, s)
	}
	said := "files named " + strings.Join(files, ", ")
	if k := len(files); k > 1 {
		said = "files named " + strings.Join(files[:k-1], ", ") + " or " + files[k-1]
	}
	if len(dirs) > 0 {
		said += ", and " + strings.Join(dirs, ", ")
	}
	return said
}

// formats lists the log formats srcs read, each once, for a message about a
// file none of them claims.
func (srcs Sources) formats() string {
	var f []string
	for _, s := range srcs.Files {
		if !slices.Contains(f, s.Format()) {
			f = append(f, s.Format())
		}
	}
	for _, s := range srcs.Dirs {
		if !slices.Contains(f, s.Format()) {
			f = append(f, s.Format()+" (a directory)")
		}
	}
	return strings.Join(f, ", ")
}

// dirSource is the source that claims dir, nil when none does.
func (srcs Sources) dirSource(dir string) source.DirSource {
	for _, s := range srcs.Dirs {
		if s.ClaimsDir(dir) {
			return s
		}
	}
	return nil
}

// dirSourceOf is dirSource of a directory whose entries are read: only a
// source that one of their names marks is asked.
func (srcs Sources) dirSourceOf(dir string, entries []fs.DirEntry) source.DirSource {
	for _, s := range srcs.Dirs {
		if slices.ContainsFunc(entries, func(e fs.DirEntry) bool { return s.Marks(e.Name()) }) && s.ClaimsDir(dir) {
			return s
		}
	}
	return nil
}

// read reads one input with the source that claims it: a directory, or a
// file (decompressed) by its first bytes; opened is called once the file is
// open, or could not be, and content with the hash of what a file holds once
// its source has read it to its end.
func (srcs Sources) read(path string, stdin io.Reader, opt source.Options, opened func(), emit func(*episode.Episode),
	content func(uint64)) (*source.Result, error) {
	if path != jsonl.StdinName {
		if info, err := os.Stat(path); err == nil && info.IsDir() {
			opened()
			if s := srcs.dirSource(path); s != nil {
				return s.ReadDir(path, opt, emit), nil
			}
			return nil, fmt.Errorf("is a directory no source reads (%s)", srcs.formats())
		}
	}
	rc, err := jsonl.Open(path, stdin, opt.Limits)
	opened()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	h := &hashing{r: rc, d: xxhash.New()}
	br, release := jsonl.Buffered(h)
	defer release()
	defer func() {
		if h.end {
			content(h.d.Sum64())
		}
	}()
	head, claimant, err := srcs.claim(br)
	if err != nil {
		return &source.Result{Problems: []episode.Problem{{Msg: "read error: " + err.Error()}}}, nil
	}
	switch {
	case claimant != nil:
		return claimant.Read(br, path, opt, emit), nil
	case source.Unreadable(head) != "":
		return rejected(source.Unreadable(head)), nil
	case len(head) == 0:
		return rejected("empty file"), nil
	}
	hint := srcs.unclaimed(head)
	if hint == "" {
		hint = suggestFields(head)
	}
	return rejected(fmt.Sprintf("does not look like a log lbanalyze reads (%s): %s%s", srcs.formats(), source.Describe(head), hint)), nil
}

// unclaimed is what the sources say of a file none claims, if any does
// (a field map's nested key written as one key with dots).
func (srcs Sources) unclaimed(head []byte) string {
	for _, s := range srcs.Files {
		if e, ok := s.(source.Explainer); ok {
			if why := e.Unclaimed(head); why != "" {
				return "; " + why
			}
		}
	}
	return ""
}

// headLines is how many lines of a file are enough to say that no source
// claims it (up to source.HeadSize bytes).
const headLines = 8

// claim finds the source that claims the stream br from its first bytes,
// reading no more of it than it takes (a stream may still be being written):
// a source claims it, or headLines lines or source.HeadSize bytes are read
// and none does, or the stream ends. It consumes nothing, and gives the head
// it judged.
func (srcs Sources) claim(br *bufio.Reader) ([]byte, source.Source, error) {
	for n := 1; ; n = min(br.Buffered()+1, source.HeadSize) {
		_, err := br.Peek(n)
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, nil, err
		}
		head, _ := br.Peek(min(br.Buffered(), source.HeadSize))
		if source.Unreadable(head) == "" {
			for _, s := range srcs.Files {
				if s.Claims(head) {
					return head, s, nil
				}
			}
		}
		if err != nil || len(head) == source.HeadSize || bytes.Count(head, []byte("\n")) >= headLines {
			return head, nil, nil
		}
	}
}

func rejected(reason string) *source.Result {
	return &source.Result{Segments: 0, Rejected: []source.Rejected{{Segment: 1, Reason: reason}}}
}

// hashing hashes what is read through it, and says whether it was read to
// its end.
type hashing struct {
	r   io.Reader
	d   *xxhash.Digest
	end bool
}

func (h *hashing) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	h.d.Write(p[:n])
	if errors.Is(err, io.EOF) {
		h.end = true
	}
	return n, err
}
