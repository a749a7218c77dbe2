package dataset

import (
	"fmt"
	"strings"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/replay"
)

// Readme is the set's README.md: how to make it again, what it is made of
// and every episode, all computed from the logs as written.
func (set *Set) Readme() string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	cmd := fmt.Sprintf("go run ./cmd/lbanalyze synth --seed %d --out testdata/episodes", set.Seed)
	if set.episodes() != Size {
		cmd = fmt.Sprintf("go run ./cmd/lbanalyze synth --seed %d --episodes %d --out DIR", set.Seed, set.episodes())
	}
	if set.Large {
		cmd = fmt.Sprintf("go run ./cmd/lbanalyze synth --seed %d --episodes %d --large --out DIR", set.Seed, set.episodes())
	}
	p("# Synthetic ZorkGPT episodes\n\n")
	p("%d episodes of an LLM agent playing Zork I, written line for line as ZorkGPT writes its `episode_log.jsonl`\n", len(set.Episodes))
	p("(era E3c: Jericho, room ids; see `docs/log-format.md`), in ZorkGPT's layout `<id>/episode_log.jsonl`.\n")
	p("The directory is the episode id with `:` replaced by `-` (Go module zips reject `:`); the id inside the log keeps its colons.\n")
	p("No public set of real episodes exists: these are generated, deterministically. **Do not edit: regenerate**, byte for byte, with\n\n")
	p("    %s\n\n", cmd)
	if set.episodes() == Size && !set.Large {
		p("(`make testdata` removes the directory first). A test (`internal/synth/dataset`) checks that regeneration gives these very bytes,\n")
		p("and that the make-up below holds. The generator is `internal/synth` (the agent model: `model.go`, `world.go`, `text.go`; the\n")
		p("writer: `plan.go`) and `internal/synth/dataset` (this set: the kinds of episode in `kinds.go`).\n\n")
	}
	p("Total size: %.1f MB (%d bytes) in %d files.\n\n", float64(set.Bytes)/1e6, set.Bytes, len(set.Episodes)+len(set.Tests)+1)

	set.model(p)
	set.kinds(p)
	set.makeup(p)
	set.quirks(p)
	set.table(p)
	return b.String()
}

type printer func(format string, args ...any)

func (set *Set) model(p printer) {
	p("## The model\n\n")
	p("The agent follows Zork I's walkthrough with an LLM's detours (examining things, looking, side trips, wrong exits, the\n")
	p("obvious wrong idea first) and scores Zork I's points: first entry to the Kitchen +10, the Cellar +25, the East-West Passage +5,\n")
	p("the Treasure Room +25; treasures when taken and again in the trophy case (egg 5+5, platinum bar 10+5, painting 4+6, trunk\n")
	p("15+5, …); a death costs 10 and, as in ZorkGPT, ends the episode (`game_over_detected`, reason `Player death`). Rooms carry\n")
	p("illustrative Jericho ids (West of House 180, North of House 81, Behind House 79, Kitchen 191, Living Room 193, Cellar 194 …;\n")
	p("the four Maze rooms share a name, not an id). A stuck spell is the agent stuck on the puzzle of its next step (the window,\n")
	p("the trap door, the troll, the Loud Room, the dam's bolt, the chimney, the cyclops …) for 20–250 turns, oscillating between\n")
	p("that room and a neighbour or camping in it; `state_loop_detected` fires now and then. Objectives are discovered every\n")
	p("`objective_update_interval` turns (25 before 2025-11-07, 15 after: ZorkGPT's `0363529`) and completed when the agent does what\n")
	p("they say: several per 100 turns while it progresses, none or few while it is stuck (unless its kind says otherwise).\n")
	p("Reasoning texts are a few hundred bytes, sometimes a few KB, with `→` and emoji (escaped by `ensure_ascii`); before\n")
	p("2025-11-08 (`a929dc2` capped the agent's output) a reasoning model runs away now and then, 50–200 KB in one line.\n")
	p("Turns take 20–60 s plus the time to write long reasoning. Episodes from before 2025-11-03 ran with `--max-turns 500`.\n\n")
	p("Fingerprints follow each recording's date (the code of that day): `room_description_captured` from 2025-11-04 (`994088f`),\n")
	p("`turn_exception.error_type` from 2025-10-28 (`582fc52`), `objectives_updated.reasoning` from 2025-11-06 (`0c42702`),\n")
	p("`turn_1_objective_generation_skipped` from 2025-11-07 (`7014b2f`), loop-break events only in recordings that ran a loop\n")
	p("break (v1 `09a7cc2` from 2025-11-05, v2 HEAD from 2025-11-10, the only ones with `critic_enabled`), whose events are replayed\n")
	p("by lbanalyze's own policy code so they are exact.\n\n")
}

func (set *Set) kinds(p printer) {
	p("## Kinds of episode\n\n")
	p("Each episode is drawn as a kind, and drawn again from its own random stream until its log, read back, has the kind's outcome\n")
	p("under `score` and `score-or-objective` at 40/10 (so the make-up holds for any seed).\n\n")
	p("Why this mix: 75 episodes as in ZorkGPT's own validation set; most recorded with no loop break (they cover the 18 days\n")
	p("of Jericho-era code before `09a7cc2`, and every policy replays them exactly), the rest cut by the two shipped loop breaks\n")
	p("in the days each ran. Most episodes end in a death, as ZorkGPT's do (the first death ends a run). About half hold a stuck\n")
	p("spell long enough to be stopped, as the episode that motivated the loop break did (235 turns stuck at 40 points); among\n")
	p("those, enough end in a late gain or hold objective progress that every outcome of docs/semantics.md §6.2 occurs several\n")
	p("times, and score-or-objective has both episodes to rescue and episodes it must still stop. Lengths are kept to a mean of\n")
	p("about 115 turns so that the set stays under 25 MB.\n\n")
	p("| kind | episodes | recorded loop break | what it is |\n|---|---:|---|---|\n")
	for _, k := range Kinds {
		n := 0
		for _, s := range set.Episodes {
			if s.Kind == k {
				n++
			}
		}
		p("| %s | %d | %s | %s |\n", k.Name, n, recording(k.Recording), k.About)
	}
	p("\n")
}

func recording(r string) string {
	switch r {
	case "v1":
		return "v1, score-only (09a7cc2)"
	case "v2":
		return "v2, score-or-objective (HEAD)"
	}
	return "none"
}

// counts of the make-up.
type counts struct {
	ends                                              map[episode.EndReason]int
	recorded                                          map[string]int
	turns, minTurns, maxTurns                         int
	objectives, updates, spells, longest              int
	s, o                                              tally // under score, score-or-objective
	sGain, sObj, sBoth                                int   // score's candidates by their evidence
	rescuedNoStop, rescuedLater, stillSame, stillLate int
}

// tally counts one policy's outcomes by what they are.
type tally struct{ term, cand, stuck, unknown, censored int }

func (v *tally) add(o replay.Outcome) {
	if o.Terminated() {
		v.term++
	}
	if o.FalseTerminationCandidate() {
		v.cand++
	}
	if o.TrulyStuck() {
		v.stuck++
	}
	if o.Unknown() {
		v.unknown++
	}
	if o.Censored {
		v.censored++
	}
}

func (set *Set) count() counts {
	c := counts{ends: map[episode.EndReason]int{}, recorded: map[string]int{}, minTurns: 1 << 30}
	for _, s := range set.Episodes {
		n := s.Ep.N()
		c.ends[s.Ep.End.Reason]++
		c.recorded[s.Kind.Recording]++
		c.turns += n
		c.minTurns, c.maxTurns = min(c.minTurns, n), max(c.maxTurns, n)
		c.objectives += len(s.Ep.Objectives)
		c.updates += s.Ep.ObjectiveUpdates
		c.spells += len(s.Spells)
		for _, sp := range s.Spells {
			c.longest = max(c.longest, sp.End-sp.Start+1)
		}
		c.s.add(s.S)
		c.o.add(s.O)
		if s.S.FalseTerminationCandidate() {
			switch {
			case s.S.LaterScoreGain() && s.S.ObjectiveProgress():
				c.sBoth++
			case s.S.LaterScoreGain():
				c.sGain++
			default:
				c.sObj++
			}
			switch {
			case !s.O.Terminated():
				c.rescuedNoStop++
			case !s.O.FalseTerminationCandidate() && s.O.TerminationTurn > s.S.TerminationTurn:
				c.rescuedLater++
			case s.O.TerminationTurn == s.S.TerminationTurn:
				c.stillSame++
			default:
				c.stillLate++
			}
		}
	}
	return c
}

func (set *Set) makeup(p printer) {
	c := set.count()
	n := len(set.Episodes)
	p("## Make-up\n\n")
	p("| | episodes |\n|---|---:|\n")
	p("| recorded with no loop break (every policy replays them exactly) | %d |\n", c.recorded[""])
	p("| cut by a recorded v1 loop break (score-only, 2025-11-05 … 11-09) | %d |\n", c.recorded["v1"])
	p("| cut by a recorded v2 loop break (score-or-objective, 2025-11-10 on) | %d |\n", c.recorded["v2"])
	for _, r := range []episode.EndReason{episode.EndGameOver, episode.EndMaxTurns, episode.EndStuckTermination, episode.EndNone} {
		p("| ends with %s | %d |\n", endName(r), c.ends[r])
	}
	p("\nLengths: %d to %d turns, %d in all (mean %.0f). Objectives: %d completions, %d `objectives_updated`.\n",
		c.minTurns, c.maxTurns, c.turns, float64(c.turns)/float64(n), c.objectives, c.updates)
	p("Stuck spells: %d, the longest %d turns.\n\n", c.spells, c.longest)
	p("What the two shipped policies do at 40/10 (`lbanalyze episode`, docs/semantics.md §6.2):\n\n")
	p("| | score | score-or-objective |\n|---|---:|---:|\n")
	p("| terminated | %d | %d |\n", c.s.term, c.o.term)
	p("| false-termination candidates | %d | %d |\n", c.s.cand, c.o.cand)
	p("| … by a later score gain only | %d | |\n", c.sGain)
	p("| … by objective progress only | %d | |\n", c.sObj)
	p("| … by both | %d | |\n", c.sBoth)
	p("| truly stuck | %d | %d |\n", c.s.stuck, c.o.stuck)
	p("| unknown (a stop on a cut log: no follow-up to judge it by) | %d | %d |\n", c.s.unknown, c.o.unknown)
	p("| not terminated | %d | %d |\n", n-c.s.term, n-c.o.term)
	p("| censored (the log is cut, by the recording's own stop or the kill, before the policy would stop) | %d | %d |\n\n", c.s.censored, c.o.censored)
	p("Of the %d candidates under score, score-or-objective does not stop %d (%d of them censored: the v1 recording cut\n", c.s.cand, c.rescuedNoStop, c.o.censored-c.s.censored)
	p("them), stops %d later and without the candidate evidence, and still stops %d at the same turn and %d later with the evidence.\n\n",
		c.rescuedLater, c.stillSame, c.stillLate)
}

func endName(r episode.EndReason) string {
	switch r {
	case episode.EndGameOver:
		return "a death (`episode_completed` game_over)"
	case episode.EndMaxTurns:
		return "max_turns 500"
	case episode.EndStuckTermination:
		return "the recording's `stuck_termination`"
	case episode.EndNone:
		return "no end event (the run was killed)"
	}
	return string(r)
}

func (set *Set) quirks(p printer) {
	p("## Deliberate bad lines and quirks\n\n")
	var killed []string
	long, longest, nan, exc, task := 0, 0, 0, 0, 0
	for _, s := range set.Episodes {
		if s.Ep.End.Reason == episode.EndNone {
			killed = append(killed, fmt.Sprintf("`%s` (%d skipped line)", s.Dir(), s.Ep.SkippedLines))
		}
		long += s.LongLines
		longest = max(longest, s.LongestLine)
		nan += s.NaNTurns
		exc += s.Ep.ExceptionTurns
		if s.TaskName {
			task++
		}
	}
	p("- The only bad line: the run of %s was killed while it wrote a `final_action_selection`, so its log ends\n", strings.Join(killed, ", "))
	p("  with two thirds of that line and no newline. Every other episode reads with no skipped line.\n")
	p("- %d turns end in `turn_exception` (no `turn_completed`; the score is carried forward).\n", exc)
	p("- %d turns have critic scores `NaN` (bare `NaN` tokens in `final_action_selection` and `turn_completed`).\n", nan)
	p("- %d lines are 50 KB or longer (a reasoning model's runaway); the longest is %d bytes.\n", long, longest)
	p("- %d episodes were run under Python 3.12 and have `\"taskName\": null` on every line.\n", task)
	p("- `test_*`, `test-*` and `unknown` hold %s: what ZorkGPT's `game_files/episodes` holds beside real episodes\n", strings.Join(quote(set.Tests), ", "))
	p("  (its own test runs; the lines without an episode id that its migration script left in `unknown`). Tools skip them.\n\n")
}

func quote(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = "`" + s + "`"
	}
	return out
}

func (set *Set) table(p printer) {
	p("## Episodes\n\n")
	p("Score and score-or-objective at 40/10: the stop turn and why it may be premature (`+5@96`: the run gained 5 points by turn 96;\n")
	p("`obj@54`: an objective completed at 54 within the last 40 turns); `stuck` is a truly stuck stop; `unknown` a stop on a log\n")
	p("cut too soon after it to judge (docs/semantics.md §6.2); `—` no stop; `censored` no stop within a cut log.\n\n")
	p("| directory | kind | py | turns | end | score | objectives (done / updates) | stuck spells | score | score-or-objective |\n")
	p("|---|---|---|---:|---|---:|---|---|---|---|\n")
	for _, s := range set.Episodes {
		py := "3.11"
		if s.TaskName {
			py = "3.12"
		}
		p("| `%s` | %s | %s | %d | %s | %s | %d / %d | %s | %s | %s |\n", s.Dir(), s.Kind.Name, py, s.Ep.N(), s.Ep.End.Reason,
			s.Ep.FinalScore(), len(s.Ep.Objectives), s.Ep.ObjectiveUpdates, spells(s), verdict(s.S), verdict(s.O))
	}
}

func spells(s Summary) string {
	if len(s.Spells) == 0 {
		return "—"
	}
	var parts []string
	for _, sp := range s.Spells {
		how := "oscillating " + sp.Rooms
		if sp.Camp {
			how = "camping in " + sp.Rooms
		}
		part := fmt.Sprintf("%d–%d %s, %s", sp.Start, sp.End, how, sp.Ending)
		if sp.Objectives > 0 {
			part += fmt.Sprintf(", %d obj", sp.Objectives)
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, "; ")
}

func verdict(o replay.Outcome) string {
	switch {
	case o.Censored:
		return "censored"
	case !o.Terminated():
		return "—"
	case o.TrulyStuck():
		return fmt.Sprintf("%d stuck", o.TerminationTurn)
	case o.Unknown():
		return fmt.Sprintf("%d unknown", o.TerminationTurn)
	}
	var why []string
	if g := o.LaterGain; g != nil {
		why = append(why, fmt.Sprintf("+%s@%d", g.Points, g.Turn))
	}
	for _, c := range o.WindowObjectives {
		why = append(why, fmt.Sprintf("obj@%d", c.Turn))
	}
	return fmt.Sprintf("%d %s", o.TerminationTurn, strings.Join(why, " "))
}
