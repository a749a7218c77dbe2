package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/corpus"
	"github.com/lbanalyze/lbanalyze/internal/group"
	"github.com/lbanalyze/lbanalyze/report"
)

// byFlag is --by: what batch and sweep group the episodes of each system by
// (docs/commands.md, "Groups").
type byFlag struct {
	given string
	key   *group.Key
}

func (f *byFlag) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.given, "by", "", "give each group its own section and answer: system, dir:N (the N-th directory below the one given), "+
		"run or game (TALES), or a member of the logs' steps; logs of different systems are always grouped by system")
}

// parse reads --by, before any log is read.
func (f *byFlag) parse() error {
	if f.given == "" {
		return nil
	}
	k, err := group.Parse(f.given)
	if err != nil {
		return usageError("--by: %v", err)
	}
	f.key = &k
	return nil
}

// member is the member of per-step logs the sources keep for --by.
func (f *byFlag) member() string {
	if f.key == nil {
		return ""
	}
	return f.key.Member()
}

// name is what grouped the episodes, as the output says it.
func (f *byFlag) name() string {
	if f.key == nil {
		return "system"
	}
	return f.key.Name
}

// split groups the episodes read: by system always, and by --by. grouped
// says whether the output is in groups: --by was given, or the logs are of
// several systems (one answer is never one for two systems). A key that no
// episode has is a usage error, naming the keys they have.
func (f *byFlag) split(c *corpus.Corpus) (groups []group.Group, grouped bool, err error) {
	return f.splitOf(c.Episodes, c.Below)
}

// splitOf is split of eps, below giving the path of a log below the
// directory given.
func (f *byFlag) splitOf(eps []*episode.Episode, below func(string) string) (groups []group.Group, grouped bool, err error) {
	if err := group.Unseen(eps, f.key, below); err != nil {
		return nil, false, usageError("--by: %v", err)
	}
	groups = group.Split(eps, f.key, below)
	return groups, f.key != nil || len(groups) > 1, nil
}

// eachGroup analyses every group with analyse and writes its charts with
// charts, which groupPath tells where to put. A group that cannot be analysed
// is left out, and said so once all are done; none is the failure when no
// group could be.
func eachGroup[T any](e *env, groups []group.Group, none string, analyse func(group.Group) (T, error), charts func(r T, i int, name string) error) ([]T, error) {
	var out []T
	var failed []string
	for i, g := range groups {
		r, err := analyse(g)
		if err != nil {
			failed = append(failed, fmt.Sprintf("group %s: %v: left out", g.Name, err))
			continue
		}
		out = append(out, r)
		if err := charts(r, i, g.Name); err != nil {
			return nil, err
		}
	}
	e.tell(failed...)
	if len(out) == 0 {
		return nil, failure("%s", none)
	}
	return out, nil
}

// groupPath is where the charts or the HTML page of the group i (from 0)
// named name go, under what --plots or --html names: a directory of its own
// for each group, or the page's name with the group's: plots/2-gpt-4o,
// report-2-gpt-4o.html. With i < 0 (the logs are not in groups) or no path,
// it is path.
func groupPath(path string, i int, name string, dir bool) string {
	if path == "" || i < 0 {
		return path
	}
	tag := fmt.Sprintf("%d-%s", i+1, slug(name))
	if dir {
		return filepath.Join(path, tag)
	}
	ext := filepath.Ext(path)
	return strings.TrimSuffix(path, ext) + "-" + tag + ext
}

// slug is a name as a file name takes it: letters, digits, '.', '_' and
// '-', at most 60 bytes.
func slug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if b.Len() >= 60 {
			break
		}
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '_' {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	if s := strings.Trim(b.String(), "-."); s != "" {
		return s
	}
	return "group"
}

// inputs are what was left out of every group, for the grouped output.
func inputs(c *corpus.Corpus) report.Inputs { return report.NewInputs(skips(c.Skipped), c.Passed) }
