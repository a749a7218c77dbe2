package texttable

import (
	"os"
	"runtime"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/clipperhouse/displaywidth"
)

// measure says how many terminal cells a text takes, the way tablewriter
// v1.1.5 (pkg/twwidth) measured it, so that the columns line up exactly as
// they did: each rune on its own (not grapheme clusters, so an emoji ZWJ
// sequence counts each emoji) by displaywidth, East Asian ambiguous runes
// (—, …, box drawing) two cells wide where the terminal draws them so, box
// drawing kept one cell wide where a modern terminal is known to do that.
//
// Cells hold no control characters (report.Printable escapes them): a tab,
// which tablewriter expands to a guessed tab stop, or an ANSI escape
// sequence, which it strips before measuring, never reaches us.
type measure struct {
	eastAsian   bool // ambiguous-width runes take two cells
	narrowBoxes bool // box drawing (U+2500–U+257F) takes one cell even so
}

// rune is the width of r.
func (m measure) rune(r rune) int {
	if m.narrowBoxes && r >= 0x2500 && r <= 0x257f {
		return 1
	}
	return displaywidth.Options{EastAsianWidth: m.eastAsian}.Rune(r)
}

// width is the width of s: the sum of its runes' (an invalid byte counts as
// U+FFFD, as ranging over the string does).
func (m measure) width(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != 0x7f {
				n++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		n += m.rune(r)
		i += size
	}
	return n
}

// environment is the measure for this process's terminal, decided once, at
// the first table (tablewriter decided it at init, costing every run).
var environment = sync.OnceValue(func() measure { return detect(os.Getenv, runtime.GOOS) })

// detect is tablewriter's decision (pkg/twwidth/ea.go, detectEastAsian and
// the init of width.go): RUNEWIDTH_EASTASIAN when it says yes or no; else
// narrow in a modern terminal; else wide in a Chinese, Japanese or Korean
// locale. Box drawing stays narrow when the wide setting meets a modern
// terminal (RUNEWIDTH_EASTASIAN=1 in an xterm).
func detect(getenv func(string) string, goos string) measure {
	modern := modernTerminal(getenv, goos)
	ea, set := eastAsianOverride(getenv("RUNEWIDTH_EASTASIAN"))
	if !set {
		ea = !modern && cjkLocale(getenv)
	}
	return measure{eastAsian: ea, narrowBoxes: ea && modern}
}

// eastAsianOverride reads RUNEWIDTH_EASTASIAN; set is false when it says
// neither yes nor no.
func eastAsianOverride(v string) (ea, set bool) {
	switch strings.ToLower(v) {
	case "1", "on", "true", "yes":
		return true, true
	case "0", "off", "false", "no":
		return false, true
	}
	return false, false
}

// modernTerminal is twwidth's isModernEnvironment: a terminal program or TERM
// known to draw box drawing and ambiguous runes one cell wide.
func modernTerminal(getenv func(string) string, goos string) bool {
	if modernName(strings.ToLower(getenv("TERM_PROGRAM"))) || getenv("TERM_PROGRAM_WSL") != "" {
		return true
	}
	term := strings.ToLower(getenv("TERM"))
	if goos == "windows" && (getenv("WT_PROFILE_ID") != "" || getenv("ConEmuANSI") == "ON" ||
		strings.Contains(term, "xterm") || strings.Contains(term, "vt")) {
		return true
	}
	if getenv("VTE_VERSION") != "" || getenv("ALACRITTY_LOG") != "" {
		return true
	}
	return modernName(term) || strings.Contains(term, "xterm") && !strings.Contains(term, "xterm-mono") ||
		strings.Contains(term, "screen") || strings.Contains(term, "tmux")
}

// modernName is twwidth's list of modern terminal programs and TERMs (a
// switch, not a map: nothing to build at start).
func modernName(s string) bool {
	switch s {
	case "vscode", "visual studio code", "iterm.app", "iterm2", "windows terminal", "windowsterminal",
		"alacritty", "kitty", "hyper", "tabby", "terminus", "fluentterminal", "warp", "ghostty", "rio",
		"jetbrains-jediterm", "xterm-kitty", "xterm-ghostty", "wezterm":
		return true
	}
	return false
}

// cjkLocale is twwidth's checkLocale: LC_ALL, else LC_CTYPE, else LANG,
// without encoding and modifier, names a Chinese, Japanese or Korean
// language, or a region whose fonts draw ambiguous runes wide.
func cjkLocale(getenv func(string) string) bool {
	loc := getenv("LC_ALL")
	if loc == "" {
		loc = getenv("LC_CTYPE")
	}
	if loc == "" {
		loc = getenv("LANG")
	}
	if loc == "" || loc == "C" || loc == "POSIX" {
		return false
	}
	if i := strings.IndexByte(loc, '.'); i >= 0 {
		loc = loc[:i]
	}
	if i := strings.IndexByte(loc, '@'); i >= 0 {
		loc = loc[:i]
	}
	loc = strings.ToLower(loc)
	for _, p := range []string{"zh", "ja", "ko", "chi", "zho", "jpn", "kor", "chinese", "japanese", "korean"} {
		if strings.HasPrefix(loc, p) {
			return true
		}
	}
	parts := strings.Split(loc, "_")
	for _, region := range parts[1:] {
		switch region {
		case "cn", "tw", "hk", "mo", "jp", "kr", "kp", "sg":
			return true
		}
	}
	return false
}
