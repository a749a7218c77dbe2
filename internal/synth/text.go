package synth

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// mind writes the agent's reasoning for one turn in the voice of the LLMs
// ZorkGPT ran: a few sentences on where it is, what the last command gave,
// the objective in view and the plan; now and then a step-by-step analysis
// of a few KB, and, with a reasoning model, a runaway of 50–200 KB. It uses
// → and an emoji now and then, as the models do (ensure_ascii escapes them).
type mind struct {
	rng     *rand.Rand
	d       *draft
	prev    *draft
	warning int      // turns left in the countdown warning, noWarning for none
	open    []string // the objectives the agent was last given
	huge    int      // the length of a runaway, 0 for none
	gained  bool     // the previous turn raised the score
	b       strings.Builder
}

func (m *mind) say(format string, args ...any) { m.put(fmt.Sprintf(format, args...)) }

// put adds a sentence.
func (m *mind) put(sentence string) {
	if m.b.Len() > 0 {
		m.b.WriteByte(' ')
	}
	m.b.WriteString(sentence)
}

func (m *mind) one(options ...string) string { return options[m.rng.IntN(len(options))] }

func (m *mind) reasoning() string {
	d := m.d
	room := d.To.Name
	if m.prev != nil {
		room = m.prev.To.Name
	}
	m.observe(room)
	if m.prev != nil && m.prev.Response != "" && m.rng.IntN(3) > 0 {
		m.recall()
	}
	if o := m.objective(); o != "" && m.rng.IntN(2) == 0 {
		m.say(m.one("My current objective is to %s.", "Objective in focus: %s.", "Working toward: %s.", "The objective list says: %s."), lowerFirst(o))
	}
	m.plan(room)
	m.thoughts(room, m.rng.IntN(3))
	switch {
	case m.warning == noWarning:
	case m.warning <= 0:
		m.put(m.one("\u26a0\ufe0f The stuck warning says I am out of turns: the episode can be stopped at the next check.",
			"No turns left on the stuck countdown. Anything that scores, now."))
	default:
		m.say(m.one("\u26a0\ufe0f The system warns that the episode ends in %d turns without progress, so I need something new.",
			"Stuck warning: %d turns left before termination. Repeating myself will not help.",
			"I have been warned: %d turns left to make progress. Time to change approach."), m.warning)
	}
	if m.rng.IntN(12) == 0 {
		m.analysis(room)
	}
	m.say(m.one("Action: %s", "Decision: %s.", "Going with '%s'.", "\u2192 %s", "Next command: %s"), d.Action)
	if m.rng.IntN(14) == 0 {
		m.put(m.one("\U0001F914", "\u2705", "\U0001F5FA\ufe0f", "\U0001F526"))
	}
	if m.huge > 0 {
		m.runaway(room)
	}
	return m.b.String()
}

func (m *mind) observe(room string) {
	if m.prev != nil && m.prev.why.spell && m.d.stuckFor > 15 {
		m.say(m.one("Still in %s.", "I'm still at %s.", "Back in %s again."), the(room))
		return
	}
	m.say(m.one("I'm in %[1]s.", "Current location: %[2]s.", "We're at %[1]s now.", "Okay, %[2]s."), the(room), room)
}

// the is a room's name as a sentence uses it: "the Kitchen", but "West of
// House", "Behind House", "Up a Tree", "The Troll Room".
func the(room string) string {
	if strings.HasPrefix(room, "The ") || strings.HasPrefix(room, "Up ") || strings.HasPrefix(room, "Behind ") || strings.Contains(room, " of ") {
		return room
	}
	return "the " + room
}

func (m *mind) recall() {
	p := m.prev
	first, _, _ := strings.Cut(p.Response, "\n")
	if len(first) > 90 {
		first = first[:strings.LastIndexByte(first[:90], ' ')] + "\u2026"
	}
	switch {
	case p.why.kind == attempting || p.why.kind == oscillating:
		m.say(m.one("'%s' got \"%s\" \u2014 no progress.", "That didn't work: '%s' only gave \"%s\".", "The last try ('%s') returned \"%s\"."), p.Action, first)
	case m.gained:
		m.say(m.one("'%s' worked and the score went up to %d.", "Good \u2014 '%s' scored; we're at %d points."), p.Action, p.Score)
	default:
		m.say(m.one("The last command ('%s') gave: \"%s\".", "'%s' \u2192 \"%s\"."), p.Action, first)
	}
}

// objective is the open objective that fits the turn best.
func (m *mind) objective() string {
	if m.d.why.kind == pursuing {
		return m.d.why.target
	}
	if len(m.open) == 0 {
		return ""
	}
	for _, o := range m.open {
		if o == m.d.why.target {
			return o
		}
	}
	return m.open[m.rng.IntN(len(m.open))]
}

func (m *mind) plan(room string) {
	d := m.d
	w := d.why
	switch w.kind {
	case walking:
		m.say(m.one("To reach %[1]s I should go %[2]s.", "Route: %[2]s, then on toward %[1]s.", "Heading %[2]s toward %[1]s."),
			the(w.target), w.dir)
	case acting:
		if isDirection(d.Action) {
			m.say(m.one("Going %s from here is the way forward.", "Now %s, through the way I just opened."), d.Action)
		} else {
			m.say(m.one("The next step here is to %s.", "'%s' should move things forward.", "Now: %s. This is part of the plan."), d.Action)
		}
		if d.Score > m.prevScore() {
			m.put(m.one("This should be worth points.", "If I remember Zork correctly, this scores."))
		}
	case detouring:
		if isDirection(d.Action) {
			m.say(m.one("Let me check whether there is an exit %s.", "Maybe there is a way %s that I missed."), d.Action)
			break
		}
		m.say(m.one("Before moving on, let me %s \u2014 there might be something useful.", "Quick check first: %s.", "I'll %s to get my bearings."), d.Action)
	case attempting:
		if !w.spell {
			m.say(m.one("The obvious thing first: '%s'.", "Let me try '%s' before anything else.", "'%s' seems the natural move here."), d.Action)
			break
		}
		if d.stuckFor > 10 {
			m.say(m.one("I've been stuck around here for about %d turns.", "No score change in %d turns now.", "%d turns without progress \u2014 this puzzle is blocking me."), d.stuckFor)
		}
		m.say(m.one("Let me try '%s' this time.", "Maybe '%s' works where the other attempts failed.", "Perhaps a different verb: %s.", "One more idea: %s."), d.Action)
	case oscillating:
		m.say(m.one("Nothing new here; going back %s to check %s again.", "Let me return %s to %s and look for something I missed.", "I'll go %s to %s; maybe the solution is there."), w.dir, the(w.target))
	case pursuing:
		m.say(m.one("'%s' should complete the objective.", "Doing '%s' addresses the current objective directly."), d.Action)
	case dying:
		switch d.Action {
		case "turn off lantern":
			m.put("The lantern's battery must be running low; I'll turn it off to save power and feel my way.")
		case "jump", "swim":
			m.put(m.one("Maybe this is a shortcut down.", "This looks risky, but it could be the way forward."))
		default:
			m.put(m.one("I'll keep moving in the dark; the passage was clear a moment ago.", "Fortune favors the bold \u2014 attack."))
		}
	case failing:
		m.put(m.one("Let me re-check the situation.", "A simple command to re-orient."))
	}
}

func (m *mind) prevScore() int {
	if m.prev == nil {
		return 0
	}
	return m.prev.Score
}

// analysis is the step-by-step part that makes a reasoning a few KB long.
func (m *mind) analysis(room string) {
	m.b.WriteString("\n\nLet me think step by step:\n")
	for i, k := range m.rng.Perm(len(thoughts))[:3+m.rng.IntN(4)] {
		fmt.Fprintf(&m.b, "%d. %s\n", i+1, thoughts[k](m, room))
	}
	m.b.WriteString("\nOptions:\n")
	for i := 0; i < 2+m.rng.IntN(3); i++ {
		fmt.Fprintf(&m.b, "- %s\n", m.option(room))
	}
	m.b.WriteString("\n" + m.one("Weighing these, the safest choice is the command below.", "The first option has the best expected value.", "I'll go with what costs the fewest turns."))
}

// thoughts are the remarks a reasoning is padded with.
var thoughts = []func(m *mind, room string) string{
	func(m *mind, room string) string {
		return fmt.Sprintf("%s has exits I haven't fully mapped; the map shows unexplored directions.", upperFirst(the(room)))
	},
	func(m *mind, _ string) string {
		return fmt.Sprintf("Score is %d. Treasures go in the trophy case for the full points.", m.d.Score)
	},
	func(*mind, string) string {
		return "The lantern is my only light source underground, and a grue attacks in the dark."
	},
	func(m *mind, _ string) string {
		if m.d.stuckFor > 0 {
			return fmt.Sprintf("It has been %d turns since the score last changed.", m.d.stuckFor)
		}
		return "The last turn changed the score, so the current approach works."
	},
	func(m *mind, _ string) string {
		return fmt.Sprintf("The parser is strict: '%s' is simple enough that it should be understood.", m.d.Action)
	},
	func(m *mind, _ string) string {
		if len(m.d.inv) > 0 {
			return "I'm carrying " + strings.Join(m.d.inv, ", ") + "."
		}
		return "My hands are empty, so nothing to drop or use yet."
	},
	func(*mind, string) string {
		return "The critic tends to reject repeated actions, so I should not loop on the same command."
	},
	func(m *mind, room string) string {
		return fmt.Sprintf("I should remember what %s looked like; the room description mentions the exits.", the(room))
	},
	func(*mind, string) string {
		return "Zork rewards careful reading of every response, including the short ones."
	},
	func(*mind, string) string {
		return "Repeating a failed command verbatim never helps in Zork; vary the verb or the object."
	},
}

// thoughts adds n different remarks.
func (m *mind) thoughts(room string, n int) {
	for _, k := range m.rng.Perm(len(thoughts))[:n] {
		m.put(thoughts[k](m, room))
	}
}

// thought is one remark.
func (m *mind) thought(room string) string { return thoughts[m.rng.IntN(len(thoughts))](m, room) }

func (m *mind) option(room string) string {
	return m.one(
		"'"+m.d.Action+"' \u2014 direct, low risk.",
		"Go back the way I came and approach from another side.",
		"Examine everything in "+the(room)+" again for a detail I missed.",
		"Check the inventory for an item that fits this puzzle.",
		"Read any text found so far (leaflet, guidebook) for hints.")
}

// runaway is a reasoning model that does not stop: paragraph after
// paragraph of reconsidering, to m.huge bytes.
func (m *mind) runaway(room string) {
	m.b.Grow(m.huge + 512)
	m.b.WriteString("\n\n<think>\n")
	for i := 1; m.b.Len() < m.huge; i++ {
		fmt.Fprintf(&m.b, "%s %s %s %s\n\n",
			m.one("Wait, let me reconsider.", "Hmm, actually,", "Hold on.", "But then again,", "Let me re-read the last response."),
			m.thought(room), m.option(room),
			m.one(fmt.Sprintf("(pass %d over the same options)", i), "That brings me back to the same place.", "So maybe not.", "\u2026 or is it?"))
	}
	m.b.WriteString("</think>\nFinal answer: " + m.d.Action)
}

func isDirection(action string) bool { return slices.Contains(directions, action) }

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// deliberations are the sentences of Deliberation, with the length of each
// as json.dumps writes it.
var deliberations = func() []struct {
	text string
	size int
} {
	texts := []string{
		"Wait, let me reconsider the whole situation from the start.",
		"The room description lists the exits, but some of them may be blocked by things the parser does not mention.",
		"If I go back the way I came, I lose a turn but gain certainty about the map \u2192 that might be worth it.",
		"Hmm, actually, the critic rejected a similar action earlier, so it may reject this one as well.",
		"Let me recount the treasures: the egg, the painting, the platinum bar. Each is worth more in the trophy case.",
		"But then again, the lantern has limited battery; every turn underground costs light.",
		"I keep coming back to the same two options, which suggests I am missing a third one.",
		"In classic Zork, puzzles usually need an item found elsewhere; maybe I have not found it yet.",
		"So maybe not. Let me think about the verbs the parser knows: take, drop, open, close, push, pull, turn, tie, climb, wave.",
		"The objective list is a guide, not a guarantee; an objective can be impossible right now.",
		"\u2026 or is it? Let me re-read the last response word by word.",
		"There is a risk of a loop here: same room, same command, same answer. Varying the approach is essential.",
		"Thinking about the map again: north leads back, east is unexplored, and down needs a light.",
		"\U0001F914 One more consideration: the thief may have moved things around since I was last here.",
	}
	out := make([]struct {
		text string
		size int
	}, len(texts))
	for i, t := range texts {
		out[i].text = t
		out[i].size = len(appendPyString(nil, t)) - 2 + len(`\n\n`) // without its quotes, with the blank line after it
	}
	return out
}()

// Deliberation is about n bytes (as the log writes them) of a reasoning
// model's deliberation: what makes the large benchmark episodes large.
func Deliberation(r *rand.Rand, n int) string {
	var b strings.Builder
	b.Grow(n + 256)
	b.WriteString("\n\n")
	for size := len(`\n\n`); size < n; {
		d := deliberations[r.IntN(len(deliberations))]
		b.WriteString(d.text)
		b.WriteString("\n\n")
		size += d.size
	}
	return b.String()
}
