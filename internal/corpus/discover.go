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
// of the files already taken.
type discovery struct {
	files []string
	seen  map[any]bool
	c     *Corpus
	stdin bool
	srcs  *Sources
}

// Discover finds the logs under paths, each directory's in lexical order: the
// files named like a log of one of srcs, and the directories a directory
// source claims (a Burr application). A file named on the command line is
// read whatever its name and kind (a named FIFO, "-"); in a directory only
// regular files are. A file reached twice — the same directory given twice, a
// symbolic or hard link — is read once, and so is "-", whatever name standard
// input is given (isStdin).
func Discover(paths []string, srcs *Sources) ([]string, *Corpus) {
	d := &discovery{seen: map[any]bool{}, c: &Corpus{}, srcs: srcs}
	for _, p := range paths {
		d.arg(p)
	}
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
		d.add(path, info)
		return
	}
	// WalkDir does not follow a root that is a symbolic link (game_files ->
	// /data/…, say); with a trailing separator the root is the directory.
	root := path
	if l, err := os.Lstat(path); err == nil && l.Mode()&fs.ModeSymlink != 0 {
		root = path + string(filepath.Separator)
	}
	found := 0
	var others []string // files of other names, the first few
	other := 0
	err = filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		switch {
		case err != nil:
			d.skip(p, openReason(err))
		case e.IsDir() && p != root && passedOver(e.Name()):
			d.c.Passed = append(d.c.Passed, p)
			return filepath.SkipDir
		case e.IsDir() && d.srcs.dirSource(p) != nil:
			found++
			d.found(p)
			return filepath.SkipDir
		case !e.IsDir() && d.srcs.opens(e.Name()):
			found++
			d.found(p)
		case !e.IsDir():
			if other++; other <= maxOthers {
				others = append(others, e.Name())
			}
		}
		return nil
	})
	if err == nil && found == 0 {
		d.c.Skipped = append(d.c.Skipped, Skip{Source: path, Reason: "no episode logs found"})
		d.c.Messages = append(d.c.Messages, path+": "+d.noLogs(others, other))
	}
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

func (d *discovery) add(path string, info os.FileInfo) {
	id := identity(path, info)
	if d.seen[id] {
		return
	}
	d.seen[id] = true
	d.files = append(d.files, path)
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
