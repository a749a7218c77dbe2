package group

import (
	"slices"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/system"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in, name, member, err string
	}{
		{in: "system", name: "system"},
		{in: "dir:1", name: "dir:1"},
		{in: " dir:12 ", name: "dir:12"},
		{in: "run", name: "run", member: "run"},
		{in: "info.model", name: "info.model", member: "info.model"},
		{in: "", err: "an empty key"},
		{in: "dir:0", err: "N from 1"},
		{in: "dir:x", err: "N from 1"},
		{in: "run,game", err: "give one key"},
	} {
		k, err := Parse(c.in)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%q: error %v, want one saying %q", c.in, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("%q: %v", c.in, err)
		case c.err == "" && (k.Name != c.name || k.Member() != c.member):
			t.Errorf("%q: name %q, member %q; want %q, %q", c.in, k.Name, k.Member(), c.name, c.member)
		}
	}
}

func ep(id, format, source string, facts ...string) *episode.Episode {
	e := &episode.Episode{ID: id, Format: format, Source: source}
	for i := 0; i+1 < len(facts); i += 2 {
		e.Facts = append(e.Facts, episode.Fact{Key: facts[i], Value: &facts[i+1]})
	}
	return e
}

// summary is each group's name and its episodes' ids.
func summary(groups []Group) []string {
	var out []string
	for _, g := range groups {
		var ids []string
		for _, e := range g.Episodes {
			ids = append(ids, e.ID)
		}
		out = append(out, g.Name+": "+strings.Join(ids, " "))
	}
	return out
}

func TestSplit(t *testing.T) {
	below := map[string]string{
		"logs/sub1/tw/coin/run_00.jsonl": "sub1/tw/coin/run_00.jsonl",
		"logs/sub2/tw/coin/run_00.jsonl": "sub2/tw/coin/run_00.jsonl",
		"logs/sub1/tw/coin/run_01.jsonl": "sub1/tw/coin/run_01.jsonl",
		"logs/top.jsonl":                 "top.jsonl",
	}
	eps := []*episode.Episode{
		ep("sub2 run 0", "jsonl", "logs/sub2/tw/coin/run_00.jsonl"),
		ep("z1", "zorkgpt", "z/episode_log.jsonl", "era", "E3c"),
		ep("sub1 run 0", "jsonl", "logs/sub1/tw/coin/run_00.jsonl"),
		ep("top", "jsonl", "logs/top.jsonl"),
		ep("tales", "tales", "t/run/game/a0_s1.jsonl", "run", "tw-bench_x", "game", "Zork1"),
		ep("sub1 run 1", "jsonl", "logs/sub1/tw/coin/run_01.jsonl"),
		ep("z2", "zorkgpt", "z2/episode_log.jsonl", "era", "E3a"),
	}
	by := func(s string) *Key {
		k, err := Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return &k
	}
	for _, c := range []struct {
		key  *Key
		want []string
	}{
		// Always by system, in the registry's order, the episodes in the
		// order given.
		{nil, []string{"ZorkGPT: z1 z2", "your harness: sub2 run 0 sub1 run 0 top tales sub1 run 1"}},
		{by("system"), []string{"ZorkGPT: z1 z2", "your harness: sub2 run 0 sub1 run 0 top tales sub1 run 1"}},
		// The first directory below the one given; a log at the top, and
		// episodes not found under a directory, have none: last.
		{by("dir:1"), []string{"ZorkGPT: (none): z1 z2", "your harness: sub1: sub1 run 0 sub1 run 1", "your harness: sub2: sub2 run 0",
			"your harness: (none): top tales"}},
		{by("dir:3"), []string{"ZorkGPT: (none): z1 z2", "your harness: coin: sub2 run 0 sub1 run 0 sub1 run 1", "your harness: (none): top tales"}},
		{by("dir:4"), []string{"ZorkGPT: (none): z1 z2", "your harness: (none): sub2 run 0 sub1 run 0 top tales sub1 run 1"}},
		// A fact.
		{by("era"), []string{"ZorkGPT: E3a: z2", "ZorkGPT: E3c: z1", "your harness: (none): sub2 run 0 sub1 run 0 top tales sub1 run 1"}},
	} {
		got := summary(Split(eps, c.key, func(s string) string { return below[s] }))
		if !slices.Equal(got, c.want) {
			t.Errorf("by %v:\n%q\nwant\n%q", c.key, got, c.want)
		}
	}
	// One system: a group is named by its value alone.
	harness := slices.DeleteFunc(slices.Clone(eps), func(e *episode.Episode) bool { return system.Of(e) != system.Harness })
	got := summary(Split(harness, by("game"), func(string) string { return "" }))
	if want := []string{"Zork1: tales", "(none): sub2 run 0 sub1 run 0 top sub1 run 1"}; !slices.Equal(got, want) {
		t.Errorf("by game: %q, want %q", got, want)
	}
	if n := Systems(Split(eps, nil, nil)); n != 2 {
		t.Errorf("%d systems, want 2", n)
	}
}

// A value spelled as none's name, "(none)", is a group of its own, named
// quoted, "\"(none)\"", so as not to read as none's; a key no episode has is an
// error naming the keys they have, sorted after system and dir:N (issue 38,
// item 7).
func TestNoneAndUnseen(t *testing.T) {
	eps := []*episode.Episode{ep("a", "balrog", "a.csv", "model", "(none)"), ep("b", "balrog", "b.csv"), ep("c", "balrog", "c.csv", "model", "m", "env", "textworld")}
	key, _ := Parse("model")
	got := summary(Split(eps, &key, nil))
	if want := []string{`"(none)": a`, "m: c", "(none): b"}; !slices.Equal(got, want) {
		t.Errorf("groups %q, want %q", got, want)
	}
	if err := Unseen(eps, &key, nil); err != nil {
		t.Errorf("model: %v", err)
	}
	key, _ = Parse("modle")
	want := "no episode has modle: the keys they have are system, dir:N, env, model, or a member of their steps (a column of a table)"
	if err := Unseen(eps, &key, nil); err == nil || err.Error() != want {
		t.Errorf("modle: %v, want %q", err, want)
	}
	key, _ = Parse("dir:3")
	if err := Unseen(eps, &key, func(string) string { return "x/y.csv" }); err == nil || !strings.HasPrefix(err.Error(), "no episode has dir:3: ") {
		t.Errorf("dir:3: %v", err)
	}
}
