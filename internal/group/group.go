// Package group splits a dataset into the groups a user compares: by the
// system that ran each episode, always, so that no answer is ever one for
// logs of two systems; and within a system by what --by names, a directory
// below the one given (a BALROG submission's model), a fact of the episode
// (TALES's run or game), or a member of a per-step log's steps
// (docs/commands.md, "Groups").
package group

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/system"
)

// Key is what --by groups the episodes of a system by.
type Key struct {
	Name string // as given: system, dir:2, run, info.model
	dir  int    // N of dir:N; 0 for another key
}

// bySystem is the key of the systems alone.
const bySystem = "system"

// Parse reads --by: system, dir:N (N from 1), or the key of a fact of the
// episodes (run, game) or of a member of a per-step log (model, info.model).
func Parse(s string) (Key, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return Key{}, fmt.Errorf("an empty key: give system, dir:N, run, game or a member of the logs' steps")
	case strings.HasPrefix(s, "dir:"):
		n, err := strconv.Atoi(strings.TrimPrefix(s, "dir:"))
		if err != nil || n < 1 || n > 1000 {
			return Key{}, fmt.Errorf("%q: dir:N takes N from 1, the first directory below the one given", s)
		}
		return Key{Name: s, dir: n}, nil
	case strings.ContainsAny(s, ", \t") || strings.Contains(s, ".."):
		return Key{}, fmt.Errorf("%q: give one key (system, dir:N, run, game or a member of the logs' steps, nested keys joined by dots)", s)
	}
	return Key{Name: s}, nil
}

// Member is the member of a per-step log's steps that the key names, for the
// sources to keep as a fact (source.Options.Member): "" for system and dir:N.
func (k Key) Member() string {
	if k.Name == bySystem || k.dir > 0 {
		return ""
	}
	return k.Name
}

// Group is the episodes of one system with one value of the key.
type Group struct {
	// Name says which: the system's name with no key (or --by system);
	// else the key's value, after the system's name when the episodes are
	// of several systems; "(none)" for episodes without a value.
	Name   string
	Value  string // the key's value; "" for none, or with no key
	System *system.System
	// Episodes keep the order they were given in.
	Episodes []*episode.Episode
}

// none names the group of the episodes the key gives no value.
const none = "(none)"

// Split groups eps by the system that ran each and then, when key is not
// nil, by its value: below gives the path below the directory given of an
// episode's Source, for dir:N. The groups are in the order of the systems'
// registry, then of their values (none last).
func Split(eps []*episode.Episode, key *Key, below func(source string) string) []Group {
	type id struct {
		sys   *system.System
		value string
	}
	index := map[id]int{}
	var groups []Group
	for _, ep := range eps {
		g := id{system.Of(ep), ""}
		if key != nil {
			g.value = key.Value(ep, below)
		}
		i, ok := index[g]
		if !ok {
			i = len(groups)
			index[g] = i
			groups = append(groups, Group{Value: g.value, System: g.sys})
		}
		groups[i].Episodes = append(groups[i].Episodes, ep)
	}
	order := system.All()
	slices.SortStableFunc(groups, func(a, b Group) int {
		return cmp.Or(cmp.Compare(slices.Index(order, a.System), slices.Index(order, b.System)),
			cmp.Compare(b2i(a.Value == ""), b2i(b.Value == "")) /* none last */, strings.Compare(a.Value, b.Value))
	})
	systems := Systems(groups)
	for i := range groups {
		g := &groups[i]
		switch {
		case key == nil || key.Name == bySystem:
			g.Name = g.System.Name
		case systems > 1:
			g.Name = g.System.Name + ": " + valueName(g.Value)
		default:
			g.Name = valueName(g.Value)
		}
	}
	return groups
}

// valueName names a group by its value: none's name for no value, and a
// value spelled as that name quoted, so that the two are told apart.
func valueName(v string) string {
	switch v {
	case "":
		return none
	case none:
		return strconv.Quote(v)
	}
	return v
}

// Unseen says, when the key gives no episode of eps a value, so that
// every one would fall in none's group, which keys they have instead (their
// facts, sorted, after system and dir:N; the members of their steps are
// kept only for the key asked): nil when one has a value, or with the key
// system.
func Unseen(eps []*episode.Episode, key *Key, below func(source string) string) error {
	if key == nil || key.Name == bySystem {
		return nil
	}
	var keys []string
	for _, ep := range eps {
		if key.Value(ep, below) != "" {
			return nil
		}
		for _, f := range ep.Facts {
			if !slices.Contains(keys, f.Key) {
				keys = append(keys, f.Key)
			}
		}
	}
	slices.Sort(keys)
	return fmt.Errorf("no episode has %s: the keys they have are %s, or a member of their steps (a column of a table)", key.Name, strings.Join(append([]string{bySystem, "dir:N"}, keys...), ", "))
}

// Value is the key's value for ep, which Split groups it by: "" when it
// has none; below is as Split's.
func (k Key) Value(ep *episode.Episode, below func(string) string) string {
	switch {
	case k.Name == bySystem:
		return ""
	case k.dir > 0:
		// The directories above the log: the last part of its path below
		// the one given is the log itself (a file, or a Burr application
		// directory).
		dirs := strings.Split(below(ep.Source), "/")
		if k.dir < len(dirs) {
			return dirs[k.dir-1]
		}
		return ""
	}
	return ep.Fact(k.Name)
}

// Systems counts the systems of the groups.
func Systems(groups []Group) int {
	var seen []*system.System
	for _, g := range groups {
		if !slices.Contains(seen, g.System) {
			seen = append(seen, g.System)
		}
	}
	return len(seen)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
