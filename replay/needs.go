package replay

import (
	"fmt"
	"iter"
	"slices"
	"strings"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/policy"
)

// The rule for a signal a log does not record (docs/sources.md, "Signals a
// policy needs"), for every command: a policy that needs it is not replayed on
// that log, and a setting that only reads it where the log records it (the
// supervisor's triggers: policy.Setting.Reads) is off on that log — never
// with the signal read as zero. Each is said once a policy, in the words of
// lackNote. episode leaves the policy out of that episode's results
// (Replayable, Unreplayable), batch leaves the episode out of the comparison
// (Comparable), sweep leaves the policy's configs out of the grid
// (Sweepable); settings off are replayed so, and said so.

// Lacking lists the signals p needs that ep's log does not record.
func Lacking(ep *episode.Episode, p policy.Policy) []episode.Signal {
	return ep.Have().Lacking(needs(p))
}

// needs are the signals p needs, the agent's steps among them unless its
// rule reads only the clock (policy.Kind.Clock).
func needs(p policy.Policy) episode.Signals {
	if k := p.Kind(); k != nil && k.Clock {
		return p.Needs()
	}
	return p.Needs().With(episode.Steps)
}

// lackNote says that policy needs signals some logs do not record, and what
// came of it: whose is "this log does" or "the logs of 3 episodes (tales)
// do"; fate "not replayed", "left out of the comparison", "min_critic is
// off".
func lackNote(policy string, lacking []episode.Signal, whose, fate string) string {
	names := make([]string, len(lacking))
	for i, s := range lacking {
		names[i] = s.String()
	}
	return fmt.Sprintf("%s needs %s, which %s not record: %s", policy, and(names), whose, fate)
}

// Replayable are the policies of policies that ep's log can replay, in
// order.
func Replayable(ep *episode.Episode, policies iter.Seq[policy.Policy]) iter.Seq[policy.Policy] {
	return func(yield func(policy.Policy) bool) {
		for p := range policies {
			if len(Lacking(ep, p)) == 0 && !yield(p) {
				return
			}
		}
	}
}

// Unreplayable are the notes on policies that ep's log cannot replay or
// replays with settings off: one a policy name, whatever its settings.
// policies is read twice.
func Unreplayable(ep *episode.Episode, policies iter.Seq[policy.Policy]) []string {
	var notes []string
	var named []policy.Name
	for p := range policies {
		if lacking := Lacking(ep, p); len(lacking) > 0 && !slices.Contains(named, p.Name) {
			named = append(named, p.Name)
			notes = append(notes, lackNote(string(p.Name), lacking, "this log does", "not replayed"))
		}
	}
	return append(notes, offNotes([]*episode.Episode{ep}, Replayable(ep, policies), func([]*episode.Episode) string { return "this log does" })...)
}

// whose names the logs of some episodes in a note: "the logs of 3
// episodes (tales) do", or for one, "the log of ID (tales) does".
func whose(eps []*episode.Episode) string {
	if len(eps) == 1 {
		return fmt.Sprintf("the log of %s (%s) does", eps[0].Name(), eps[0].Format)
	}
	var formats []string
	for _, ep := range eps {
		if !slices.Contains(formats, ep.Format) {
			formats = append(formats, ep.Format)
		}
	}
	slices.Sort(formats)
	return fmt.Sprintf("the logs of %d episodes (%s) do", len(eps), strings.Join(formats, ", "))
}

// Comparable are the episodes whose logs can replay every one of policies
// (a baseline and an after policy are compared over the same episodes), and
// a note for each policy that cannot be replayed on some, saying their fate.
func Comparable(eps []*episode.Episode, policies []policy.Policy, fate string) (kept []*episode.Episode, notes []string) {
	short := make([][]*episode.Episode, len(policies))
	for _, ep := range eps {
		ok := true
		for i, p := range policies {
			if len(Lacking(ep, p)) > 0 {
				ok = false
				short[i] = append(short[i], ep)
			}
		}
		if ok {
			kept = append(kept, ep)
		}
	}
	for i, lack := range short {
		if len(lack) > 0 {
			notes = append(notes, lackNote(policies[i].String(), lackingOf(lack, policies[i]), whose(lack), fate))
		}
	}
	return kept, append(notes, offNotes(kept, slices.Values(policies), whose)...)
}

// Sweepable are the configs of a grid that every episode's log can replay,
// in order (a sweep compares configs over the same episodes), and a note for
// each policy whose configs are left out.
func Sweepable(eps []*episode.Episode, configs []policy.Policy) ([]policy.Policy, []string) {
	short := map[episode.Signals][]*episode.Episode{} // by what a config needs: the episodes that lack it
	var kept []policy.Policy
	var notes []string
	var named []policy.Name
	for _, p := range configs {
		need := needs(p)
		lack, seen := short[need]
		if !seen {
			for _, ep := range eps {
				if len(ep.Have().Lacking(need)) > 0 {
					lack = append(lack, ep)
				}
			}
			short[need] = lack
		}
		switch {
		case len(lack) == 0:
			kept = append(kept, p)
		case !slices.Contains(named, p.Name):
			named = append(named, p.Name)
			notes = append(notes, lackNote(string(p.Name), lackingOf(lack, p), whose(lack), "its configs are left out of the grid"))
		}
	}
	return kept, append(notes, offNotes(eps, slices.Values(kept), whose)...)
}

// offNotes say, once a policy, which settings of policies are off on the
// logs of eps that lack the signal they read (policy.Policy.Off), naming
// those logs with whose.
func offNotes(eps []*episode.Episode, policies iter.Seq[policy.Policy], whose func([]*episode.Episode) string) []string {
	type off struct {
		keys []string
		lack episode.Signals
		eps  []*episode.Episode
	}
	var names []policy.Name
	by := map[policy.Name]*off{}
	tried := map[string]bool{}      // a name and the settings it has on that read a signal
	reads := map[policy.Name]bool{} // whether a name has a setting that reads a signal
	for p := range policies {
		r, seen := reads[p.Name]
		if !seen {
			r = p.Kind() != nil && slices.ContainsFunc(p.Kind().Settings, func(s *policy.Setting) bool { return s.Reads != 0 })
			reads[p.Name] = r
		}
		if !r {
			continue // quick, for a grid of a million configs
		}
		on, _ := p.Off(0)
		if len(on) == 0 || tried[string(p.Name)+" "+strings.Join(on, " ")] {
			continue
		}
		tried[string(p.Name)+" "+strings.Join(on, " ")] = true
		for _, ep := range eps {
			keys, lack := p.Off(ep.Signals)
			if len(keys) == 0 {
				continue
			}
			o := by[p.Name]
			if o == nil {
				o = &off{}
				by[p.Name] = o
				names = append(names, p.Name)
			}
			for _, k := range keys {
				if !slices.Contains(o.keys, k) {
					o.keys = append(o.keys, k)
				}
			}
			o.lack = o.lack.With(lack...)
			if !slices.Contains(o.eps, ep) {
				o.eps = append(o.eps, ep)
			}
		}
	}
	var notes []string
	for _, n := range names {
		o := by[n]
		verb := " is off"
		if len(o.keys) > 1 {
			verb = " are off"
		}
		notes = append(notes, lackNote(string(n), o.lack.List(), whose(o.eps), and(o.keys)+verb))
	}
	return notes
}

// and joins words as a sentence lists them: "a", "a and b", "a, b and c".
func and(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// lackingOf is every signal p needs that one of eps lacks.
func lackingOf(eps []*episode.Episode, p policy.Policy) []episode.Signal {
	var all episode.Signals
	for _, ep := range eps {
		all = all.With(Lacking(ep, p)...)
	}
	return all.List()
}
