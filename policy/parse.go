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
// Dimension's JSON key or flag name (room_patience or room-patience); an
// enumeration takes its value's name (score_mode=increase). The colon form
// survives flags that split on commas (--policy). Settings it does not give
// come from defaults.
func Parse(s string, defaults Params) (Policy, error) {
	fields := strings.FieldsFunc(strings.TrimSpace(s), func(r rune) bool { return r == ':' || r == ',' })
	if len(fields) == 0 {
		fields = []string{""}
	}
	n, err := ParseName(strings.TrimSpace(fields[0]))
	if err != nil {
		return Policy{}, err
	}
	p := Policy{Name: n, Params: defaults}
	for i, f := range fields[1:] {
		if key, value, ok := strings.Cut(f, "="); ok {
			if err := p.set(strings.TrimSpace(key), strings.TrimSpace(value)); err != nil {
				return p, fmt.Errorf("%q: %v", s, err)
			}
			continue
		}
		if i > 0 { // W/I/T comes first, once
			return p, fmt.Errorf("%q: want NAME[:MAX_TURNS_STUCK[/CHECK_INTERVAL[/WARNING_THRESHOLD]]][:KEY=VALUE ...]", s)
		}
		if err := p.setNumbers(s, f); err != nil {
			return p, err
		}
	}
	return p, p.Usable()
}

func (p *Policy) setNumbers(s, settings string) error {
	fields := strings.Split(settings, "/")
	if len(fields) > 3 {
		return fmt.Errorf("%q: want NAME:MAX_TURNS_STUCK[/CHECK_INTERVAL[/WARNING_THRESHOLD]]", s)
	}
	dst := []*int{&p.MaxTurnsStuck, &p.CheckInterval, &p.WarningThreshold}
	for i, f := range fields {
		if key := dimensions[i].Key; !has(key, p.Name) {
			return fmt.Errorf("%q: policy %s has no %s", s, p.Name, key)
		}
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return fmt.Errorf("%q: %q is not a whole number", s, f)
		}
		*dst[i] = v
	}
	return nil
}

// set gives the Dimension named key (its JSON key or flag) the value.
func (p *Policy) set(key, value string) error {
	for i := range dimensions {
		d := &dimensions[i]
		if key != d.Key && key != d.Flag {
			continue
		}
		if !d.Has(p.Name) {
			return fmt.Errorf("policy %s has no %s", p.Name, d.Key)
		}
		v, err := d.Parse(value)
		if err != nil {
			return err
		}
		d.Set(&p.Params, v)
		return nil
	}
	return fmt.Errorf("unknown setting %q", key)
}
