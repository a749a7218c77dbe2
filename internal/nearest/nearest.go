// Package nearest says how near one name is to another, for the messages
// that suggest a name for one mistyped: a flag, a field map's column or key.
package nearest

// Distance is the Levenshtein distance of a and b, byte by byte (the names
// compared are ASCII, or compared whole).
func Distance(a, b string) int {
	row := make([]int, len(b)+1)
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(a); i++ {
		prev := row[0]
		row[0] = i
		for j := 1; j <= len(b); j++ {
			cur := row[j]
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			row[j] = min(row[j]+1, row[j-1]+1, prev+cost)
			prev = cur
		}
	}
	return row[len(b)]
}
