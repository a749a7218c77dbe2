package patterns

import (
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/corpus"
	"github.com/lbanalyze/lbanalyze/policy"
)

// bundled reads every episode of testdata/episodes (ZorkGPT's layout, the
// test directories included: they are logs like any other).
func bundled(t testing.TB) []*episode.Episode {
	t.Helper()
	files, err := filepath.Glob("../../testdata/episodes/*/episode_log.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no bundled episodes: %v", err)
	}
	sort.Strings(files)
	return corpus.Read(files, corpus.Options{Jobs: 2}).Episodes
}

// digests are the digests of as.
func digests(as []*Analysis) []Digest {
	ds := make([]Digest, len(as))
	for i, a := range as {
		ds[i] = a.Digest()
	}
	return ds
}

var defaultPolicies = []policy.Policy{
	{Name: policy.Score},
	{Name: policy.ScoreOrObjective},
}

// TestRevisitAgreesWithLog: the Phase 1B replay reproduces every
// location_penalty_applied of the bundled set (turn, location_id,
// recent_visits), and penalises no turn the log does not, in every episode
// whose recording ran the loop break; each event's adjusted_confidence is
// clamp(base_confidence − 0.2 × recent_visits).
func TestRevisitAgreesWithLog(t *testing.T) {
	eps := bundled(t)
	withEvents, events := 0, 0
	for _, ep := range eps {
		a := Analyse(ep, DefaultOptions())
		rv := a.Revisit
		if rv.LoggedEvents == 0 && !rv.Recorded {
			continue
		}
		withEvents++
		events += rv.LoggedEvents
		if !rv.Replayed || rv.Agree != rv.LoggedEvents || rv.DisagreementCount != 0 || rv.ConfidenceMismatches != 0 {
			t.Errorf("%s: %d events, %d agree, %d disagreements %+v, %d confidence mismatches",
				ep.Name(), rv.LoggedEvents, rv.Agree, rv.DisagreementCount, rv.Disagreements, rv.ConfidenceMismatches)
		}
	}
	if withEvents == 0 {
		t.Fatal("no bundled episode has location_penalty_applied")
	}
	t.Logf("%d episodes with %d location_penalty_applied events", withEvents, events)
}

// production drops ZorkGPT's test directories (test_*, test-*), which
// game_files/CLAUDE.md says to ignore, as batch does.
func production(eps []*episode.Episode) []*episode.Episode {
	var out []*episode.Episode
	for _, ep := range eps {
		dir := filepath.Base(filepath.Dir(ep.Source))
		if strings.HasPrefix(dir, "test_") || strings.HasPrefix(dir, "test-") || dir == "unknown" {
			continue
		}
		out = append(out, ep)
	}
	return out
}

// TestSummaryBundled pins the dataset summary of the 75 bundled episodes
// (the committed set is byte-reproducible, TestCommittedSetIsReproducible),
// checks its internal consistency, and that the order of episodes does not
// change it.
func TestSummaryBundled(t *testing.T) {
	eps := production(bundled(t))
	if len(eps) != 75 {
		t.Fatalf("%d production episodes, want 75", len(eps))
	}
	var as, rev []*Analysis
	for _, ep := range eps {
		as = append(as, Analyse(ep, DefaultOptions(), defaultPolicies...))
	}
	for i := len(as) - 1; i >= 0; i-- {
		rev = append(rev, as[i])
	}
	s := summarise(digests(as))
	if !reflect.DeepEqual(s, summarise(digests(rev))) {
		t.Error("the summary depends on the order of the episodes")
	}
	for _, r := range []Rate{s.Escape.WithWarnings, s.Escape.WithoutWarnings} {
		if r.N != r.Escaped+r.Stopped || r.Spells != r.N+r.EndOfLog || r.Rate == nil ||
			r.Rate.Low > r.Rate.Estimate || r.Rate.Estimate > r.Rate.High {
			t.Errorf("inconsistent rate %+v", r)
		}
	}
	if d := s.Escape.Difference; d == nil || d.Low > d.Estimate || d.Estimate > d.High {
		t.Errorf("difference %+v", d)
	}
	rv := s.Revisit
	if rv.Compared != 18 || rv.Agree != rv.LoggedEvents || rv.Disagreements != 0 {
		t.Errorf("revisit %+v", rv)
	}
	// The figures docs/patterns.md quotes.
	w, wo := s.Escape.WithWarnings, s.Escape.WithoutWarnings
	got := []int{w.Episodes, w.Escaped, w.N, wo.Episodes, wo.Escaped, wo.N, rv.LoggedEvents, rv.Penalised, rv.Turns}
	t.Logf("with warnings %d/%d %+v; without %d/%d %+v; difference %+v; revisit %+v",
		w.Escaped, w.N, *w.Rate, wo.Escaped, wo.N, *wo.Rate, *s.Escape.Difference, rv)
	if want := []int{18, 7, 25, 57, 51, 74, 1380, 6480, 8714}; !reflect.DeepEqual(got, want) {
		t.Errorf("pinned figures %v, want %v", got, want)
	}
}

// summarise is SummariseAll of ds.
func summarise(ds []Digest) Summary {
	ps := make([]*Digest, len(ds))
	for i := range ds {
		ps[i] = &ds[i]
	}
	return SummariseAll(ps)
}
