package main

import (
	"fmt"
	"io"
	"os"

	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/sweep"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress tells the user, on stderr, how far a study has got: a bar with
// the current point and an ETA on a terminal, one line per finished point
// elsewhere (a log file or CI has no use for a redrawn bar).
type progress struct {
	w     io.Writer
	total int
	bar   *progressbar.ProgressBar // nil when w is not a terminal
}

func newProgress(w io.Writer, total int) *progress {
	p := &progress{w: w, total: total}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(w),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionSetWidth(24),
			progressbar.OptionFullWidth(),
			progressbar.OptionThrottle(0),
		)
	}
	return p
}

// start shows the point about to be measured.
func (p *progress) start(done int, s sweep.Spec, rep, count int) {
	if p.bar == nil {
		return
	}
	desc := fmt.Sprintf("%s cpus=%d", s.Mode, s.CPUs)
	if count > 1 {
		desc += fmt.Sprintf(" (round %d of %d)", rep, count)
	}
	p.bar.Describe(desc)
}

// done records a finished point.
func (p *progress) done(done int, pt results.Point) {
	if p.bar != nil {
		p.bar.Set(done)
		return
	}
	rep := ""
	if pt.Rep > 0 {
		rep = fmt.Sprintf(" rep %d", pt.Rep)
	}
	fmt.Fprintf(p.w, "[%d/%d] %s cpus=%d%s: %.1f %s, p50 %.2f ms\n",
		done, p.total, pt.Mode, pt.CPUs, rep, pt.Throughput, pt.Unit, pt.Latency.P50)
}

// finish clears the bar, so that what follows starts on a clean line.
func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Clear()
		p.bar.Exit()
	}
}
