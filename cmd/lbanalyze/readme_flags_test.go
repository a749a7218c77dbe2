package main

import (
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// TestFlagTables checks that the flag tables of docs/commands.md list
// every flag of every command, and no flag a command does not have. A
// command's flags are the rows "| `--flag` … |" of the section (## heading)
// that names the command in backquotes, e.g. "## `batch`: two rules over a
// dataset".
func TestFlagTables(t *testing.T) {
	data, err := os.ReadFile("../../docs/commands.md")
	if err != nil {
		t.Fatal(err)
	}
	documented := flagTables(string(data))
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

// flagTables gives, for each command a ## section of the page names, the
// flags in the first cell of its tables' rows.
func flagTables(page string) map[string]map[string]bool {
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
		if cur == nil || !strings.HasPrefix(line, "| `--") {
			continue
		}
		first := strings.SplitN(line, "|", 3)[1]
		for _, m := range flag.FindAllStringSubmatch(first, -1) {
			cur[m[1]] = true
		}
	}
	return out
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
