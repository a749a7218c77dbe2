package corpus

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/lbanalyze/lbanalyze/internal/filekind"
	"github.com/lbanalyze/lbanalyze/jsonl"
)

// passedOver says whether a directory is not production data: ZorkGPT's test
// runs, the migration's unknown bucket, failed initialisations (docs/log-format.md
// docs/log-format.md, "7. Checklist for a robust parser", item 13).
func passedOver(name string) bool {
	return strings.HasPrefix(name, "test_") || strings.HasPrefix(name, "test-") || name == "unknown" || strings.HasSuffix(name, "_error")
}

// discovery is the state of one Discover: what was found, and the identities
// of the files already taken and of the directories walked.
type discovery struct {
	files []string
	seen  map[any]bool
	c     *Corpus
	stdin bool
	srcs  *Sources
	// walked are the directories entered, by identity: a symbolic link to
	// one of them (a loop, or a second way in) is passed over, and counted
	// in loops.
	walked map[any]bool
	loops  int
	// others are the files of other names a directory given holds, the
	// first few, and other how many: said when it holds no log.
	others []string
	other  int
}

// Discover finds the logs under paths, each directory's in lexical order: the
// files named like a log of one of srcs, and the directories a directory
// source claims (a Burr application). A file named on the command line is
// read whatever its name and kind (a named FIFO, "-"); in a directory only
// regular files are. A file reached twice — the same directory given twice, a
// symbolic or hard link — is read once, and so is "-", whatever name standard
// input is given (isStdin).
//
// A symbolic link to a directory is followed, unless it leads to a directory
// already entered (a loop, or a second way in): those are passed over and
// counted, in one message. Each file found under a directory is named by its
// path below it, for the ids of logs that record none (Below, pathID).
func Discover(paths []string, srcs *Sources) ([]string, *Corpus) {
	d := &discovery{seen: map[any]bool{}, c: &Corpus{named: map[string]bool{}}, srcs: srcs, walked: map[any]bool{}}
	for _, p := range paths {
		d.arg(p)
	}
	if d.loops > 0 {
		lead := "leads"
		if d.loops > 1 {
			lead = "lead"
		}
		d.c.Messages = append(d.c.Messages, fmt.Sprintf("note: %s under the directories given %s to a directory already read (a loop, or a second way in): passed over",
			plural(d.loops, "symbolic link"), lead))
	}
	d.c.alike = d.c.sameStem(d.files)
	return d.files, d.c
}

func (d *discovery) skip(source, reason string) {
	d.c.Skipped = append(d.c.Skipped, Skip{Source: source, Reason: reason})
	d.c.Messages = append(d.c.Messages, source+": "+reason)
}

func (d *discovery) arg(path string) {
	if isStdin(path) {
		if !d.stdin {
			d.stdin = true
			d.files = append(d.files, jsonl.StdinName)
		}
		return
	}
	info, err := os.Stat(path)
	if err != nil {
		d.skip(path, openReason(err))
		return
	}
	if !info.IsDir() {
		if d.add(path, info) {
			d.c.named[path] = true
		}
		return
	}
	d.c.roots = append(d.c.roots, path)
	d.others, d.other = nil, 0
	if d.walk(path, info) == 0 {
		d.c.Skipped = append(d.c.Skipped, Skip{Source: path, Reason: "no episode logs found"})
		d.c.Messages = append(d.c.Messages, path+": "+d.noLogs(d.others, d.other))
	}
}

// walk finds the logs under dir (info its own): the directories a directory
// source claims, the files some source opens by name, and through the
// symbolic links to directories not entered yet, the logs under them. It
// gives how many it found. The walk lists each directory once; a directory
// source is asked of it, and lists it again, only when one of its names
// marks one of its logs (source.DirSource's Marks).
func (d *discovery) walk(dir string, info os.FileInfo) int {
	d.walked[identity(dir, info)] = true
	// A root that is a symbolic link (game_files -> /data/…) is entered as
	// the directory it leads to, named with a trailing separator.
	start := dir
	if l, err := os.Lstat(dir); err == nil && l.Mode()&fs.ModeSymlink != 0 {
		start = dir + string(filepath.Separator)
	}
	entries, claimed, err := d.readDir(start)
	if claimed {
		d.found(start)
		return 1
	}
	return d.under(start, entries, err)
}

// readDir reads the directory p and says whether a directory source claims
// it: by its entries' names, or when they cannot all be read, by its path.
func (d *discovery) readDir(p string) ([]fs.DirEntry, bool, error) {
	entries, err := os.ReadDir(p)
	if err != nil {
		return entries, d.srcs.dirSource(p) != nil, err
	}
	return entries, d.srcs.dirSourceOf(p, entries) != nil, nil
}

// under finds the logs among the entries of the directory p, in name order;
// err is why they could not all be read.
func (d *discovery) under(p string, entries []fs.DirEntry, err error) int {
	if err != nil {
		d.skip(p, openReason(err))
	}
	found := 0
	for _, e := range entries {
		found += d.entry(filepath.Join(p, e.Name()), e)
	}
	return found
}

// entry finds the logs at the entry e of a directory, at path p.
func (d *discovery) entry(p string, e fs.DirEntry) int {
	switch {
	case e.IsDir() && passedOver(e.Name()):
		d.c.Passed = append(d.c.Passed, p)
	case e.IsDir():
		entries, claimed, err := d.readDir(p)
		if claimed {
			d.found(p)
			return 1
		}
		if info, err := e.Info(); err == nil {
			d.walked[identity(p, info)] = true
		}
		return d.under(p, entries, err)
	case e.Type()&fs.ModeSymlink != 0:
		n, ok := d.link(p, e.Name())
		switch {
		case !ok && d.srcs.opens(e.Name()):
			d.found(p)
			return n + 1
		case !ok:
			d.otherName(e.Name())
		}
		return n
	case d.srcs.opens(e.Name()):
		d.found(p)
		return 1
	default:
		d.otherName(e.Name())
	}
	return 0
}

// otherName counts a file of a name no source opens.
func (d *discovery) otherName(name string) {
	if d.other++; d.other <= maxOthers {
		d.others = append(d.others, name)
	}
}

// link follows the symbolic link p when it leads to a directory: false when
// it does not (a file, or a broken link). A directory already entered is
// passed over, counted.
func (d *discovery) link(p, name string) (int, bool) {
	info, err := os.Stat(p)
	if err != nil || !info.IsDir() {
		return 0, false
	}
	switch {
	case passedOver(name):
		d.c.Passed = append(d.c.Passed, p)
		return 0, true
	case d.walked[identity(p, info)]:
		d.loops++
		return 0, true
	case d.srcs.dirSource(p) != nil:
		d.found(p)
		return 1, true
	}
	return d.walk(p, info), true
}

// maxOthers is how many files of other names a walk that found no log names.
const maxOthers = 3

// noLogs says that a walk found no log: what names it opens, and the files
// of other names it passed over (n, the first few named), which a command
// line reads whatever their names.
func (d *discovery) noLogs(others []string, n int) string {
	s := "no episode logs found: a walk reads " + d.srcs.opened()
	if n == 0 {
		return s + "; it holds no other file"
	}
	more := ""
	if n > len(others) {
		more = fmt.Sprintf(" and %d more", n-len(others))
	}
	return fmt.Sprintf("%s, and passed over %s of other names (%s%s): name one on the command line to have it read whatever its name",
		s, plural(n, "file"), strings.Join(others, ", "), more)
}

// found takes a log met in a directory: regular files only, so that a FIFO
// cannot hang the run nor a link to /dev/zero grow it without end.
func (d *discovery) found(path string) {
	info, err := os.Stat(path)
	switch {
	case err != nil:
		if l, lerr := os.Lstat(path); lerr == nil && l.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(path)
			d.skip(path, fmt.Sprintf("symbolic link to %s, which cannot be read (%s)", target, openReason(err)))
			return
		}
		d.skip(path, openReason(err))
	case !info.Mode().IsRegular() && !info.IsDir():
		d.skip(path, "not a regular file ("+filekind.Of(info.Mode())+"), passed over; name it on the command line to read it")
	default:
		d.add(path, info)
	}
}

// add takes a file not taken yet.
func (d *discovery) add(path string, info os.FileInfo) bool {
	id := identity(path, info)
	if d.seen[id] {
		return false
	}
	d.seen[id] = true
	d.files = append(d.files, path)
	return true
}

// Files takes paths that name logs (the episode command's): each is read
// whatever its name and kind, once — "-" included; a directory is read when a
// source claims it as one log, else not searched but named, with what to
// give instead.
func Files(paths []string, srcs *Sources) ([]string, *Corpus) {
	d := &discovery{seen: map[any]bool{}, c: &Corpus{}, srcs: srcs}
	for _, p := range paths {
		if isStdin(p) {
			d.arg(p)
			continue
		}
		info, err := os.Stat(p)
		switch {
		case err != nil:
			d.skip(p, openReason(err))
		case info.IsDir() && srcs.dirSource(p) != nil:
			d.add(p, info)
		case info.IsDir():
			d.skip(p, directoryHint(p))
		default:
			d.add(p, info)
		}
	}
	return d.files, d.c
}

// directoryHint says what to give instead of a directory no source reads as
// one log: ZorkGPT's log in it, where there is one, or any log in it; or
// batch, which reads every log under it.
func directoryHint(dir string) string {
	log := filepath.Join(dir, "episode_log.jsonl")
	if _, err := os.Stat(log); err == nil {
		return fmt.Sprintf("is a directory: give %s, or run lbanalyze batch %s", log, dir)
	}
	return fmt.Sprintf("is a directory, not one log: give a log in it, or run lbanalyze batch %s to read every log under it", dir)
}
