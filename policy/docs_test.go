package policy

import (
	"os"
	"slices"
	"strings"
	"testing"
)

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
