package policy

import (
	"fmt"
	"strconv"
	"strings"
)

// Parse reads a policy as written on the command line: NAME, or
// NAME:MAX_TURNS_STUCK[/CHECK_INTERVAL[/WARNING_THRESHOLD]] (the form tables
// print, "score-or-objective 40/10", with a colon). Settings it does not give
// come from defaults.
func Parse(s string, defaults Params) (Policy, error) {
	name, settings, _ := strings.Cut(strings.TrimSpace(s), ":")
	n, err := ParseName(name)
	if err != nil {
		return Policy{}, err
	}
	p := Policy{Name: n, Params: defaults}
	if settings == "" {
		return p, p.Usable()
	}
	fields := strings.Split(settings, "/")
	if len(fields) > 3 {
		return p, fmt.Errorf("%q: want NAME:MAX_TURNS_STUCK[/CHECK_INTERVAL[/WARNING_THRESHOLD]]", s)
	}
	dst := []*int{&p.MaxTurnsStuck, &p.CheckInterval, &p.WarningThreshold}
	for i, f := range fields {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return p, fmt.Errorf("%q: %q is not a whole number", s, f)
		}
		*dst[i] = v
	}
	return p, p.Usable()
}
