package policy

import (
	"fmt"
	"strconv"
	"strings"
)

// Parse reads a policy as written on the command line: NAME, or
// NAME:MAX_TURNS_STUCK[/CHECK_INTERVAL[/WARNING_THRESHOLD]] (the form tables
// print, "score-or-objective 40/10", with a colon), then any KEY=VALUE
// settings, each after a colon or a comma: "patience:40/10:room_patience=30",
// "patience:40/10,objective_patience=20", "increase,min_delta=5". KEY is a
// Setting's JSON key or flag name (room_patience or room-patience); an
// enumeration takes its value's name (score_mode=increase). The colon form
// survives flags that split on commas (--policy). Settings it does not give
// come from the values given, else their defaults. Rules joined by + are
// one policy that stops at the first of them (any: "score:40/10+repeat").
func Parse(s string, given Values) (Policy, error) {
	if rest, ok := strings.CutPrefix(strings.TrimSpace(s), string(Any)+":"); ok {
		s = rest // any:RULE+RULE, as output names it and its rules
	}
	if rules := splitRules(s); len(rules) > 1 {
		parts := make([]Policy, len(rules))
		for i, r := range rules {
			p, err := Parse(r, given)
			if err != nil {
				return p, err
			}
			parts[i] = p
		}
		return combine(parts...)
	}
	fields := strings.FieldsFunc(strings.TrimSpace(s), func(r rune) bool { return r == ':' || r == ',' })
	if len(fields) == 0 {
		fields = []string{""}
	}
	n, err := ParseName(strings.TrimSpace(fields[0]))
	if err != nil {
		return Policy{}, err
	}
	p := New(n, given)
	for i, f := range fields[1:] {
		if key, value, ok := strings.Cut(f, "="); ok {
			if p, err = p.set(strings.TrimSpace(key), strings.TrimSpace(value)); err != nil {
				return p, fmt.Errorf("%q: %v", s, err)
			}
			continue
		}
		if i > 0 { // W/I/T comes first, once
			return p, fmt.Errorf("%q: want NAME[:MAX_TURNS_STUCK[/CHECK_INTERVAL[/WARNING_THRESHOLD]]][:KEY=VALUE ...]", s)
		}
		if p, err = p.setTimer(s, f); err != nil {
			return p, err
		}
	}
	return p, p.Usable()
}

// setTimer gives p the timer's settings written W[/I[/T]].
func (p Policy) setTimer(s, settings string) (Policy, error) {
	fields := strings.Split(settings, "/")
	if len(fields) > len(TimerSettings) {
		return p, fmt.Errorf("%q: want NAME:MAX_TURNS_STUCK[/CHECK_INTERVAL[/WARNING_THRESHOLD]]", s)
	}
	for i, f := range fields {
		x := TimerSettings[i]
		if !p.Has(x) {
			return p, fmt.Errorf("%q: policy %s has no %s", s, p.Name, x.Key)
		}
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return p, fmt.Errorf("%q: %q is not a whole number", s, f)
		}
		p = p.With(x, v)
	}
	return p, nil
}

// set gives the Setting named key (its JSON key or flag) the value: the
// one p has, where several share the key (the caps' max).
func (p Policy) set(key, value string) (Policy, error) {
	named := false
	for _, x := range Settings() {
		if key != x.Key && key != x.Flag {
			continue
		}
		if named = true; !p.Has(x) {
			continue
		}
		v, err := x.Parse(value)
		if err != nil {
			return p, err
		}
		return p.With(x, v), nil
	}
	if named {
		return p, fmt.Errorf("policy %s has no %s", p.Name, key)
	}
	return p, fmt.Errorf("unknown setting %q", key)
}

// splitRules cuts s at each + that a policy's name follows (then a colon, a
// comma, a + or the end), so that a + within a setting (ignore=[0-9]+) is
// not taken for one.
func splitRules(s string) []string {
	var rules []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '+' {
			continue
		}
		rest := strings.TrimSpace(s[i+1:])
		end := strings.IndexAny(rest, ":,+")
		if end < 0 {
			end = len(rest)
		}
		if _, ok := registry[Name(strings.TrimSpace(rest[:end]))]; ok {
			rules = append(rules, s[start:i])
			start = i + 1
		}
	}
	return append(rules, s[start:])
}
