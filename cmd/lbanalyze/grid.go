package main

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/lbanalyze/lbanalyze/policy"
)

// maxGrid bounds the values one grid flag may expand to, so that a typo such
// as 1:1000000000 fails at once instead of filling memory.
const maxGrid = 100_000

// intList is a flag of a setting's values: comma-separated values and
// ranges FROM:TO[:STEP] (TO included), e.g. "20:120:5" or "1,5,10", as the
// Setting reads them (names of an enumeration, decimals of a scaled setting:
// "0.3:0.7:0.1"). Repeating the flag adds to the list. A flag of one value
// (one: batch's) takes a single value, as the Setting reads it.
type intList struct {
	vals    []int
	set     bool
	setting *policy.Setting
	one     bool
}

func newIntList(s *policy.Setting) *intList { return &intList{vals: []int{s.Default}, setting: s} }

// settingFlags are the flags of every setting, by the index of
// policy.Settings(): the one way a setting goes from its flag to a policy.
type settingFlags []*intList

// register adds a flag for each setting, of one value (one) or a list; grid
// gives a command's own default values for a setting, by its JSON key.
func (fl *settingFlags) register(fs *pflag.FlagSet, one bool, grid map[string][]int, usage func(*policy.Setting) string) {
	for _, s := range policy.Settings() {
		l := newIntList(s)
		l.one = one
		if vals, ok := grid[s.Key]; ok {
			l.vals = vals
		}
		*fl = append(*fl, l)
		fs.Var(l, s.Flag, usage(s))
	}
}

// given are the values the flags set, the first of each.
func (fl settingFlags) given() policy.Values {
	v := policy.Values{}
	for _, l := range fl {
		if l.set {
			v[l.setting] = l.vals[0]
		}
	}
	return v
}

// lists are each setting's values: its flag's when set, else config's value
// when there is a config, else the command's defaults.
func (fl settingFlags) lists(config policy.Values) [][]int {
	vals := make([][]int, len(fl))
	for i, l := range fl {
		vals[i] = l.vals
		if config != nil && !l.set {
			vals[i] = []int{config.Get(l.setting)}
		}
	}
	return vals
}

func (l *intList) Type() string {
	switch {
	case !l.one:
		return "list"
	case l.setting.Patterns != nil:
		return "regex"
	case l.setting.Names != nil:
		return "name"
	case l.setting.Scale > 1:
		return "decimal"
	}
	return "int"
}

// String writes the values as they are given: a run of three or more
// evenly spaced values as a range, FROM:TO[:STEP] ("10:150:5", not 29
// values).
func (l *intList) String() string {
	if l.one {
		return l.setting.Format(l.vals[0])
	}
	if l.setting.Patterns != nil { // a pattern is its text, never a range
		var s []string
		for _, v := range l.vals {
			s = append(s, l.setting.Format(v))
		}
		return strings.Join(s, ",")
	}
	show := strconv.Itoa
	if l.setting != nil && l.setting.Scale > 1 {
		show = l.setting.Format
	}
	var s []string
	for i := 0; i < len(l.vals); {
		j := i + 1 // the run is vals[i:j]
		if i+1 < len(l.vals) && l.vals[i+1] > l.vals[i] {
			for step := l.vals[i+1] - l.vals[i]; j < len(l.vals) && l.vals[j]-l.vals[j-1] == step; j++ {
			}
		}
		switch n := j - i; {
		case n >= 3 && l.vals[i+1]-l.vals[i] == 1:
			s = append(s, show(l.vals[i])+":"+show(l.vals[j-1]))
		case n >= 3:
			s = append(s, show(l.vals[i])+":"+show(l.vals[j-1])+":"+show(l.vals[i+1]-l.vals[i]))
		default:
			j = i + 1
			s = append(s, show(l.vals[i]))
		}
		i = j
	}
	return strings.Join(s, ",")
}

func (l *intList) Set(s string) error {
	if l.one {
		v, err := l.setting.Parse(s)
		if err != nil && l.setting.Patterns == nil && (strings.ContainsAny(s, ":,") || rangeWritten.MatchString(s)) {
			return fmt.Errorf("%w: batch compares two policies at one value of each setting (sweep searches lists and ranges)", err)
		}
		if err == nil {
			l.vals, l.set = []int{v}, true
		}
		return err
	}
	if !l.set {
		l.vals, l.set = nil, true
	}
	if l.setting.Patterns != nil { // a pattern holds commas and colons of its own: one value a flag
		v, err := l.setting.Parse(s)
		l.vals = append(l.vals, v)
		return err
	}
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		if i := slices.Index(l.setting.Names, item); i >= 0 {
			l.vals = append(l.vals, i)
			continue
		}
		vals, err := parseRange(item, l.setting)
		if err != nil {
			return err
		}
		if len(l.vals)+len(vals) > maxGrid {
			return fmt.Errorf("more than %d values", maxGrid)
		}
		l.vals = append(l.vals, vals...)
	}
	return nil
}

// rangeWritten finds a range written as people write one, FROM-TO,
// FROM..TO, FROM–TO.
var rangeWritten = regexp.MustCompile(`^\s*(-?[0-9.]+)\s*(?:-|\.\.|–|—|to)\s*(-?[0-9.]+)\s*$`)

// rangeHint says how to write a range, for a value that is no number: the
// range it looks like, written FROM:TO.
func rangeHint(item string) string {
	if m := rangeWritten.FindStringSubmatch(item); m != nil {
		return fmt.Sprintf(": a range is FROM:TO[:STEP], e.g. %s:%s (or %s:%s:5 in steps of 5)", m[1], m[2], m[1], m[2])
	}
	return " (give a number, a range FROM:TO[:STEP], or several, comma-separated)"
}

// parseRange reads one item: N, or FROM:TO[:STEP], each number as s reads
// it (a whole number unless s is scaled).
func parseRange(item string, s *policy.Setting) ([]int, error) {
	parts := strings.Split(item, ":")
	if len(parts) > 3 {
		return nil, fmt.Errorf("%q: want N or FROM:TO[:STEP]", item)
	}
	n := make([]int, len(parts))
	for i, p := range parts {
		if s != nil && s.Scale > 1 {
			v, err := s.Parse(p)
			if err != nil {
				return nil, fmt.Errorf("%q: %w", item, err)
			}
			n[i] = v
			continue
		}
		v, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil && len(parts) == 1 {
			return nil, fmt.Errorf("%q is not a whole number%s", item, rangeHint(item))
		}
		if err != nil {
			return nil, fmt.Errorf("%q: %q is not a whole number", item, p)
		}
		n[i] = v
	}
	if len(n) == 1 {
		return n, nil
	}
	from, to, step := n[0], n[1], 1
	if len(n) == 3 {
		step = n[2]
	}
	switch {
	case step < 1:
		return nil, fmt.Errorf("%q: the step must be at least 1", item)
	case to < from:
		return nil, fmt.Errorf("%q: the range ends before it starts", item)
	}
	// Counted in unsigned arithmetic, and stepped by index: near the limits
	// of an int, to-from and from+step overflow.
	steps := (uint64(to) - uint64(from)) / uint64(step)
	if steps >= maxGrid {
		return nil, fmt.Errorf("%q: more than %d values", item, maxGrid)
	}
	vals := make([]int, steps+1)
	for i := range vals {
		vals[i] = from + i*step
	}
	return vals, nil
}
