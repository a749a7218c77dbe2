package source

import (
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
)

func TestAddFact(t *testing.T) {
	for _, c := range []struct {
		key, val string
		want     []string // the key, value and text of the fact added; nil for none
	}{
		{"model", "gpt-x", []string{"model", "gpt-x", "model gpt-x"}},
		{"trial", "3", []string{"trial", "3", "trial 3"}},
		{"task", "", nil},
	} {
		var ep episode.Episode
		AddFact(&ep, c.key, c.val)
		switch {
		case c.want == nil && len(ep.Facts) != 0:
			t.Errorf("AddFact(%q, %q) added %+v, want none", c.key, c.val, ep.Facts)
		case c.want != nil && (len(ep.Facts) != 1 || ep.Facts[0].Key != c.want[0] || ep.Facts[0].Value == nil || *ep.Facts[0].Value != c.want[1] || ep.Facts[0].Text != c.want[2]):
			t.Errorf("AddFact(%q, %q) added %+v, want %q", c.key, c.val, ep.Facts, c.want)
		}
	}
}
