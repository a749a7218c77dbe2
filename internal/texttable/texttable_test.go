package texttable

import (
	"bytes"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"testing"
	"unicode"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/pkg/twwidth"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// The differential tests: tablewriter v1.1.5, configured as report configured
// it before this package replaced it, is the reference; every table must come
// out byte for byte the same.

// reference draws a table with tablewriter as report/text.go did (TextTable,
// MarkdownTable), in the width setting of m.
func reference(t testing.TB, md bool, m measure, header []string, rows [][]string, align []Align) string {
	t.Helper()
	twwidth.SetOptions(twwidth.Options{EastAsianWidth: m.eastAsian, ForceNarrowBorders: m.narrowBoxes})
	aligns := make([]tw.Align, len(align))
	for i, a := range align {
		aligns[i] = map[Align]tw.Align{Left: tw.AlignLeft, Right: tw.AlignRight}[a]
	}
	var b bytes.Buffer
	opts := []tablewriter.Option{tablewriter.WithHeaderAutoFormat(tw.Off), tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithHeaderAutoWrap(tw.WrapNone), tablewriter.WithHeaderAlignment(tw.AlignLeft),
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: aligns})}
	if md {
		opts = append([]tablewriter.Option{tablewriter.WithRenderer(renderer.NewMarkdown())}, opts...)
	}
	tbl := tablewriter.NewTable(&b, opts...)
	tbl.Header(header)
	if md {
		for _, r := range rows {
			tbl.Append(r)
		}
	} else {
		tbl.Bulk(rows)
	}
	if err := tbl.Render(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func ours(md bool, m measure, header []string, rows [][]string, align []Align) string {
	var b bytes.Buffer
	if md {
		markdown(&b, m, header, rows, align)
	} else {
		box(&b, m, header, rows, align)
	}
	return b.String()
}

// The width settings: the usual one, East Asian (CJK locale), East Asian in
// a modern terminal (box drawing narrow).
var measures = []measure{{}, {eastAsian: true}, {eastAsian: true, narrowBoxes: true}}

func compare(t testing.TB, md bool, m measure, header []string, rows [][]string, align []Align) {
	t.Helper()
	want := reference(t, md, m, header, rows, align)
	if got := ours(md, m, header, rows, align); got != want {
		t.Fatalf("markdown %v, %+v, header %q, rows %q, align %v:\ngot\n%s\nwant\n%s", md, m, header, rows, align, got, want)
	}
}

func restoreWidth(t testing.TB) {
	t.Cleanup(func() { twwidth.SetOptions(twwidth.Options{}) })
}

func TestTables(t *testing.T) {
	restoreWidth(t)
	const l, r = Left, Right
	cases := []struct {
		header []string
		rows   [][]string
		align  []Align
	}{
		// The shapes report draws.
		{[]string{"#", "policy", "stop", "stuck", "score", "saved", "calls saved", "forgone", "warned", "verdict"},
			[][]string{{"1", "score 40/10", "40", "40", "0", "60", "240", "10", "20", "premature? +10 at 75 (35 turns later); objective at 30"},
				{"2", "score-or-objective 40/10", "—", "—", "—", "0", "0", "0", "20", "no stop"}},
			[]Align{r, l, r, r, r, r, r, r, r, l}},
		{[]string{"pattern", "first turn", "turns", "what the log shows"},
			[][]string{{"oscillation (A-B-A-B)", "4", "97", "1 spell in North of House, West of House"}, {"action novelty", "", "100", "100% …"}},
			[]Align{l, r, r, l}},
		{[]string{"policy", "stuck spells ≥ 10 turns", "longest"}, [][]string{{"score 40/10", "2", "40"}}, nil},
		// Empty row sets, a single column, empty cells, cells to trim.
		{[]string{"a", "b"}, nil, []Align{r, r}},
		{[]string{"only"}, [][]string{{"x"}, {""}, {"  padded  "}}, []Align{r}},
		{[]string{""}, [][]string{{""}}, nil},
		{[]string{" h ", "\u3000wide space\u00a0"}, [][]string{{"\u2003", "x\u200b"}}, []Align{r}},
		// Ragged rows, rows without cells, more alignments than columns.
		{[]string{"a", "b", "c"}, [][]string{{"1"}, {"1", "2", "3", "4"}, {}, nil}, []Align{r, l, r, r, r, r}},
		{[]string{"a", "b"}, [][]string{{}, nil}, []Align{r, r}},
		{[]string{"a"}, [][]string{{}, {"x"}}, []Align{r}},
		// Wide, zero-width and ambiguous runes.
		{[]string{"漢字", "emoji 👍🏽", "é (e\u0301)"}, [][]string{{"日本語テキスト", "👨‍👩‍👧 ❤️ 🇫🇷", "a\u0308\u0323"}, {"ＡＢ", "─│┼ ▁█", "±°×→αΩ…"}},
			[]Align{l, r, r}},
	}
	for _, c := range cases {
		for _, m := range measures {
			for _, md := range []bool{false, true} {
				compare(t, md, m, c.header, c.rows, c.align)
			}
		}
	}
}

// fragments are the pieces random cells are made of: ASCII, spaces (trimmed
// at the ends), CJK and fullwidth, emoji with modifiers, joiners, flags and
// variation selectors, combining marks, East Asian ambiguous runes (box
// drawing among them), zero-width and format characters, private use,
// unassigned and invalid UTF-8, markdown's specials.
var fragments = []string{
	"a", "Zork", "West of House", "42", "-3", "$4.80", "50%", "(A-B-A-B)", " ", "  ", "|", "`", "\\|", "&lt;",
	"漢", "字", "日本語", "한국어", "ＡＢ", "ｶﾀｶﾅ", "\u3000", "\u00a0", "\u2003", "\u205f", "\u1680", "\u2028",
	"😀", "👍🏽", "👨‍👩‍👧", "❤️", "☺", "☺\ufe0e", "🇫🇷", "\u200d", "\ufe0f", "\u20e3", "1\ufe0f\u20e3",
	"e\u0301", "a\u0308\u0323", "\u0301", "ก\u0e31", "\u1100\u1161", "\u1160", "مرحبا", "עברית",
	"—", "…", "±", "°", "×", "→", "α", "Ω", "≥", "─", "│", "┼", "┌", "═", "▁", "█", "▒", "●", "①", "Ⅻ",
	"\u200b", "\u00ad", "\u2060", "\ufeff", "\ue000", "\U000F0000", "\U000E0001", "\u0378", "\U0010FFFD",
	"\xff", "\xe2\x82", "\uFFFD", "\\x1b", "\\u0085",
}

func randomCell(r *rand.Rand) string {
	if r.IntN(8) == 0 {
		return ""
	}
	var b strings.Builder
	for range 1 + r.IntN(5) {
		b.WriteString(fragments[r.IntN(len(fragments))])
	}
	return b.String()
}

// randomTable is a table of random cells: usually rectangular, sometimes
// ragged or with empty rows; alignments of random length.
func randomTable(r *rand.Rand) (header []string, rows [][]string, align []Align) {
	cols := 1 + r.IntN(6)
	line := func() []string {
		n := cols
		if r.IntN(6) == 0 {
			n = r.IntN(cols + 3)
		}
		l := make([]string, n)
		for i := range l {
			l[i] = randomCell(r)
		}
		return l
	}
	header = line()
	if len(header) == 0 {
		header = []string{randomCell(r)}
	}
	for range r.IntN(6) {
		rows = append(rows, line())
	}
	for range r.IntN(cols + 3) {
		align = append(align, Align(r.IntN(2)))
	}
	return header, rows, align
}

func TestRandomTables(t *testing.T) {
	restoreWidth(t)
	r := rand.New(rand.NewPCG(1, 2))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for range n {
		header, rows, align := randomTable(r)
		compare(t, r.IntN(2) == 0, measures[r.IntN(len(measures))], header, rows, align)
	}
}

// TestRuneWidths compares the width of every rune, in each setting, with
// twwidth's (the tables above only meet some of them).
func TestRuneWidths(t *testing.T) {
	restoreWidth(t)
	for _, m := range measures {
		twwidth.SetOptions(twwidth.Options{EastAsianWidth: m.eastAsian, ForceNarrowBorders: m.narrowBoxes})
		for r := rune(0x20); r <= unicode.MaxRune; r++ {
			if r == 0x7f || r >= 0x80 && r < 0xa0 {
				continue // control characters never reach us (report.Printable)
			}
			if r >= 0x10000 && r%7 != 0 && r < 0xe0000 {
				continue // the astral planes by sample: 0.2 s instead of 1 s per setting
			}
			s := string(r)
			if got, want := m.width(s), twwidth.WidthNoCache(s); got != want {
				t.Fatalf("%+v: width of %U is %d, twwidth says %d", m, r, got, want)
			}
		}
	}
}

// FuzzTables draws fuzzed tables both ways: rows are lines of data, cells
// split at tabs, the first line the header; control characters are dropped
// (report escapes them before they reach a table). flags picks markdown or
// box and the width setting; nalign%12 alignments are given, the bits of
// aligns saying which are Right.
func FuzzTables(f *testing.F) {
	f.Add("a\tb\n1\t2", uint8(0), uint16(0b10), uint8(2))
	f.Add("漢字\t👍🏽\n—\te\u0301\n\n x \t", uint8(3), uint16(0b11), uint8(5))
	f.Add("only", uint8(5), uint16(0), uint8(0))
	f.Fuzz(func(t *testing.T, data string, flags uint8, aligns uint16, nalign uint8) {
		restoreWidth(t)
		data = strings.Map(func(r rune) rune {
			if r == '\n' || r == '\t' {
				return r
			}
			if r < 0x20 || r >= 0x7f && r < 0xa0 {
				return -1
			}
			return r
		}, data)
		lines := strings.Split(data, "\n")
		var rows [][]string
		for _, l := range lines[1:] {
			if l == "" {
				rows = append(rows, nil)
			} else {
				rows = append(rows, strings.Split(l, "\t"))
			}
		}
		align := make([]Align, int(nalign)%12)
		for i := range align {
			align[i] = Align(aligns >> (i % 16) & 1)
		}
		compare(t, flags&1 == 1, measures[int(flags>>1)%len(measures)], strings.Split(lines[0], "\t"), rows, align)
	})
}

// TestDetect compares the width setting read from the environment with
// twwidth's reading of it, for combinations of the variables it reads.
func TestDetect(t *testing.T) {
	vars := map[string][]string{
		"RUNEWIDTH_EASTASIAN": {"", "1", "0", "ON", "off", "yes", "No", "maybe"},
		"LC_ALL":              {"", "C", "zh_CN.UTF-8", "en_US.UTF-8"},
		"LC_CTYPE":            {"", "POSIX", "ja_JP.eucJP@x", "de_DE"},
		"LANG":                {"", "ko_KR.UTF-8", "en_HK.UTF-8", "en_GB", "Chinese", "fr_FR@euro", "x_y_sg"},
		"TERM":                {"", "xterm-256color", "xterm-mono", "screen", "tmux-256color", "linux", "vt100", "wezterm", "dumb"},
		"TERM_PROGRAM":        {"", "vscode", "iTerm.app", "Apple_Terminal", "WezTerm"},
		"TERM_PROGRAM_WSL":    {"", "1"},
		"VTE_VERSION":         {"", "6003"},
		"ALACRITTY_LOG":       {"", "/tmp/log"},
		"WT_PROFILE_ID":       {"", "x"},
		"ConEmuANSI":          {"", "ON"},
	}
	names := make([]string, 0, len(vars))
	for k := range vars {
		names = append(names, k)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 2000 {
		env := map[string]string{}
		for _, k := range names {
			v := vars[k][0]
			if i > 0 && r.IntN(3) == 0 {
				v = vars[k][r.IntN(len(vars[k]))]
			}
			env[k] = v
			t.Setenv(k, v)
		}
		mode := twwidth.EastAsianMode()
		wantEA := mode == "override_on" || mode == "locale_cjk"
		want := measure{eastAsian: wantEA, narrowBoxes: wantEA && twwidth.Debugging().Derived.IsModernEnv}
		if got := detect(os.Getenv, runtime.GOOS); got != want {
			t.Fatalf("environment %v: got %+v, twwidth says %+v (mode %s)", env, got, want, mode)
		}
	}
}

// TestDetectWindows checks the Windows terminals, which twwidth only looks
// for on Windows (so it cannot be the reference here): its source says
// Windows Terminal, ConEmu and an xterm or vt TERM are modern.
func TestDetectWindows(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		goos string
		want measure
	}{
		{map[string]string{"RUNEWIDTH_EASTASIAN": "1", "WT_PROFILE_ID": "x"}, "windows", measure{true, true}},
		{map[string]string{"RUNEWIDTH_EASTASIAN": "1", "WT_PROFILE_ID": "x"}, "linux", measure{true, false}},
		{map[string]string{"LANG": "ja_JP", "ConEmuANSI": "ON"}, "windows", measure{}},
		{map[string]string{"LANG": "ja_JP", "ConEmuANSI": "ON"}, "linux", measure{eastAsian: true}},
		{map[string]string{"LANG": "ja_JP", "TERM": "vt100"}, "windows", measure{}},
		{map[string]string{"LANG": "ja_JP", "TERM": "vt100"}, "linux", measure{eastAsian: true}},
	} {
		if got := detect(func(k string) string { return c.env[k] }, c.goos); got != c.want {
			t.Errorf("%v on %s: got %+v, want %+v", c.env, c.goos, got, c.want)
		}
	}
}

// BenchmarkBox draws an episode's result table (the table `episode` draws
// once an episode), beside tablewriter drawing it.
func BenchmarkBox(b *testing.B) {
	header := []string{"#", "policy", "stop", "stuck", "score", "saved", "calls saved", "forgone", "warned", "verdict"}
	rows := [][]string{{"1", "score 40/10", "40", "40", "0", "60", "240", "10", "20", "premature? +10 at 75 (35 turns later); objective at 30"},
		{"2", "score-or-objective 40/10", "—", "—", "—", "0", "0", "0", "20", "no stop"}}
	align := []Align{Right, Left, Right, Right, Right, Right, Right, Right, Right, Left}
	b.Run("texttable", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			box(&bytes.Buffer{}, measure{}, header, rows, align)
		}
	})
	b.Run("tablewriter", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			reference(b, false, measure{}, header, rows, align)
		}
	})
}
