package policy

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/lbanalyze/lbanalyze/episode"
)

// Setting is one setting of the policies that list it on their Kind: a
// key of their configs' settings in JSON and CSV (Written), a flag of every
// command that takes a grid (a list or a range of values), a KEY=VALUE of
// --policy. Its values are whole numbers of steps: a number, a decimal in
// steps of 1/Scale, or the index of a name of an enumeration.
type Setting struct {
	Key  string // JSON and CSV key, and KEY of --policy: min_delta
	Flag string // the flag that sets it: min-delta
	// Called is how messages name it, where not by its Key (the check
	// interval is stuck_check_interval in ZorkGPT's pyproject.toml).
	Called string
	// Label is its word in Policy.String ("delta" in "increase 40/10 delta
	// 5"); "" for an enumeration, whose value's name stands alone.
	Label   string
	Usage   string
	Default int
	// Min is the least value a replay can use, but for the Special ones.
	Min int
	// Special are values below Min that mean something else, as messages
	// list them: {0, "max_turns_stuck"}, {-1, off}.
	Special []Special
	// Scale is how many steps make a unit: 100 for min_critic, kept in
	// hundredths and written as a decimal (0.5), 1000 for min_delta; 0 for a
	// whole number.
	Scale int
	// Names, for an enumeration (score_mode), spell its values from 0.
	Names []string
	// Patterns, for a setting of text (ignore=REGEX), hold its values: a
	// value is a pattern's index. Its flag takes one pattern, commas and
	// colons included.
	Patterns *Patterns
	// Reads is the signal it reads where a log records it (0: none): on a
	// log that lacks it the setting is off, never read as zero (the
	// supervisor's triggers; Policy.Off).
	Reads episode.Signal
	// Needs is the signal it needs while it is not off: a log without it
	// cannot replay the policy so set (patience's objectives, rooms;
	// Policy.Needs).
	Needs episode.Signal
}

// Special is a value of a setting that means something other than its
// number.
type Special struct {
	Value int
	Means string
}

// off is what a Special value means that turns its setting off.
const off = "off"

// special is what v means, "" when v is an ordinary value.
func (s *Setting) special(v int) string {
	for _, sp := range s.Special {
		if sp.Value == v {
			return sp.Means
		}
	}
	return ""
}

// isOff reports whether v turns the setting off.
func (s *Setting) isOff(v int) bool { return s.special(v) == off }

// called is how messages name s.
func (s *Setting) called() string { return cmp.Or(s.Called, s.Key) }

// usable reports a value that cannot be replayed at all.
func (s *Setting) usable(v int) error {
	switch {
	case s.Patterns != nil && !s.Patterns.known(v):
		return fmt.Errorf("%s: no pattern %d", s.called(), v)
	case s.Patterns != nil:
		return nil
	case s.Names != nil && (v < 0 || v >= len(s.Names)):
		return fmt.Errorf("%s must be one of %s, not %d", s.called(), strings.Join(s.Names, ", "), v)
	case v >= s.Min || s.special(v) != "":
		return nil
	}
	bound := fmt.Sprintf("must be at least %d", s.Min)
	if s.Min == 0 {
		bound = "must not be negative"
	}
	if s.Special != nil {
		means := make([]string, len(s.Special))
		for i, sp := range s.Special {
			means[i] = fmt.Sprintf("%d: %s", sp.Value, sp.Means)
		}
		bound += " (" + strings.Join(means, ", ") + ")"
	}
	return fmt.Errorf("%s %s, not %d", s.called(), bound, v)
}

// Parse reads a value as users write it: a name of an enumeration, a whole
// number, or a decimal with at most the places Scale allows ("0.45").
func (s *Setting) Parse(text string) (int, error) {
	if s.Patterns != nil {
		return s.Patterns.intern(text)
	}
	text = strings.TrimSpace(text)
	if i := slices.Index(s.Names, text); i >= 0 {
		return i, nil
	}
	if s.Scale > 1 {
		if v, ok := decimal(text, s.Scale); ok {
			return v, nil
		}
		return 0, fmt.Errorf("%s: %q is not a number with at most %d decimal places", s.Key, text, len(strconv.Itoa(s.Scale))-1)
	}
	v, err := strconv.Atoi(text)
	if err != nil {
		if s.Names != nil {
			return 0, fmt.Errorf("%s: %q is not one of %s", s.Key, text, strings.Join(s.Names, ", "))
		}
		return 0, fmt.Errorf("%s: %q is not a whole number", s.Key, text)
	}
	return v, nil
}

// decimal reads s, [-]DIGITS[.DIGITS], in steps of 1/scale (a power of
// ten): exactly, or not at all when s has more places than scale allows.
func decimal(s string, scale int) (int, bool) {
	whole, frac, _ := strings.Cut(s, ".")
	digits, neg := strings.CutPrefix(whole, "-")
	places := len(strconv.Itoa(scale)) - 1
	if len(frac) > places || digits == "" && frac == "" || strings.ContainsAny(frac, "+-") || neg && strings.ContainsAny(digits, "+-") {
		return 0, false
	}
	w, err := strconv.Atoi(digits)
	if err != nil && digits != "" || w > 1<<40 {
		return 0, false
	}
	f := 0
	if frac != "" {
		if f, err = strconv.Atoi(frac + strings.Repeat("0", places-len(frac))); err != nil {
			return 0, false
		}
	}
	v := w*scale + f
	if neg {
		v = -v
	}
	return v, true
}

// Format writes a value as users give it: a name, a whole number, or a
// decimal without trailing zeros (50 hundredths: "0.5").
func (s *Setting) Format(v int) string {
	if s.Patterns != nil {
		return s.Patterns.text(v)
	}
	if v >= 0 && v < len(s.Names) {
		return s.Names[v]
	}
	if s.Scale > 1 {
		return strconv.FormatFloat(float64(v)/float64(s.Scale), 'f', -1, 64)
	}
	return strconv.Itoa(v)
}

// Value is v as JSON and CSV give it: a name, a number (a decimal for a
// scaled setting), in users' units.
func (s *Setting) Value(v int) any {
	switch {
	case s.Patterns != nil:
		return s.Patterns.text(v)
	case s.Names != nil && v >= 0 && v < len(s.Names):
		return s.Names[v]
	case s.Scale > 1:
		return float64(v) / float64(s.Scale) // the float Format writes, exactly
	}
	return v
}

// shown is v as Policy.String adds it: nothing at the default, else the
// label and the value, a special value's meaning ("obj off") or an
// enumeration's name alone.
func (s *Setting) shown(v int) string {
	switch means := s.special(v); {
	case v == s.Default:
		return ""
	case s.Label == "":
		return " " + s.Format(v)
	case means != "":
		return " " + s.Label + " " + means
	}
	return " " + s.Label + " " + s.Format(v)
}

// Settings lists every policy's settings once, in the order tables show
// them (docs/policies.md, "Settings"): the settings of the policy that has
// the most (patience: the timer's and the variants'), then those each other
// policy adds, in its order, the policies taken by how many settings they
// have, then as Names lists them. A new policy's own settings thus come
// last, unless it has more than any other.
func Settings() []*Setting { return allSettings() }

var allSettings = sync.OnceValue(func() []*Setting {
	kinds := make([]*Kind, 0, len(registry))
	for _, n := range Names() {
		kinds = append(kinds, registry[n])
	}
	slices.SortStableFunc(kinds, func(a, b *Kind) int { return len(b.Settings) - len(a.Settings) })
	var all []*Setting
	for _, k := range kinds {
		for _, s := range k.Settings {
			if !slices.Contains(all, s) {
				all = append(all, s)
			}
		}
	}
	return all
})

// Values are values given for settings whatever the policy, by the flags or
// a configuration file: a policy takes those of its settings (New).
type Values map[*Setting]int

// Get is the value given for s, else its default.
func (v Values) Get(s *Setting) int {
	if x, ok := v[s]; ok {
		return x
	}
	return s.Default
}

// Usable reports the first value, in the order of Settings, that cannot be
// replayed at all.
func (v Values) Usable() error {
	for _, s := range Settings() {
		if x, ok := v[s]; ok {
			if err := s.usable(x); err != nil {
				return err
			}
		}
	}
	return nil
}
