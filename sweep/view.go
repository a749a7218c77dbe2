package sweep

import "strconv"

// What the text renderer shows, for other renderers (the HTML report of
// charts): the same cells and lines, decided once here.

// FrontTable is the front table as the text formats show it: its header, one
// row a config of the front, most turns saved first, then the current setting
// ("now"). idx[k] is the index into Configs of row k (-1 for "now").
func (r *Result) FrontTable() (header []string, rows [][]string, idx []int) {
	for k, i := range r.Front {
		rows = append(rows, r.frontRow(strconv.Itoa(k+1), &r.Configs[i]))
		idx = append(idx, i)
	}
	rows = append(rows, r.frontRow("now", r.Current))
	return r.frontHeader(), rows, append(idx, -1)
}

// RecommendationLines say what was chosen and how far to trust it.
func (r *Result) RecommendationLines() []string { return r.recommendationLines() }

// PasteBlock is the [tool.zorkgpt.loop_break] block to paste and what it is
// for; empty when there is none.
func (r *Result) PasteBlock() (block, what string) { return r.pasteBlock() }
