package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestCLI runs every case of testdata/cli/*.txtar in-process. A case holds
//
//	-- args --       the command line, split on spaces; $WORK is the case's directory
//	-- stdin --      optional standard input
//	-- stdin-file -- optional: a file whose bytes are standard input
//	-- copy --       optional: lines "SRC DST" copying SRC to $WORK/DST
//	-- mkdir --      optional: directories to make under $WORK, one a line
//	-- symlink --    optional: lines "TARGET LINK" making $WORK/LINK point to TARGET
//	-- cwd --        optional: "work" runs the command in $WORK (for aligned tables)
//	-- width --      optional: the columns of the terminal stdout and stderr
//	                 are (none: a file or a pipe)
//	-- NAME --       any other section is a file written to $WORK/NAME
//	-- stdout --     the expected standard output
//	-- stderr --     the expected standard error
//	-- exit --       the expected exit code
//	-- lacks --      optional: regular expressions, one a line, that neither
//	                 output may match (what must never be said, whatever -update writes)
//
// Paths without $WORK are relative to this package (testdata/logs/…). With
// -update, stdout, stderr and exit are rewritten from what the command does:
// read the diff before committing it.
func TestCLI(t *testing.T) {
	cases, _ := filepath.Glob("testdata/cli/*.txtar")
	if len(cases) == 0 {
		t.Fatal("no CLI cases")
	}
	for _, path := range cases {
		path, _ := filepath.Abs(path) // the case may run in $WORK
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			work := t.TempDir()
			sections := map[string]string{}
			for _, f := range ar.Files {
				switch f.Name {
				case "args", "stdin", "stdin-file", "copy", "mkdir", "symlink", "cwd", "width", "stdout", "stderr", "exit", "lacks":
					sections[f.Name] = string(f.Data)
				default:
					os.MkdirAll(filepath.Dir(filepath.Join(work, f.Name)), 0o755)
					if err := os.WriteFile(filepath.Join(work, f.Name), f.Data, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			for _, line := range strings.Split(strings.TrimSpace(sections["copy"]), "\n") {
				if src, dst, ok := strings.Cut(strings.TrimSpace(line), " "); ok {
					data, err := os.ReadFile(src) // relative to the package, before any chdir
					if err != nil {
						t.Fatal(err)
					}
					dst = filepath.Join(work, strings.TrimSpace(dst))
					os.MkdirAll(filepath.Dir(dst), 0o755)
					if err := os.WriteFile(dst, data, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			for _, dir := range strings.Fields(sections["mkdir"]) {
				os.MkdirAll(filepath.Join(work, dir), 0o755)
			}
			for _, line := range strings.Split(strings.TrimSpace(sections["symlink"]), "\n") {
				if target, link, ok := strings.Cut(strings.TrimSpace(line), " "); ok {
					link = filepath.Join(work, link)
					os.MkdirAll(filepath.Dir(link), 0o755)
					if err := os.Symlink(target, link); err != nil {
						t.Fatal(err)
					}
				}
			}
			args := strings.Fields(strings.ReplaceAll(sections["args"], "$WORK", work))
			stdin := []byte(sections["stdin"])
			if f := strings.TrimSpace(sections["stdin-file"]); f != "" {
				if stdin, err = os.ReadFile(f); err != nil {
					t.Fatal(err)
				}
			}
			if strings.TrimSpace(sections["cwd"]) == "work" {
				t.Chdir(work)
			}
			var stdout, stderr bytes.Buffer
			width, _ := strconv.Atoi(strings.TrimSpace(sections["width"]))
			code := runOn(args, bytes.NewReader(stdin), &stdout, &stderr, width, width)
			got := map[string]string{
				"stdout": strings.ReplaceAll(stdout.String(), work, "$WORK"),
				"stderr": strings.ReplaceAll(stderr.String(), work, "$WORK"),
				"exit":   strconv.Itoa(code) + "\n",
			}
			for _, line := range strings.Split(strings.TrimSpace(sections["lacks"]), "\n") {
				if line = strings.TrimSpace(line); line == "" {
					continue
				}
				re, err := regexp.Compile(line)
				if err != nil {
					t.Fatalf("lacks: %v", err)
				}
				for _, name := range []string{"stdout", "stderr"} {
					if m := re.FindString(got[name]); m != "" {
						t.Errorf("%s says %q (lacks %s)", name, m, line)
					}
				}
			}
			if *update {
				for i, f := range ar.Files {
					if v, ok := got[f.Name]; ok {
						ar.Files[i].Data = []byte(v)
						delete(got, f.Name)
					}
				}
				for _, name := range []string{"stdout", "stderr", "exit"} {
					if v, ok := got[name]; ok {
						ar.Files = append(ar.Files, txtar.File{Name: name, Data: []byte(v)})
					}
				}
				if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			for _, name := range []string{"stdout", "stderr", "exit"} {
				if got[name] != sections[name] {
					t.Errorf("%s differs:\n--- got ---\n%s\n--- want ---\n%s", name, got[name], sections[name])
				}
			}
		})
	}
}
