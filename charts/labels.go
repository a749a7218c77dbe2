package charts

import (
	"slices"
	"unicode"
)

// rowLabels fits the labels of a chart's rows into max runes each (after
// chartText), keeping what tells each apart from the others. Runs are often
// named by a long shared stem and a short distinguishing part anywhere in it
// (TALES's "gpt-4o-mini c1000 Walkthrough Agent / JerichoEnvDetective" and
// "… / JerichoEnvZork1"; a repeated id with its source path), so a label too
// long loses a stretch of its middle, "head…tail", not its end: of the
// places to cut, one that keeps it apart from the most other labels, then one
// between words, then the one whose shorter side is longest, then the one
// that keeps the most.
func rowLabels(labels []string, max int) []string {
	texts := make([][]rune, len(labels))
	for i, l := range labels {
		texts[i] = []rune(chartText(l))
	}
	out := make([]string, len(labels))
	for i, r := range texts {
		out[i] = string(r)
		if len(r) > max {
			h, t := bestCut(r, texts, max-1)
			out[i] = string(r[:h]) + "…" + string(r[len(r)-t:])
		}
	}
	return out
}

// cutSlack is how many runes a label may give up so as to be cut between
// words rather than inside one.
const cutSlack = 6

// bestCut is how many runes of r to keep before the ellipsis and after it,
// keep or a few fewer in all (rowLabels).
func bestCut(r []rune, all [][]rune, keep int) (head, tail int) {
	// r stays apart from o when its head reaches past their common prefix
	// or its tail past their common suffix.
	type span struct{ prefix, suffix int }
	var others []span
	for _, o := range all {
		if p := commonPrefix(r, o); p < len(r) || len(o) != len(r) {
			others = append(others, span{p, commonSuffix(r, o)})
		}
	}
	best := [4]int{-1}
	for h := 1; h < keep; h++ {
		for t := max(1, keep-h-cutSlack); t <= keep-h; t++ {
			apart := 0
			for _, o := range others {
				if h > o.prefix || t > o.suffix {
					apart++
				}
			}
			score := [4]int{apart, betweenWords(r, h) + betweenWords(r, len(r)-t), min(h, t), h + t}
			if slices.Compare(score[:], best[:]) > 0 {
				best, head, tail = score, h, t
			}
		}
	}
	return head, tail
}

// betweenWords is 1 when a cut before r[i] falls between words (next to a
// rune that is neither a letter nor a digit), else 0.
func betweenWords(r []rune, i int) int {
	word := func(c rune) bool { return unicode.IsLetter(c) || unicode.IsDigit(c) }
	if !word(r[i-1]) || !word(r[i]) {
		return 1
	}
	return 0
}

func commonPrefix(a, b []rune) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func commonSuffix(a, b []rune) int {
	n := 0
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	return n
}
