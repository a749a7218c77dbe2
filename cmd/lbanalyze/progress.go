package main

import (
	"os"
	"time"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
	"golang.org/x/term"
)

// progressDelay is how long a phase runs before its bar shows: a quick
// phase shows nothing.
const progressDelay = 300 * time.Millisecond

// progress shows a phase of the work on stderr when it is a terminal, once
// it has lasted a moment: a bar of steps, or a spinner when steps is 0 (a
// phase of unknown length). It returns the step function and the end of the
// phase, which waits for the bar to go.
func (e *env) progress(name string, steps int) (step func(), end func()) {
	f, ok := e.terminal.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) || steps == 1 {
		return func() {}, func() {}
	}
	start := make(chan struct{})
	timer := time.AfterFunc(progressDelay, func() { close(start) })
	p := mpb.New(mpb.WithOutput(f), mpb.WithRenderDelay(start), mpb.WithWidth(40))
	var bar *mpb.Bar
	if steps > 1 {
		bar = p.AddBar(int64(steps), mpb.BarRemoveOnComplete(),
			mpb.PrependDecorators(decor.Name(name+" "), decor.CountersNoUnit("%d/%d")),
			mpb.AppendDecorators(decor.Percentage(decor.WCSyncSpace)))
	} else {
		bar = p.New(0, mpb.SpinnerStyle().PositionLeft(), mpb.BarWidth(2), mpb.BarRemoveOnComplete(),
			mpb.PrependDecorators(decor.Name(name+" ")), mpb.AppendDecorators(decor.Elapsed(decor.ET_STYLE_GO)))
	}
	return bar.Increment, func() {
		bar.SetTotal(-1, true) // a spinner, or a phase that ended early, completes here
		if timer.Stop() {
			close(start)
		}
		p.Wait()
	}
}
