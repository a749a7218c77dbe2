package report

import (
	"slices"
	"testing"

	"github.com/lbanalyze/lbanalyze/internal/patterns"
)

// The stuck-spells column counts the spells of 10 turns or more, as its
// header says: a stop's spell of 4 turns (listed for its lead) is not one of
// them; one of 12 ended by progress is; one of exactly 10 ended by the
// stop is. Worked by hand: 1 and 1.
func TestSpellRowsCountLongSpells(t *testing.T) {
	a := &patterns.Analysis{Policies: []patterns.PolicyPatterns{
		{Policy: "repeat", StopTurn: 16, Longest: 12, ShortSpells: 1, Spells: []patterns.Spell{
			{Start: 1, End: 12, Length: 12, Ended: patterns.EndProgress},
			{Start: 13, End: 16, Length: 4, Ended: patterns.EndStop}}},
		{Policy: "score", StopTurn: 20, Longest: 10, Spells: []patterns.Spell{
			{Start: 11, End: 20, Length: 10, Ended: patterns.EndStop}}},
	}}
	if h := spellHeader(a)[1]; h != "stuck spells ≥ 10 turns" {
		t.Errorf("header %q", h)
	}
	var got []string
	for _, r := range spellRows(a) {
		got = append(got, r[1])
	}
	if want := []string{"1", "1"}; !slices.Equal(got, want) {
		t.Errorf("spells counted %q, want %q", got, want)
	}
}
