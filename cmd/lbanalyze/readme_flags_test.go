package main

import (
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/lbanalyze/lbanalyze/policy"
)

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
