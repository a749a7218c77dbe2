// Package source is the seam between the logs lbanalyze reads and the one
// Episode everything else reads (docs/sources.md): a Source recognises its
// files by their first bytes — never by name alone — and streams them into
// episodes. Each source lives in a package of its own under source/; the list
// of them is corpus's registry.
package source

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/jsonl"
)

// HeadSize is how many first bytes of a file (decompressed) a source is
// shown to claim it: enough for the first few records of every log known,
// and for the first keys of a line of tens of KB.
const HeadSize = 64 << 10

// MaxTurn bounds turn numbers (ZorkGPT's max_turns was at most 5000), and
// MaxGap the jump from one turn to a later one: every source holds its logs
// to them, so that a corrupt line cannot make a reader allocate for turns
// that never were.
const (
	MaxTurn = 200_000
	MaxGap  = 1000
)

// MaxTokens bounds the tokens a log may give a run or a step, 2^40 (about
// 10^12, a thousand times the most a real run spends): a count past it is no
// count, and sums of counts within it over MaxTurn turns stay far within
// int64.
const MaxTokens = 1 << 40

// MaxScore bounds scores, in every source, so that their differences are
// exact (2^53): a line whose score is beyond ±MaxScore is skipped.
const MaxScore = 1 << 53

// Source reads one kind of log file.
type Source interface {
	// Format is the log_format of the episodes it reads.
	Format() string
	// Opens reports whether a directory walk opens a file so named to ask
	// the sources about it: a file is claimed by its content, but a walk
	// opens only the files named like some source's logs.
	Opens(name string) bool
	// Claims reports whether a file that begins with head is one of its
	// logs. head holds the first HeadSize bytes, or the whole file when
	// shorter; the last line may be cut.
	Claims(head []byte) bool
	// Read streams the log r into episodes, handing each to emit as soon as
	// it ends; name is the path the user gave ("-" for stdin).
	Read(r io.Reader, name string, opt Options, emit func(*episode.Episode)) *Result
}

// Explainer is a source that says why it does not claim a file that nearly
// is one of its logs (a field map's nested key written as one key with dots).
type Explainer interface {
	// Unclaimed says why a file that begins with head is not claimed, or "".
	Unclaimed(head []byte) string
}

// JSONLName says whether a file is named like JSON Lines, plain or
// compressed: *.jsonl, *.jsonl.gz, *.jsonl.zst (JSONLNames).
func JSONLName(name string) bool {
	return strings.HasSuffix(name, ".jsonl") || strings.HasSuffix(name, ".jsonl.gz") || strings.HasSuffix(name, ".jsonl.zst")
}

// JSONLNames are the names JSONLName takes, as shell patterns.
var JSONLNames = []string{"*.jsonl", "*.jsonl.gz", "*.jsonl.zst"}

// Named is a source that says what names its Opens (or ClaimsDir) takes, as
// shell patterns or in words, for the message of a directory walk that finds
// no log: "*.jsonl", "run_log_*.txt".
type Named interface {
	Names() []string
}

// DirSource is a source whose logs are directories (a Burr application
// directory is one run): corpus asks it of every directory it meets.
type DirSource interface {
	Format() string
	// ClaimsDir reports whether dir is one of its logs, by what it holds.
	ClaimsDir(dir string) bool
	// Marks says whether an entry so named is one a directory it claims
	// holds: a walk, which has the names, asks ClaimsDir only of a
	// directory holding such an entry, rather than have it look again.
	Marks(name string) bool
	// ReadDir reads the log dir as Read reads a file.
	ReadDir(dir string, opt Options, emit func(*episode.Episode)) *Result
}

// Options tune reading.
type Options struct {
	// MaxProblems is how many problems an episode keeps word for word (all
	// are counted); 10 when 0. The parts that cannot be replayed keep as
	// many between them.
	MaxProblems int
	// MaxLine bounds the length of a line that matters (jsonl.DefaultMaxLine
	// when 0): a longer one is skipped with a problem. Lines that do not
	// matter are passed over whatever their length.
	MaxLine int
	// Limits bound what a compressed file may cost (a source that opens
	// files of its own, in a directory, opens them within these).
	Limits jsonl.Limits
	// PathID is the id of an episode whose log records none: the file's
	// path below the directory the user gave, "/"-separated, without the
	// extensions of a log (Stem), unique among the inputs; "" for a file
	// named itself, which a source names after its file (docs/sources.md,
	// "Episode ids").
	PathID string
	// Member is a member of a per-step log's steps (a dotted path) whose
	// value on an episode's first step is kept as its fact of that key, for
	// --by (docs/commands.md, "Groups"); "" for none.
	Member string
}

// WithDefaults is o with its zero values replaced by their defaults.
func (o Options) WithDefaults() Options {
	if o.MaxProblems == 0 {
		o.MaxProblems = 10
	}
	if o.MaxLine <= 0 {
		o.MaxLine = jsonl.DefaultMaxLine
	}
	return o
}

// Result is what a log yields besides its episodes.
type Result struct {
	Lines int // lines read
	// Segments is how many episodes the log holds, those that cannot be
	// replayed included.
	Segments int
	Rejected []Rejected
	// Problems are those of the parts that cannot be replayed.
	Problems []episode.Problem
	// Cut is the read error that ended the log early (a cut gzip stream, a
	// decompression bomb), nil when it was read to its end: what was read
	// of it is analysed.
	Cut *episode.Problem
}

// Rejected is a part of a log that cannot be replayed, and why.
type Rejected struct {
	Segment int
	ID      string
	Reason  string
	// Alike is how many parts right after this one were rejected for the
	// same reason; they are counted here (and in Reason) instead of listed.
	Alike int
}

// MaxRejected is how many parts that cannot be replayed a log lists one by
// one (alike ones in a row count as one); the rest are counted: a file of a
// million init lines of distinct ids must not cost a million messages.
const MaxRejected = 20

// Rejections are the parts of a log that cannot be replayed, as a Result
// lists them: alike ones in a row as one, the first MaxRejected one by one,
// the rest counted.
type Rejections struct {
	list                []Rejected
	more, firstUnlisted int
}

// Add rejects part seg (numbered from 1, in order), of episode id, for why.
func (r *Rejections) Add(seg int, id, why string) {
	if n := len(r.list); n > 0 {
		if last := &r.list[n-1]; last.Segment+last.Alike == seg-1 && last.Reason == why && last.ID == id {
			last.Alike++
			return
		}
	}
	if len(r.list) == MaxRejected {
		if r.more == 0 {
			r.firstUnlisted = seg
		}
		r.more++
		return
	}
	r.list = append(r.list, Rejected{Segment: seg, ID: id, Reason: why})
}

// AddTo adds them to res, the alike and the unlisted said in words.
func (r *Rejections) AddTo(res *Result) {
	for _, x := range r.list {
		if x.Alike > 0 {
			x.Reason += fmt.Sprintf(" (as are the %d segments after it)", x.Alike)
		}
		res.Rejected = append(res.Rejected, x)
	}
	if r.more > 0 {
		res.Rejected = append(res.Rejected, Rejected{Segment: r.firstUnlisted,
			Reason: fmt.Sprintf("cannot be replayed, nor can %d of the segments after it (a file's first %d such segments are listed one by one)", r.more-1, MaxRejected)})
	}
}

// ReadAll reads the log r with src and returns its episodes and the rest of
// what it yields: for tests, and callers that hold a whole log.
func ReadAll(src Source, r io.Reader, name string, opt Options) ([]*episode.Episode, *Result) {
	var eps []*episode.Episode
	res := src.Read(r, name, opt, func(ep *episode.Episode) { eps = append(eps, ep) })
	return eps, res
}

// AddFact adds to ep the fact that its key is val, written "key val"; none
// when val is "".
func AddFact(ep *episode.Episode, key, val string) {
	if val != "" {
		ep.Facts = append(ep.Facts, episode.Fact{Key: key, Value: &val, Text: key + " " + val})
	}
}

// RunID is the id of a run whose log names it id: id, else the path's
// (Options.PathID), else the file's name without its extensions; and
// whether it is made from the path.
func RunID(id string, opt Options, name string) (string, bool) {
	if id = Text(id); id != "" {
		return id, false
	}
	if opt.PathID != "" {
		return opt.PathID, true
	}
	return Stem(filepath.Base(name)), true
}

// TokenSum is a step's tokens given as two counts (prompt and completion,
// input and output), false when either is negative or past MaxTokens: such a
// count is no count, and their sum could wrap.
func TokenSum(a, b int64) (int64, bool) {
	if a < 0 || b < 0 || a > MaxTokens || b > MaxTokens {
		return 0, false
	}
	return a + b, true
}
