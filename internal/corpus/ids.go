package corpus

import (
	"cmp"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/source"
)

// An episode's id is the one its log records or, for a log that records
// none, one made from where the file lies (docs/sources.md, "Episode ids"):
// its path below the directory given (pathIDs), or a source's own reading of
// its layout (TALES's run, game and seed). Two files are copies when they
// hold the same bytes, or record the same id; both are analysed and counted,
// with a warning. Ids made from paths never make a warning: two such that
// would be equal are told apart (copies.add).

// below is path's place under root, a directory given, "/"-separated, and
// false when it is not under it. A path found there is root's joined with
// names, as filepath.Join writes it.
func below(root, path string) (string, bool) {
	root = filepath.Clean(root)
	sep := string(filepath.Separator)
	var rel string
	var ok bool
	switch {
	case root == ".":
		rel, ok = path, !filepath.IsAbs(path) && path != ".." && !strings.HasPrefix(path, ".."+sep)
	case strings.HasSuffix(root, sep): // the file system's root
		rel, ok = strings.CutPrefix(path, root)
	default:
		rel, ok = strings.CutPrefix(path, root+sep)
	}
	return filepath.ToSlash(rel), ok && rel != ""
}

// Below is the path below the directory given of a log found in one (an
// episode's Source), "/"-separated; "" for a log named itself. The
// directories given are few, and are all it keeps.
func (c *Corpus) Below(path string) string {
	_, rel := c.rootBelow(path)
	return rel
}

// rootBelow is the directory given that path was found in, and its path
// below it (Below); "", "" for a log named itself.
func (c *Corpus) rootBelow(path string) (string, string) {
	if c.named[path] {
		return "", ""
	}
	for _, root := range c.roots {
		if rel, ok := below(root, path); ok {
			return root, rel
		}
	}
	return "", ""
}

// pathID is the id of the episodes of the file at path whose logs record
// none (source.Options.PathID): its path below the directory given without
// the extensions of a log, unless two files would be named alike
// (alike, sameStem).
func (c *Corpus) pathID(path string) string {
	if id, ok := c.alike[path]; ok {
		return id
	}
	return source.Stem(c.Below(path))
}

// sameStem gives the files found under the directories given whose path
// below it without the extensions of a log would not tell apart an id of
// their own. Where two directories given hold the same path
// (runs/*/textworld: each submission's coin_collector/coin_collector_run_00),
// every file of those directories is named by its path as given, so that
// they read alike; then a file whose name without those extensions another
// file's has too keeps them (run.jsonl beside run.jsonl.gz).
func (c *Corpus) sameStem(files []string) map[string]string {
	first, shared := map[string]string{}, map[string]bool{} // a path below a root: the root it was first found in
	for _, f := range files {
		root, b := c.rootBelow(f)
		if r, ok := first[b]; b != "" && ok && r != root {
			shared[r], shared[root] = true, true
		} else if b != "" && !ok {
			first[b] = root
		}
	}
	name := func(f string) string {
		if root, b := c.rootBelow(f); !shared[root] {
			return b
		}
		return filepath.ToSlash(f)
	}
	count := map[string]int{}
	for _, f := range files {
		if n := name(f); n != "" {
			count[source.Stem(n)]++
		}
	}
	ids := map[string]string{}
	for _, f := range files {
		switch n := name(f); {
		case n == "":
		case count[source.Stem(n)] > 1:
			ids[f] = n
		case n != c.Below(f):
			ids[f] = source.Stem(n)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	return ids
}

// copies finds what may be copies: an id recorded in two files (a .jsonl
// beside its .jsonl.gz, a backup), two files of the same content. It keeps a
// 64-bit hash of each id, and the id itself only of those found twice: up to
// maxIDs ids, so that a file of millions of episodes does not hold millions
// of ids. It also tells apart two ids made from paths that would be equal.
type copies struct {
	seen    map[uint64]firstSeen
	sources []string          // the files met, in order
	dups    map[uint64]*dupID // the recorded ids found in more than one file
	full    bool              // maxIDs reached: later ids are not checked
	// contents are the files met by the hash of what they hold, and copyOf
	// the first file of the same content, of a file that has one.
	contents map[uint64]int32
	copyOf   map[int32]int32
	// renamed counts the ids made from paths that were told apart, and
	// example is the first.
	renamed int
	example string
}

type firstSeen struct {
	order, source int32
	recorded      bool
}

type dupID struct {
	id      string
	order   int32
	sources []int32
}

const maxIDs = 1 << 18

func newCopies() *copies {
	return &copies{seen: map[uint64]firstSeen{}, contents: map[uint64]int32{}, copyOf: map[int32]int32{}}
}

// source is the index of the file met last, adding it when it is new.
func (d *copies) source(name string) int32 {
	if n := len(d.sources); n == 0 || d.sources[n-1] != name {
		d.sources = append(d.sources, name)
	}
	return int32(len(d.sources) - 1)
}

// add takes an episode, in discovery order. An id made from a path that
// another file's episode has already is told apart by the episode's path as
// given.
func (d *copies) add(ep *episode.Episode) {
	if ep.ID == "" {
		return
	}
	src := d.source(ep.Source)
	h := xxhash.Sum64String(ep.ID)
	first, ok := d.seen[h]
	if ok && ep.IDFromPath && first.source != src {
		ep.ID = fmt.Sprintf("%s (%s)", ep.ID, source.Stem(filepath.ToSlash(ep.Source)))
		if d.renamed++; d.renamed == 1 {
			d.example = ep.ID
		}
		h = xxhash.Sum64String(ep.ID)
		first, ok = d.seen[h]
	}
	switch {
	case !ok && len(d.seen) == maxIDs:
		d.full = true
	case !ok:
		d.seen[h] = firstSeen{int32(len(d.seen)), src, !ep.IDFromPath}
	case first.source != src && first.recorded && !ep.IDFromPath:
		if d.dups == nil {
			d.dups = map[uint64]*dupID{}
		}
		dup := d.dups[h]
		if dup == nil {
			dup = &dupID{id: ep.ID, order: first.order, sources: []int32{first.source}}
			d.dups[h] = dup
		}
		if dup.sources[len(dup.sources)-1] != src {
			dup.sources = append(dup.sources, src)
		}
	}
}

// content takes the hash of what the file at path holds, once its episodes
// are added.
func (d *copies) content(path string, sum uint64) {
	src := d.source(path)
	if first, ok := d.contents[sum]; ok {
		d.copyOf[src] = first
		return
	}
	d.contents[sum] = src
}

// maxWarned is how many copies the warnings name one by one, and maxNames
// how many files a warning names: the rest are counted.
const (
	maxWarned = 5
	maxNames  = 2
)

// warnings say what may be copies, a line a group: the files of the same
// content, then each id recorded in several files (other than copies of one
// of them), in the order they were found.
func (d *copies) warnings() []string {
	var m []string
	if d.renamed > 0 {
		m = append(m, fmt.Sprintf("note: %s whose logs record no id would have had the id of another file's: each is named with its path as given as well (%s)",
			plural(d.renamed, "episode"), d.example))
	}
	same := map[int32][]int32{}
	for _, src := range slices.Sorted(maps.Keys(d.copyOf)) {
		first := d.copyOf[src]
		same[first] = append(same[first], src)
	}
	firsts := slices.Sorted(maps.Keys(same))
	for i, first := range firsts {
		if i == maxWarned {
			m = append(m, fmt.Sprintf("warning: %d more sets of files hold the same content as each other: each file is analysed and counted", len(firsts)-i))
			break
		}
		files := append([]int32{first}, same[first]...)
		m = append(m, fmt.Sprintf("warning: %d files hold the same content (%s): each is analysed and counted as a run of its own; if they are copies of one run, not runs that went alike, keep one",
			len(files), d.names(files)))
	}
	dups := slices.SortedFunc(maps.Values(d.dups), func(a, b *dupID) int { return cmp.Compare(a.order, b.order) })
	warned := 0
	for _, dup := range dups {
		// A copy of a file named already says why the id is in it.
		files := slices.DeleteFunc(slices.Clone(dup.sources), func(s int32) bool {
			first, isCopy := d.copyOf[s]
			return isCopy && slices.Contains(dup.sources, first)
		})
		if len(files) < 2 {
			continue
		}
		if warned++; warned <= maxWarned {
			m = append(m, fmt.Sprintf("warning: episode %s is in %d files (%s): each is analysed and counted; remove the copies you do not mean",
				dup.id, len(files), d.names(files)))
		}
	}
	if warned > maxWarned {
		m = append(m, fmt.Sprintf("warning: %d more episode ids are each in more than one file: each is analysed and counted", warned-maxWarned))
	}
	if d.full {
		m = append(m, fmt.Sprintf("note: episode ids were checked for copies in other files among the first %d only", maxIDs))
	}
	return m
}

// names lists the files, the first maxNames by name, then how many more.
func (d *copies) names(files []int32) string {
	var n []string
	for _, f := range files[:min(len(files), maxNames)] {
		n = append(n, d.sources[f])
	}
	if more := len(files) - maxNames; more > 0 {
		return strings.Join(n, ", ") + fmt.Sprintf(" and %d more", more)
	}
	return strings.Join(n, ", ")
}
