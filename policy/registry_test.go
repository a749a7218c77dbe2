package policy

import (
	"os"
	"slices"
	"strings"
	"testing"
)

func TestStringShowsEveryNonDefaultParameter(t *testing.T) {
	for _, c := range []struct {
		p    Policy
		want string
	}{
		{Policy{Name: Score}, "score 40/10"},
		{Policy{Name: Score}.With(WarningThreshold, 30), "score 40/10/30"},
		{Policy{Name: ScoreOrObjective}.WithTimer(Timer{MaxTurnsStuck: 60, CheckInterval: 5, WarningThreshold: 20}), "score-or-objective 60/5"},
		{Policy{Name: Zorkburr}.WithTimer(Timer{MaxTurnsStuck: 60, CheckInterval: 5, WarningThreshold: 30}), "zorkburr 60/5"}, // it has no warning threshold
	} {
		if got := c.p.String(); got != c.want {
			t.Errorf("%+v: String() = %q, want %q", c.p, got, c.want)
		}
	}
	if a, b := (Policy{Name: Score}.With(WarningThreshold, 20)), (Policy{Name: Score}.With(WarningThreshold, 30)); a.String() == b.String() {
		t.Errorf("%+v and %+v print the same", a, b)
	}
}

func TestRegistry(t *testing.T) {
	names := Names()
	if len(names) < 3 || names[0] != Score || names[1] != ScoreOrObjective || names[2] != Window {
		t.Fatalf("Names() = %v, want score, score-or-objective, window first", names)
	}
	for _, n := range names {
		k, ok := Lookup(n)
		if !ok || k.New == nil || k.Description == "" {
			t.Errorf("%s: incomplete registry entry %+v", n, k)
		}
		if _, err := ParseName(string(n)); err != nil {
			t.Errorf("ParseName(%q): %v", n, err)
		}
	}
	if _, err := ParseName("nope"); err == nil {
		t.Error(`ParseName("nope") succeeded`)
	}
}

// TestPoliciesDocumented: docs/policies.md's table of the policies ("The
// policies") has a row for every registered policy, and its rule is the
// registry's sentence (Kind.Description, code spans aside): a new policy's
// documentation is that one row.
func TestPoliciesDocumented(t *testing.T) {
	data, err := os.ReadFile("../docs/policies.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(data), "\n## The policies\n")
	section, _, _ = strings.Cut(section, "\n## ")
	var names []Name
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if !strings.HasPrefix(line, "| `") || len(cells) < 2 {
			continue
		}
		n := Name(strings.Trim(strings.TrimSpace(cells[0]), "`"))
		names = append(names, n)
		k, ok := Lookup(n)
		if !ok {
			t.Errorf("docs/policies.md names %s, which the registry does not have", n)
			continue
		}
		if rule := strings.ReplaceAll(strings.TrimSpace(cells[1]), "`", ""); rule != k.Description {
			t.Errorf("%s: docs/policies.md says\n\t%s\nthe registry\n\t%s", n, rule, k.Description)
		}
	}
	want := Names()
	slices.Sort(names)
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Errorf("docs/policies.md lists %v, the registry %v", names, want)
	}
}
