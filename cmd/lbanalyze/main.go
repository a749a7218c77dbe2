// Command lbanalyze replays stop rules over the logs LLM agents wrote
// (ZorkGPT, ZorkGPT2, TALES, any per-step JSONL) and reports where each would
// have stopped an episode, what that saves and what it would have lost, and
// over a grid which setting to ship (README.md).
package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/lbanalyze/lbanalyze/internal/textout"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// env is what a command runs against, so that tests drive it in-process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// terminal is stderr as given, for the progress bar; stderr shows the
	// control characters of messages (a log's ids, a file's name) escaped.
	terminal io.Writer
	// width is the columns of the terminal stdout is, 0 when it is none (a
	// file, a pipe, a test): tables fit a terminal, and are whole elsewhere.
	width int
	// fit is what the tables of the output fit: the terminal's width.
	fit *textout.Fit
	// told are the messages tellOnce has written.
	told map[string]bool
}

// warnf writes a warning to stderr, on one line whatever its arguments hold
// (a key of a configuration file may hold a newline).
func (e *env) warnf(format string, args ...any) {
	fmt.Fprintf(e.stderr, "lbanalyze: warning: %s\n", textout.Printable(fmt.Sprintf(format, args...)))
}

// notef writes a note to stderr: what was done with a flag, not a problem.
func (e *env) notef(format string, args ...any) {
	fmt.Fprintf(e.stderr, "lbanalyze: note: %s\n", textout.Printable(fmt.Sprintf(format, args...)))
}

// Exit codes: every failure class carries its own.
const (
	exitOK      = 0
	exitFailure = 1 // nothing could be analysed, or output could not be written
	exitUsage   = 2 // bad flags, arguments or configuration
)

// exitError is an error with its exit code; the message is printed once, in run.
type exitError struct {
	code int
	err  error
	// laidOut: its newlines and tabs are its own layout (a list of flags
	// meant), not text of a file or a log, which is shown on one line.
	laidOut bool
	// said: what went wrong is already written to stdout (check's line):
	// the exit code alone is left to give.
	said bool
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func usageError(format string, args ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, args...)}
}

// laidOutUsage is usageError for a message laid out over lines of its own.
func laidOutUsage(format string, args ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, args...), laidOut: true}
}

func failure(format string, args ...any) error {
	return &exitError{code: exitFailure, err: fmt.Errorf(format, args...)}
}

// run is the whole program: it parses args, runs the command and maps its
// error to an exit code, printing the message in one place.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runOn(args, stdin, stdout, stderr, terminalWidth(stdout), terminalWidth(stderr))
}

// runOn is run with the columns of the terminals stdout and stderr are (0:
// none), which tests give.
func runOn(args []string, stdin io.Reader, stdout, stderr io.Writer, width, errWidth int) int {
	boundMemory()
	// Output is buffered (a table is written a cell at a time: one write
	// system call a line otherwise); whatever goes to stderr first flushes
	// it, so that a terminal shows both in the order they were written.
	terminal := stderr
	out := bufio.NewWriterSize(stdout, 64<<10)
	stderr = flushFirst{out, stderr}
	msgs := &outWriter{w: stderr, escape: true}
	if errWidth > 0 { // messages wrap to the terminal
		wrap := &lineWrapper{w: stderr, width: errWidth}
		msgs.w = wrap
		defer wrap.Flush()
	}
	defer msgs.Flush()
	e := &env{stdin: stdin, stdout: out, stderr: msgs, terminal: terminal, width: width, fit: &textout.Fit{Width: width}}
	root := newRootCmd(e)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(out)
	root.SetErr(stderr)
	err := root.Execute()
	if ferr := out.Flush(); ferr != nil && err == nil {
		err = failure("writing the output: %v", ferr)
	}
	if err == nil {
		return exitOK
	}
	code := exitUsage // what cobra itself reports is about the command line
	var ex *exitError
	if errors.As(err, &ex) {
		code = ex.code
	}
	if ex != nil && ex.said {
		return code
	}
	// Shown escaped, but for its tabs: cobra indents its "Did you mean this?"
	// suggestions with one.
	msg := err.Error()
	if ex != nil && !ex.laidOut {
		msg = textout.Printable(msg) // ours: one line, whatever a file or a log holds
	}
	for i, part := range strings.Split("lbanalyze: "+msg+"\n", "\t") {
		if i > 0 {
			msgs.Flush()
			io.WriteString(stderr, "\t")
		}
		io.WriteString(msgs, part)
	}
	if code == exitUsage {
		fmt.Fprintln(stderr, "Run 'lbanalyze --help' for usage.")
	}
	return code
}

// terminalWidth is the columns of w when it is a terminal, else 0.
func terminalWidth(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return 0
	}
	width, _, err := term.GetSize(int(f.Fd()))
	if err != nil {
		return 0
	}
	return width
}

// flushFirst writes to w after flushing out.
type flushFirst struct {
	out *bufio.Writer
	w   io.Writer
}

func (f flushFirst) Write(p []byte) (int, error) {
	f.out.Flush() // an error stays in out, and run reports it
	return f.w.Write(p)
}
