package main

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/spf13/pflag"

	"github.com/lbanalyze/lbanalyze/policy"
)

// docFiles are the documents whose examples and links are checked, relative
// to the repository's root: the README and every page of docs/.
func docFiles(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"README.md"}, docs...)
}

// TestDocExamples runs every example of the README and of docs/*.md. A
// ```console block whose first line is "$ lbanalyze ARGS" shows all the
// command prints; a plain ``` block that opens the same way shows an excerpt:
// each of its lines is a line the command prints, in order. The commands run
// in-process from the repository's root; with -update the blocks are
// rewritten from what they print (an excerpt's lines matched by their first
// table cell and cell count, else their first words) — read the diff. Every
// example reads what a clone holds: no page points beside the repository
// (../shared), which a user's clone does not have.
func TestDocExamples(t *testing.T) {
	t.Chdir("../..")
	for _, name := range docFiles(t) {
		t.Run(filepath.Base(name), func(t *testing.T) {
			if data, err := os.ReadFile(name); err == nil && strings.Contains(string(data), "../shared") {
				t.Errorf("%s points at ../shared, which a clone does not have", name)
			}
			n := checkExamples(t, name)
			if n == 0 && name == "README.md" {
				t.Fatal("README.md: no example found")
			}
			t.Logf("%s: examples run: %d", name, n)
		})
	}
}

// checkExamples runs the examples of one document, rewrites it with -update,
// and returns how many it ran.
func checkExamples(t *testing.T, name string) int {
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	rest := string(data)
	examples := 0
	for {
		i, open := nextBlock(rest)
		if i < 0 {
			out.WriteString(rest)
			break
		}
		out.WriteString(rest[:i+len(open)])
		rest = rest[i+len(open):]
		j := strings.Index(rest, "```\n")
		if j < 0 {
			t.Fatalf("%s: a code block is not closed", name)
		}
		block := rest[:j+len("```\n")]
		rest = rest[len(block):]
		cmd, want, _ := strings.Cut(strings.TrimSuffix(block, "```\n"), "\n")
		args, ok := strings.CutPrefix(cmd, "$ lbanalyze ")
		if !ok {
			out.WriteString(block)
			continue
		}
		examples++
		var stdout, stderr bytes.Buffer
		code := run(strings.Fields(args), strings.NewReader(""), &stdout, &stderr)
		got := stdout.String() + stderr.String()
		if code != 0 {
			t.Errorf("%s: %s: exit %d: %s", name, cmd, code, stderr.String())
		}
		switch {
		case open == "```\n":
			lines, err := excerpt(want, got, *update)
			if err != "" {
				t.Errorf("%s: the output of %q has changed: %s\n--- got ---\n%s", name, cmd, err, got)
			}
			want = lines
		case *update:
			want = got
		case got != want:
			t.Errorf("%s: the output of %q has changed:\n--- got ---\n%s--- %s ---\n%s", name, cmd, got, name, want)
		}
		out.WriteString(cmd + "\n" + want + "```\n")
	}
	if *update && out.String() != string(data) {
		if err := os.WriteFile(name, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return examples
}

// nextBlock finds the next code block that may hold an example: ```console
// or a plain ```, opening a line.
func nextBlock(s string) (int, string) {
	for from := 0; ; {
		i := strings.Index(s[from:], "```")
		if i < 0 {
			return -1, ""
		}
		i += from
		if i == 0 || s[i-1] == '\n' {
			for _, open := range []string{"```console\n", "```\n"} {
				if strings.HasPrefix(s[i:], open) {
					return i, open
				}
			}
		}
		// Another language, or a closing fence: go past its block.
		end := strings.Index(s[i+3:], "\n```")
		if end < 0 {
			return -1, ""
		}
		from = i + 3 + end + 4
	}
}

// excerpt checks that each line of want is a line of got, in order; with
// update it gives each the line of got it stands for instead (the next with
// its key), and an error only for a line it cannot place.
func excerpt(want, got string, update bool) (string, string) {
	gotLines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	var out []string
	k := 0
	for line := range strings.Lines(want) {
		line = strings.TrimSuffix(line, "\n")
		found := -1
		for i := k; i < len(gotLines); i++ {
			if gotLines[i] == line || update && excerptKey(gotLines[i]) == excerptKey(line) {
				found = i
				break
			}
		}
		if found < 0 {
			return want, "no line " + strconv.Quote(line) + " after the lines before it"
		}
		out = append(out, gotLines[found])
		k = found + 1
	}
	return strings.Join(out, "\n") + "\n", ""
}

// excerptKey names a line for -update: a table row by its first cell and
// its number of cells, another line by its first three words.
func excerptKey(line string) string {
	if cells := strings.Split(line, "│"); len(cells) > 2 {
		return strings.TrimSpace(cells[1]) + "/" + strconv.Itoa(len(cells))
	}
	words := strings.Fields(line)
	return strings.Join(words[:min(3, len(words))], " ")
}

// TestDocLinks checks every relative link of the README and of docs/*.md:
// the file it names exists, and a #fragment names a heading of that page as
// GitHub anchors it.
func TestDocLinks(t *testing.T) {
	t.Chdir("../..")
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for _, name := range docFiles(t) {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(prose(string(data)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, fragment, _ := strings.Cut(target, "#")
			if file == "" {
				file = name
			} else {
				file = filepath.Join(filepath.Dir(name), file)
			}
			if _, err := os.Stat(file); err != nil {
				t.Errorf("%s: a link to %s: %v", name, target, err)
				continue
			}
			if fragment == "" {
				continue
			}
			page, err := os.ReadFile(file)
			if err != nil {
				t.Errorf("%s: a link to %s: %v", name, target, err)
				continue
			}
			if !anchors(string(page))[fragment] {
				t.Errorf("%s: a link to %s: %s has no heading with that anchor", name, target, file)
			}
		}
	}
}

// TestDocCitations checks that every citation of a page of docs/ in the Go
// code, by file name and heading in quotes, names a page that exists and a
// heading of it (the heading's words as written, code marks left out; it may
// go on past them, as "Heading (branch x)").
func TestDocCitations(t *testing.T) {
	t.Chdir("../..")
	cite := regexp.MustCompile(`docs/([A-Za-z0-9_.-]+\.md)(?:,\s*(?://\s*)?"([^"\n]+)")?`) // a heading may follow on the comment's next line
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != "." || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range cite.FindAllStringSubmatch(string(src), -1) {
			page, err := os.ReadFile(filepath.Join("docs", m[1]))
			if err != nil {
				t.Errorf("%s: cites docs/%s: %v", path, m[1], err)
				continue
			}
			if m[2] != "" && !hasHeading(string(page), m[2]) {
				t.Errorf("%s: cites docs/%s, %q: no such heading", path, m[1], m[2])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// unfenced is a markdown page without its fenced code blocks.
func unfenced(page string) string {
	var b strings.Builder
	fenced := false
	for line := range strings.Lines(page) {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			b.WriteString(line)
		}
	}
	return b.String()
}

// prose is a markdown page without its code, fenced blocks and code spans,
// where a link is only text.
func prose(page string) string {
	var b strings.Builder
	for i, part := range strings.Split(unfenced(page), "`") {
		if i%2 == 0 {
			b.WriteString(part)
		}
	}
	return b.String()
}

// headings are the texts of a page's headings outside code blocks, without
// their code marks.
func headings(page string) []string {
	var hs []string
	for line := range strings.Lines(unfenced(page)) {
		if t := strings.TrimLeft(line, "#"); len(t) < len(line) && strings.HasPrefix(t, " ") {
			hs = append(hs, strings.ReplaceAll(strings.TrimSpace(t), "`", ""))
		}
	}
	return hs
}

// hasHeading reports whether a heading of the page begins with the words
// cited.
func hasHeading(page, cited string) bool {
	for _, h := range headings(page) {
		if strings.HasPrefix(h, cited) {
			return true
		}
	}
	return false
}

// anchors are the fragments GitHub gives a page's headings: lower case,
// letters, digits, '-' and '_' kept, spaces as '-', the rest left out, and
// a repeated anchor numbered -1, -2, ….
func anchors(page string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, h := range headings(page) {
		var b strings.Builder
		for _, r := range strings.ToLower(h) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteByte('-')
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			out[a+"-"+strconv.Itoa(n)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	return out
}

// TestFlagTables checks that the flag tables of docs/commands.md list
// every flag of every command, and no flag a command does not have. A
// command's flags are the rows "| `--flag` … |" of the section (## heading)
// that names the command in backquotes, e.g. "## `batch`: two rules over a
// dataset"; a row whose first cell links to policies.md's settings stands for
// the flags of that page's settings table, which lists every setting of the
// registry once (TestSettingsTable).
func TestFlagTables(t *testing.T) {
	data, err := os.ReadFile("../../docs/commands.md")
	if err != nil {
		t.Fatal(err)
	}
	var settings []string
	for _, row := range settingsTable(t) {
		settings = append(settings, row.flag)
	}
	documented := flagTables(string(data), settings)
	root := newRootCmd(&env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard})
	for _, cmd := range root.Commands() {
		name := cmd.Name()
		doc, ok := documented[name]
		if !ok {
			t.Errorf("docs/commands.md: no section names the %s command (a ## heading with `%s`)", name, name)
			continue
		}
		var have []string
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			if f.Name == "help" {
				return
			}
			have = append(have, f.Name)
			if !doc[f.Name] {
				t.Errorf("docs/commands.md: the %s command's flag table does not list --%s", name, f.Name)
			}
		})
		for f := range doc {
			if !slices.Contains(have, f) {
				t.Errorf("docs/commands.md: the %s command's flag table lists --%s, which it does not have", name, f)
			}
		}
	}
}

// settingsCell opens the first cell of a row of commands.md's flag tables
// that stands for every setting's flag.
const settingsCell = "[every setting's flag](policies.md#settings)"

// flagTables gives, for each command a ## section of the page names, the
// flags in the first cell of its tables' rows; settings are the flags a row
// linking to policies.md's settings stands for.
func flagTables(page string, settings []string) map[string]map[string]bool {
	heading := regexp.MustCompile("^## .*`([a-z]+)`")
	flag := regexp.MustCompile("`--([a-z-]+)")
	out := map[string]map[string]bool{}
	var cur map[string]bool
	for _, line := range strings.Split(page, "\n") {
		if strings.HasPrefix(line, "## ") {
			cur = nil
			if m := heading.FindStringSubmatch(line); m != nil {
				cur = map[string]bool{}
				out[m[1]] = cur
			}
			continue
		}
		if cur == nil || !strings.HasPrefix(line, "| `--") && !strings.HasPrefix(line, "| "+settingsCell) {
			continue
		}
		first := strings.SplitN(line, "|", 3)[1]
		for _, m := range flag.FindAllStringSubmatch(first, -1) {
			cur[m[1]] = true
		}
		if strings.HasPrefix(first, " "+settingsCell) {
			for _, f := range settings {
				cur[f] = true
			}
		}
	}
	return out
}

// settingsRow is a setting of docs/policies.md's settings table.
type settingsRow struct{ key, flag string }

// settingsTable is the settings table of docs/policies.md, "Settings": rows
// "| `key` … | `--flag` | default | policies | meaning |".
func settingsTable(t *testing.T) []settingsRow {
	t.Helper()
	data, err := os.ReadFile("../../docs/policies.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(data), "\n## Settings\n")
	section, _, _ = strings.Cut(section, "\n## ")
	row := regexp.MustCompile("^\\| `([a-z_]+)`[^|]*\\| `--([a-z-]+)` \\|")
	var rows []settingsRow
	for _, line := range strings.Split(section, "\n") {
		if m := row.FindStringSubmatch(line); m != nil {
			rows = append(rows, settingsRow{m[1], m[2]})
		}
	}
	return rows
}

// TestSettingsTable checks that docs/policies.md's settings table lists
// every setting of the registry with its flag, once, in the order tables
// show them (policy.Settings).
func TestSettingsTable(t *testing.T) {
	var want []settingsRow
	for _, s := range policy.Settings() {
		want = append(want, settingsRow{s.Key, s.Flag})
	}
	if got := settingsTable(t); !slices.Equal(got, want) {
		t.Errorf("docs/policies.md, \"Settings\": the table lists\n%v\nthe registry has\n%v", got, want)
	}
}

// TestInstallPath checks what `go install MODULE/cmd/lbanalyze@latest`, as the
// README says, needs: the module path it names, and no replace directive
// (go install refuses a module with one).
func TestInstallPath(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	module := regexp.MustCompile(`(?m)^module (\S+)`).FindSubmatch(mod)
	if module == nil {
		t.Fatal("go.mod has no module line")
	}
	want := "go install " + string(module[1]) + "/cmd/lbanalyze@latest"
	if !strings.Contains(string(readme), want) {
		t.Errorf("README: no %q", want)
	}
	if regexp.MustCompile(`(?m)^replace\b`).Match(mod) {
		t.Error("go.mod has a replace directive: go install ...@latest would refuse it")
	}
}
