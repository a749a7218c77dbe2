package textout

import "strconv"

// Count is n and the noun, plural unless n is 1: "1 episode", "75 episodes".
func Count(n int, noun string) string { return strconv.Itoa(n) + " " + noun + Plural(n) }

// Plural is "s" unless n is 1.
func Plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// Shorter gives the headers of a table's short forms, others as they are.
func Shorter(short map[string]string) func(string) string {
	return func(h string) string {
		if s, ok := short[h]; ok {
			return s
		}
		return h
	}
}
