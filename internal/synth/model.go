package synth

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/policy"
)

// The agent model: an LLM agent playing Zork I, phase by phase. In a progress
// phase it follows the walkthrough (walking to the next step's room by the
// shortest open way, with the detours an LLM takes: examining things, looking,
// checking the inventory, trying a wrong exit) and scores Zork I's points. In
// a stuck spell it is stuck on the puzzle of its next step: it oscillates
// between that room and a neighbour, or camps in it, trying the same few
// things; the spell ends in the puzzle solved (a late score gain), a death,
// or not at all. Objectives are discovered every objective_update_interval
// turns and completed when the agent does what they say.

// Script says what happens in an episode.
type Script struct {
	Phases []Phase
	End    ScriptEnd
}

// ScriptEnd is how an episode ends once its phases are played.
type ScriptEnd int

const (
	// RunOut: the last phase lasts to max_turns (unless the recording's loop
	// break stops the episode first).
	RunOut ScriptEnd = iota
	// Die: the agent dies right after the last phase (game over).
	Die
	// Killed: the run is killed right after the last phase, in the middle of
	// writing the next turn's first line.
	Killed
)

// Phase is a stretch of progress or a stuck spell.
type Phase struct {
	Stuck bool
	// Turns is how long the phase lasts; 0 lasts to max_turns.
	Turns int
	Camp  bool // stuck in one room; else oscillating between two
	// Gain: the spell ends with the puzzle solved, up to the next score gain.
	Gain bool
	// Objectives are the turns of the spell (1 = its first) at which the agent
	// completes a small objective (examining, reading, looking around).
	Objectives []int
}

// Spell is a stuck spell as played: for the dataset's documentation.
type Spell struct {
	Start, End int    // its first and last turn
	Camp       bool   // camping in one room; else oscillating between two
	Rooms      string // "Dam <-> Dam Lobby", or the room camped in
	Ending     string // "score gain", "death" or "end of log"
	Objectives int    // objective completions within it
}

// Config is one episode to play.
type Config struct {
	ID        string
	Start     time.Time // the first line's clock
	Code      time.Time // the ZorkGPT code's date (Episode.Code)
	LoopBreak *policy.Policy
	TaskName  bool
	MaxTurns  int // 500 when 0
	Script    Script
	// Huge is the chance that a turn's reasoning is a reasoning model's
	// runaway, 50–200 KB.
	Huge float64
	// NaN is the chance that the critic's scores of a turn are NaN (an LLM
	// answer that did not parse).
	NaN float64
}

// objectiveInterval is objective_update_interval: 25 before 0363529
// (2025-11-07), then 15.
func (c *Config) objectiveInterval() int {
	if c.Code.IsZero() || !c.Code.Before(time.Date(2025, 11, 7, 0, 0, 0, 0, time.UTC)) {
		return 15
	}
	return 25
}

// Play plays c with the random source rng and returns the episode's plan.
// It drafts the turns in four passes, each needing the one before: the game
// and the agent's commands; the objectives (which achievements were listed
// and judged complete, and the lists); the recording's loop break (where it
// stops the episode, the countdown the agent saw); the texts.
func Play(rng *rand.Rand, c Config) *Episode {
	if c.MaxTurns == 0 {
		c.MaxTurns = 500
	}
	start := placeOf("westOfHouse")
	s := &sim{rng: rng, max: c.MaxTurns, room: start, done: make([]bool, len(walkthrough)), visited: map[int]bool{start.id: true}, rolled: -1}
	s.play(c.Script)
	e := &Episode{ID: c.ID, Start: c.Start, Code: c.Code, MaxTurns: c.MaxTurns, TaskName: c.TaskName,
		LoopBreak: c.LoopBreak, InitialRoom: start.room()}
	if c.Script.End == Killed {
		// The turn in progress when the run was killed: only the start of its
		// first line is written.
		e.Ending = EndKilled
		s.detour(intent{kind: detouring})
	}
	s.objectives(c.objectiveInterval())
	warnings := s.loopBreak(c.LoopBreak)
	e.Spells = s.clipSpells()
	s.texts(&c, warnings)
	e.Turns = make([]Turn, len(s.turns))
	for i := range s.turns {
		e.Turns[i] = s.turns[i].Turn
	}
	return e
}

// sim is the state of the game and the agent while the turns are drafted.
type sim struct {
	rng     *rand.Rand
	max     int
	room    *place
	score   int
	done    []bool // walkthrough steps done
	next    int    // the next step
	actIx   int    // its next command
	inv     []string
	visited map[int]bool // room ids seen (lookups only)
	turns   []draft
	spells  []Spell
	used    map[string]bool // objective texts given out
	dead    bool
	// excursion is how many turns the agent still roams before it goes on
	// with step rolled; rolled is the step whose excursion was drawn.
	excursion, rolled int
}

// draft is a turn being made: what happens, and why (for the reasoning).
type draft struct {
	Turn
	why      intent
	step     int    // the walkthrough step being worked on
	achieved string // an objective this turn could complete (a step done, a room first seen)
	forced   string // an objective this turn completes (in a spell)
	stuckFor int    // turns since the last score change, at the start of the turn
	inv      []string
}

type intentKind int

const (
	walking intentKind = iota
	acting
	detouring
	attempting
	oscillating
	pursuing // an objective
	dying
	failing // the turn ends in turn_exception
)

type intent struct {
	kind   intentKind
	target string // where it is going, or what it is after
	dir    string
	spell  bool
}

func (s *sim) full() bool { return len(s.turns) >= s.max || s.dead }

func (s *sim) play(sc Script) {
	for i, ph := range sc.Phases {
		last := i == len(sc.Phases)-1
		end := len(s.turns) + ph.Turns
		if ph.Turns == 0 || (last && sc.End == RunOut) {
			end = s.max
		}
		end = min(end, s.max)
		if ph.Stuck {
			s.spell(ph, end)
		} else {
			for len(s.turns) < end && !s.dead {
				s.progress()
			}
		}
		if s.full() {
			return
		}
	}
	if sc.End == Die {
		s.die()
	}
}

// add appends a turn in which the agent does action in the current room or
// moves to to; it keeps the score and the room.
func (s *sim) add(why intent, action, response string, to *place) *draft {
	d := draft{Turn: Turn{Action: action, Response: response}, why: why, step: s.next, inv: slices.Clone(s.inv)}
	if to != nil {
		s.room = to
		if !s.visited[to.id] {
			s.visited[to.id] = true
			if !why.spell {
				d.achieved = "Explore " + the(to.name)
			}
		}
	}
	d.To = s.room.room()
	d.Score = s.score
	s.turns = append(s.turns, d)
	return &s.turns[len(s.turns)-1]
}

// exceptions are turn_exception errors of ZorkGPT's turn logic.
var exceptions = [][2]string{
	{"'NoneType' object has no attribute 'get'", "AttributeError"},
	{"Expecting value: line 1 column 1 (char 0)", "JSONDecodeError"},
	{"list index out of range", "IndexError"},
	{"Connection error.", "APIConnectionError"},
}

// exception adds a turn that fails before the command reaches the game.
func (s *sim) exception(action string) {
	x := exceptions[s.rng.IntN(len(exceptions))]
	d := s.add(intent{kind: failing}, action, "", nil)
	d.Exception, d.ExceptionType = x[0], x[1]
}

// chance reports true with probability p.
func (s *sim) chance(p float64) bool { return s.rng.Float64() < p }

func pick[T any](rng *rand.Rand, list []T) T { return list[rng.IntN(len(list))] }

// progress adds one turn of the walkthrough (or of roaming, once it is done).
func (s *sim) progress() {
	if s.chance(0.004) {
		s.exception(pick(s.rng, []string{"look", "inventory", "north", "examine " + s.thing()}))
		return
	}
	if s.next >= len(walkthrough) {
		s.roam()
		return
	}
	if s.rolled != s.next {
		// Before a new step the agent often roams a while: an LLM does not
		// know the walkthrough, it explores.
		s.rolled = s.next
		if s.chance(0.5) {
			s.excursion = 2 + s.rng.IntN(8)
		}
	}
	if s.excursion > 0 {
		s.excursion--
		s.roam()
		return
	}
	st := &walkthrough[s.next]
	target := placeOf(st.room)
	if s.room != target {
		switch {
		case s.chance(0.28):
			s.detour(intent{kind: detouring, target: target.name})
			return
		case s.chance(0.15):
			s.roam() // a side trip, or turning back
			return
		}
		dir, to := s.toward(target)
		s.add(intent{kind: walking, target: target.name, dir: dir}, dir, to.text(s.done), to)
		return
	}
	switch {
	case s.actIx == 0 && s.chance(0.3):
		s.detour(intent{kind: detouring, target: st.objective})
		return
	case s.actIx == 0 && len(st.attempts) > 0 && s.chance(0.3):
		// The wrong idea first, as an LLM tries the obvious.
		a := pick(s.rng, st.attempts)
		d := s.add(intent{kind: attempting, target: st.objective}, a.action, a.response, nil)
		d.Combat = a.combat
		return
	}
	s.doAct(st)
}

// doAct does the next command of step st.
func (s *sim) doAct(st *step) {
	a := st.acts[s.actIx]
	var to *place
	resp := a.response
	if a.to != "" {
		to = placeOf(a.to)
		if resp != "" {
			resp += "\n\n"
		}
		resp += to.text(s.done)
	}
	d := s.add(intent{kind: acting, target: st.objective}, a.action, resp, to)
	d.Combat = a.combat
	if a.take != "" {
		s.inv = append(s.inv, a.take)
	}
	if a.drop != "" {
		s.inv = slices.DeleteFunc(slices.Clone(s.inv), func(x string) bool { return x == a.drop })
	}
	s.score += a.points
	d.Score = s.score
	s.actIx++
	if s.actIx == len(st.acts) {
		s.done[s.next] = true
		d.achieved = st.objective
		s.next++
		s.actIx = 0
	}
}

// roam is a turn of exploring: a look at something, or a move, to a room not
// seen yet when there is one.
func (s *sim) roam() {
	if s.chance(0.3) {
		s.detour(intent{kind: detouring})
		return
	}
	x, ok := s.unexplored()
	if !ok {
		x = pick(s.rng, s.open(s.room))
	}
	to := placeOf(x.to)
	s.add(intent{kind: walking, target: to.name, dir: x.dir}, x.dir, to.text(s.done), to)
}

// unexplored is an open exit of the current room to a room not seen yet.
func (s *sim) unexplored() (exit, bool) {
	for _, i := range s.rng.Perm(len(s.room.exits)) {
		x := s.room.exits[i]
		if (x.gate == "" || s.done[stepIndex[x.gate]]) && !s.visited[placeOf(x.to).id] {
			return x, true
		}
	}
	return exit{}, false
}

// open lists the exits of p that are open now.
func (s *sim) open(p *place) []exit {
	var out []exit
	for _, x := range p.exits {
		if x.gate == "" || s.done[stepIndex[x.gate]] {
			out = append(out, x)
		}
	}
	return out
}

// toward returns the first move of a shortest open way to target, which is
// not the current room. Exits are tried in their order: no randomness.
func (s *sim) toward(target *place) (string, *place) {
	type hop struct {
		from int
		dir  string
	}
	start := placeIndex[s.room.key]
	if &places[start] == target {
		panic("synth: toward the room the agent is in: " + target.key)
	}
	seen := map[int]hop{start: {from: -1}}
	queue := []int{start}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		if &places[i] == target {
			for seen[i].from != start {
				i = seen[i].from
			}
			return seen[i].dir, &places[i]
		}
		for _, x := range s.open(&places[i]) {
			j := placeIndex[x.to]
			if _, ok := seen[j]; !ok {
				seen[j] = hop{from: i, dir: x.dir}
				queue = append(queue, j)
			}
		}
	}
	panic(fmt.Sprintf("synth: no way from %s to %s", s.room.key, target.key))
}

// thing names something to examine in the current room.
func (s *sim) thing() string {
	if len(s.room.things) == 0 {
		return "walls"
	}
	return pick(s.rng, s.room.things).name
}

// detour adds a turn that goes nowhere: examining, looking, a wrong exit
// (seldom the very command of the turn before).
func (s *sim) detour(why intent) {
	action, response, to := s.aside()
	if n := len(s.turns); n > 0 && s.turns[n-1].Action == action {
		action, response, to = s.aside()
	}
	s.add(why, action, response, to)
}

// aside is a command that changes nothing, and the game's answer.
func (s *sim) aside() (string, string, *place) {
	switch r := s.rng.IntN(10); {
	case r < 4 && len(s.room.things) > 0:
		t := pick(s.rng, s.room.things)
		return "examine " + t.name, t.text, nil
	case r < 5:
		return "look", s.room.text(s.done), nil
	case r < 6:
		return "inventory", s.inventory(), nil
	case r < 8:
		for _, dir := range s.rng.Perm(len(directions)) {
			if !slices.ContainsFunc(s.room.exits, func(x exit) bool { return x.dir == directions[dir] }) {
				return directions[dir], "You can't go that way.", nil
			}
		}
		fallthrough
	case r < 9:
		return "score", fmt.Sprintf("Your score is %d (total of 350 points), in %d moves.\nThis gives you the rank of %s.", s.score, len(s.turns), rank(s.score)), nil
	}
	if s.chance(0.5) {
		return "diagnose", "You are in perfect health.", nil
	}
	return "wait", "Time passes.", nil
}

var directions = []string{"north", "south", "east", "west", "northeast", "northwest", "southeast", "southwest", "up", "down"}

func rank(score int) string {
	switch {
	case score < 25:
		return "Beginner"
	case score < 50:
		return "Amateur Adventurer"
	case score < 100:
		return "Novice Adventurer"
	case score < 200:
		return "Junior Adventurer"
	}
	return "Adventurer"
}

func (s *sim) inventory() string {
	if len(s.inv) == 0 {
		return "You are empty-handed."
	}
	var b strings.Builder
	b.WriteString("You are carrying:")
	for _, x := range s.inv {
		b.WriteString("\n  A " + x)
	}
	return b.String()
}

// spell plays a stuck spell until turn end, on the puzzle of the next step.
func (s *sim) spell(ph Phase, end int) {
	st := &walkthrough[min(s.next, len(walkthrough)-1)]
	home := placeOf(st.room)
	other := home
	if !ph.Camp {
		other = placeOf(pick(s.rng, s.open(home)).to)
	}
	sp := Spell{Start: len(s.turns) + 1, Camp: ph.Camp, Rooms: home.name}
	if !ph.Camp {
		sp.Rooms = home.name + " <-> " + other.name
	}
	goals := map[int]bool{}
	for _, o := range ph.Objectives {
		goals[sp.Start-1+o] = true
	}
	why := intent{kind: attempting, target: st.objective, spell: true}
	for len(s.turns) < end {
		t := len(s.turns) + 1
		switch {
		case goals[t]:
			s.pursue()
		case s.room != home && s.room != other:
			dir, to := s.toward(home)
			s.add(intent{kind: walking, target: home.name, dir: dir, spell: true}, dir, to.text(s.done), to)
		case s.chance(0.004):
			s.exception(pick(s.rng, []string{"look", "inventory"}))
		case !ph.Camp && s.chance(0.4):
			there := other
			if s.room == other {
				there = home
			}
			dir, to := s.toward(there)
			s.add(intent{kind: oscillating, target: there.name, dir: dir, spell: true}, dir, to.text(s.done), to)
		case s.room == home && len(st.attempts) > 0 && s.chance(0.6):
			a := pick(s.rng, st.attempts)
			d := s.add(why, a.action, a.response, nil)
			d.Combat = a.combat
		default:
			s.detour(why)
		}
		if d := &s.turns[len(s.turns)-1]; t-sp.Start >= 8 && d.Exception == "" && s.chance(0.07) {
			d.StateLoop = true
			d.StateHash = int64(s.rng.Uint64())
		}
	}
	sp.End = len(s.turns)
	sp.Ending = "end of log" // until die or the gain below says otherwise
	if ph.Gain && !s.full() {
		// The puzzle gives: play on until the score moves.
		sp.Ending = "score gain"
		for score := s.score; s.score == score && !s.full(); {
			s.progress()
		}
	}
	s.spells = append(s.spells, sp)
}

// pursue adds a turn that completes a small objective in the current room.
func (s *sim) pursue() {
	if s.used == nil {
		s.used = map[string]bool{}
	}
	type goal struct{ text, action, response string }
	var goals []goal
	for _, t := range s.room.things {
		goals = append(goals,
			goal{"Examine the " + t.name + " in " + the(s.room.name), "examine " + t.name, t.text},
			goal{"Take a closer look at the " + t.name + " for clues", "examine " + t.name, t.text})
	}
	goals = append(goals,
		goal{"Look around " + the(s.room.name) + " for anything missed", "look", s.room.text(s.done)},
		goal{"Check the inventory for something that helps in " + the(s.room.name), "inventory", s.inventory()},
		goal{"Check the score and the number of moves so far", "score", fmt.Sprintf("Your score is %d (total of 350 points), in %d moves.\nThis gives you the rank of %s.", s.score, len(s.turns), rank(s.score))})
	if slices.Contains(s.inv, "leaflet") {
		goals = append(goals, goal{"Read the leaflet again for hints", "read leaflet", "\"WELCOME TO ZORK!\n\nZORK is a game of adventure, danger, and low cunning.\""})
	}
	g := goals[0]
	found := false
	for _, i := range s.rng.Perm(len(goals)) {
		if !s.used[goals[i].text] {
			g, found = goals[i], true
			break
		}
	}
	if !found { // all done once: the objective manager words one again
		g = goals[s.rng.IntN(len(goals))]
		base := g.text
		for n := 2; s.used[g.text]; n++ {
			g.text = fmt.Sprintf("%s (attempt %d)", base, n)
		}
	}
	s.used[g.text] = true
	d := s.add(intent{kind: pursuing, target: g.text, spell: true}, g.action, g.response, nil)
	d.forced = g.text
}

// die ends the episode with the agent's death where it is (walking to the
// canyon first when it is above ground, where Zork I is safe).
func (s *sim) die() {
	why := intent{kind: dying}
	start := len(s.turns)
	for !s.room.dark && !s.full() && s.room.key != "dam" && s.room.key != "damBase" && s.room.key != "canyonView" {
		dir, to := s.toward(placeOf("canyonView"))
		s.add(intent{kind: walking, target: "Canyon View", dir: dir}, dir, to.text(s.done), to)
	}
	if s.full() {
		return
	}
	d := s.death()
	if d.where == "dark" {
		s.add(why, "turn off lantern", "The brass lantern is now off.\nIt is now pitch black. You are likely to be eaten by a grue.", nil)
		if s.full() {
			return
		}
		d.action = pick(s.rng, s.open(s.room)).dir
		d.text = grueText
	}
	forest := placeOf("forestWest")
	if k := len(s.spells) - 1; k >= 0 && s.spells[k].End == start && s.spells[k].Ending == "end of log" {
		s.spells[k].Ending = "death" // the spell ends in the death
		s.spells[k].End = len(s.turns) + 1
	}
	last := s.add(why, d.action, d.text+obituary+forest.text(s.done), forest)
	last.GameOver = "Player death"
	s.score -= deathPenalty
	last.Score = s.score
	last.Combat = d.where == "trollRoom" || d.where == "cyclopsRoom"
	s.dead = true
}

// death is how the agent dies where it is: a monster still there, the water
// at the dam, the dark underground, a jump from the canyon's rim.
func (s *sim) death() death {
	where := "ground"
	switch {
	case s.room.key == "trollRoom" && !s.done[stepIndex["troll"]],
		s.room.key == "cyclopsRoom" && !s.done[stepIndex["cyclops"]],
		s.room.key == "dam", s.room.key == "damBase":
		where = s.room.key
	case s.room.dark:
		where = "dark"
	}
	for _, d := range deaths {
		if d.where == where {
			return d
		}
	}
	panic("synth: no death for " + where)
}

// objectives decides which achievements the objective manager had listed and
// judged complete, and writes the objectives_updated lists every interval
// turns: what will be completed before the next update, and open goals.
func (s *sim) objectives(interval int) {
	n := len(s.turns)
	done := map[string]bool{}
	for u := interval; u <= n; u += interval {
		var soon []string
		var candidates []int
		for t := u + 1; t <= min(u+interval, n); t++ {
			d := &s.turns[t-1]
			switch {
			case d.forced != "":
				soon = append(soon, d.forced)
				d.Completed = []string{d.forced}
			case d.achieved != "" && !done[d.achieved]:
				candidates = append(candidates, t)
			}
		}
		k := s.completionsPerUpdate(interval)
		for _, i := range s.rng.Perm(len(candidates)) {
			if k == 0 {
				break
			}
			d := &s.turns[candidates[i]-1]
			if slices.Contains(soon, d.achieved) {
				continue
			}
			soon = append(soon, d.achieved)
			d.Completed = []string{d.achieved}
			k--
		}
		list := slices.Clone(soon)
		step := s.turns[min(u, n-1)].step // the step worked on after the update
		for i := step; i < len(walkthrough) && i < step+3; i++ {
			if o := walkthrough[i].objective; !done[o] && !slices.Contains(list, o) && s.chance(0.7) {
				list = append(list, o)
			}
		}
		for _, g := range s.rng.Perm(len(standingGoals))[:1+s.rng.IntN(2)] {
			list = append(list, standingGoals[g])
		}
		s.rng.Shuffle(len(list), func(i, j int) { list[i], list[j] = list[j], list[i] })
		s.turns[u-1].Discovered = list
		for t := u + 1; t <= min(u+interval, n); t++ {
			for _, c := range s.turns[t-1].Completed {
				done[c] = true
			}
		}
	}
	// A spell's objective before the first update had no list to come from.
	for t := 1; t <= min(interval, n); t++ {
		s.turns[t-1].forced = ""
	}
}

// completionsPerUpdate is how many achievements of the next interval turns the
// objective manager will have listed and judged: several per 100 turns.
func (s *sim) completionsPerUpdate(interval int) int {
	r := s.rng.Float64()
	if interval < 20 {
		switch {
		case r < 0.35:
			return 0
		case r < 0.85:
			return 1
		}
		return 2
	}
	switch {
	case r < 0.15:
		return 0
	case r < 0.7:
		return 1
	}
	return 2
}

var standingGoals = []string{
	"Collect treasures and place them in the trophy case in the Living Room",
	"Keep the brass lantern on while underground and watch its battery",
	"Map the underground passages and note dead ends",
	"Avoid fighting without a weapon",
	"Find out what the brass bell and the candles are for",
	"Return to unexplored exits noted on the map",
}

// noWarning marks a turn whose prompt had no countdown warning.
const noWarning = math.MinInt

// loopBreak runs the recording's loop break over the drafted turns: it cuts
// them at the stop, and returns for each turn the countdown the agent saw
// (turns left, which is 0 or less between the last check turns, or
// noWarning).
func (s *sim) loopBreak(p *policy.Policy) []int {
	warn := make([]int, len(s.turns))
	for i := range warn {
		warn[i] = noWarning
	}
	if p == nil {
		return warn
	}
	tr := p.NewTracker()
	anchor := 0
	for i := range s.turns {
		d := &s.turns[i]
		st := tr.Step(i+1, policy.Observation{Score: episode.Score(d.Score), Objectives: objectives(len(d.Completed) > 0 && d.Exception == "")})
		if st.Warned {
			warn[i] = p.MaxTurnsStuck() - (i + 1 - anchor)
		}
		anchor = st.Anchor
		if st.Terminate {
			s.turns = s.turns[:i+1]
			s.turns[i].Discovered = nil // the periodic update is skipped on a stop
			return warn[:i+1]
		}
	}
	return warn
}

// clipSpells fits the spells to the turns left after a loop-break stop and
// counts their objective completions.
func (s *sim) clipSpells() []Spell {
	n := len(s.turns)
	var out []Spell
	for _, sp := range s.spells {
		if sp.Start > n {
			continue
		}
		if sp.End >= n {
			sp.End = n
			if s.turns[n-1].GameOver == "" {
				sp.Ending = "end of log"
			}
		}
		sp.Objectives = 0
		for _, d := range s.turns[sp.Start-1 : sp.End] {
			sp.Objectives += len(d.Completed)
		}
		out = append(out, sp)
	}
	return out
}

// texts writes what the agent and the critic said, and the time each turn took.
func (s *sim) texts(c *Config, warnings []int) {
	last := 0
	score := 0
	var open []string
	for i := range s.turns {
		d := &s.turns[i]
		d.stuckFor = i - last
		m := mind{rng: s.rng, d: d, warning: warnings[i], open: open}
		if i > 0 {
			m.prev = &s.turns[i-1]
			m.gained = i == last && m.prev.Score > s.scoreAt(i-1)
		}
		if s.chance(c.Huge) {
			m.huge = 50_000 + s.rng.IntN(150_000)
		}
		d.Reasoning = m.reasoning()
		d.CriticScore, d.Confidence = s.critic(d)
		if s.chance(c.NaN) && c.LoopBreak == nil {
			d.CriticScore, d.Confidence = math.NaN(), math.NaN()
		}
		secs := 20 + 40*s.rng.Float64() + float64(len(d.Reasoning))/250
		d.Duration = time.Duration(secs*1e6) * time.Microsecond
		if d.Score != score {
			last, score = i+1, d.Score
		}
		if d.Discovered != nil {
			open = d.Discovered
		}
		for _, o := range d.Completed {
			open = slices.DeleteFunc(slices.Clone(open), func(x string) bool { return x == o })
		}
	}
}

// scoreAt is the score after turn t (0 before turn 1).
func (s *sim) scoreAt(t int) int {
	if t < 1 {
		return 0
	}
	return s.turns[t-1].Score
}

// critic scores an action the way the critic LLM does: high for the
// walkthrough, lower for the same old tries.
func (s *sim) critic(d *draft) (float64, float64) {
	lo, hi := 12, 19 // ×0.05
	switch d.why.kind {
	case attempting, oscillating:
		lo, hi = 6, 15
	case dying:
		lo, hi = 4, 12
	}
	score := float64(lo+s.rng.IntN(hi-lo+1)) * 0.05
	conf := float64(14+s.rng.IntN(6)) * 0.05
	return math.Round(score*100) / 100, math.Round(conf*100) / 100
}
