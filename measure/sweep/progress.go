//go:build !js

package sweep

import (
	"fmt"
	"io"
	"os"
	"time"
	"unicode/utf8"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/measure/record"
	"github.com/brewput/brewput/results"
)

// Progress tells on w how far the measuring of a study has got: a bar with
// an ETA on a terminal, a line per point elsewhere.
type Progress struct {
	w       io.Writer
	words   Words
	count   int    // the study's rounds
	profile string // the study's folder of profiles, if any
	total   int
	done    int                      // points measured before, by a run cut short
	bar     *progressbar.ProgressBar // nil when w is not a terminal
	label   string                   // the label of the point being measured
	descs   []string                 // the bar's: the point being measured, longest first
	start   time.Time                // when this run began, for the time left
	ended   int                      // points this run has finished
	// perPoint is how long a point takes measured once, on average: the
	// time left if nothing is measured again.
	perPoint time.Duration
}

// Words says a sweep's plan, its points measured again and where their
// profiles went (report/text's SweepWords).
type Words interface {
	Measuring(results.Measuring) string
	Remeasure(results.Remeasure) string
	Profiles(results.Profiles) string
	// Interference says what took CPU from a disturbed point.
	Interference(results.Point) string
}

// NewProgress says how many points st measures, done of them already, and
// about how long that takes, and starts telling its progress on w.
func NewProgress[S Spec[S]](w io.Writer, words Words, st Batch[S], done int) *Progress {
	m := results.Measuring{Done: done, Left: st.Total() - done, Total: st.Total()}
	m.About = allPoints(st) * time.Duration(m.Left) / time.Duration(max(len(st.Specs), 1))
	// Points measured again on a busy machine (--noisy retry) take at most Most.
	if rt := st.Retry; rt.Attempts > 1 && m.Left > 0 {
		m.Most = m.About*time.Duration(rt.Attempts) + rt.Wait*time.Duration((rt.Attempts-1)*m.Left)
	}
	format.Lines(w, "")(words.Measuring(m))
	p := NewBar(w, words, st)
	p.done = done
	if p.bar != nil {
		p.bar.Set(done)
	}
	return p
}

// allPoints is how long st's points take measured once each.
func allPoints[S Spec[S]](st Batch[S]) time.Duration {
	var sum time.Duration
	for _, s := range st.Specs {
		sum += s.Duration()
	}
	return sum
}

// NewBar is NewProgress that says nothing first; words may be nil where
// st keeps no profiles.
func NewBar[S Spec[S]](w io.Writer, words Words, st Batch[S]) *Progress {
	p := &Progress{w: w, words: words, count: st.Count, profile: st.Profile, total: st.Total(), start: time.Now(),
		perPoint: allPoints(st) / time.Duration(max(len(st.Specs), 1))}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		// The times are the bar's description (describe), not its own.
		p.bar = progressbar.NewOptions(p.total,
			progressbar.OptionSetWriter(w),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(false),
			progressbar.OptionSetElapsedTime(false),
			progressbar.OptionShowDescriptionAtLineEnd(),
			progressbar.OptionSetWidth(24),
			progressbar.OptionFullWidth(),
			progressbar.OptionThrottle(0),
		)
	}
	return p
}

// Since makes the times p shows count from start, the run's, where p is
// shown later than the run began.
func (p *Progress) Since(start time.Time) *Progress {
	p.start = start
	return p
}

// describe shows the point being measured and the times, "finelocking
// cpus=2, 12s, about 40s left", within the terminal's width, as a wrapped
// line is not redrawn in place: the label is left out first, then the round.
func (p *Progress) describe() {
	elapsed := time.Since(p.start)
	times := elapsed.Round(time.Second).String() + p.timeLeft(elapsed, p.ended)
	// The bar's percentage, its ends, the count, and 10 columns of bar.
	room := format.Width(p.w) - len(fmt.Sprintf("100%% || (%d/%d) ", p.total, p.total)) - 10 - 1
	s := times
	for _, desc := range p.descs {
		s = desc + ", " + times
		if utf8.RuneCountInString(s) <= room {
			break
		}
	}
	p.bar.Describe(s)
}

// Start shows the point about to be measured, in round rep.
func (p *Progress) Start(e Entry, rep int) {
	p.label = e.Label
	if p.bar == nil {
		return
	}
	point := fmt.Sprintf("%s cpus=%d", e.Name, e.Load.CPUs)
	round := ""
	if p.count > 1 {
		round = fmt.Sprintf(" (round %d of %d)", rep, p.count)
	}
	p.descs = []string{point + round, point}
	if e.Label != "" {
		p.descs = append([]string{point + ", " + e.Label + round}, p.descs...)
	}
	p.describe()
}

// Say writes text between points, wrapped to the terminal, the bar
// cleared first and drawn again under the text.
func (p *Progress) Say(text string) {
	if p.bar != nil {
		p.bar.Clear()
	}
	format.Lines(p.w, "")(text)
	if p.bar != nil {
		p.describe()
	}
}

// Done records the last of the points measured so far.
func (p *Progress) Done(points []results.Point) {
	p.ended = len(points)
	if p.bar != nil {
		p.bar.Set(p.done + len(points))
		p.describe()
		return
	}
	pt := points[len(points)-1]
	rep := ""
	if p.label != "" {
		rep = ", " + p.label
	}
	if pt.Rep > 0 {
		rep += fmt.Sprintf(" rep %d", pt.Rep)
	}
	mark := ""
	switch {
	case pt.IsDisturbed() && p.words != nil:
		mark = " (disturbed: " + p.words.Interference(pt) + ")"
	case pt.IsDisturbed():
		mark = " (disturbed)"
	}
	format.Lines(p.w, "")(fmt.Sprintf("[%d/%d] %s cpus=%d%s: %s, p50 %s%s%s",
		p.done+len(points), p.total, pt.Mode, pt.CPUs, rep, format.Rate(pt.Throughput, pt.Unit), format.Wait(pt.Latency.P50), mark,
		p.timeLeft(time.Since(p.start), len(points))))
}

// timeLeft says the time left with ended points of this run finished in
// elapsed: at the rate so far, or the range from a quiet rest's to it.
func (p *Progress) timeLeft(elapsed time.Duration, ended int) string {
	left := p.total - p.done - ended
	return format.TimeLeftWithin(elapsed, ended, left, p.perPoint*time.Duration(left))
}

// Tick redraws the bar and its times between points, so that a point that
// takes long shows the work going on; lines say nothing between points.
func (p *Progress) Tick() {
	if p.bar != nil {
		p.describe()
	}
}

// Finish clears the bar and says where the points' profiles are, if any.
func (p *Progress) Finish(points []results.Point) {
	if p.bar != nil {
		p.bar.Clear()
		p.bar.Exit()
	}
	var last string
	n := 0
	for _, pt := range points {
		if pt.Profile != "" {
			last = pt.Profile
			n++
		}
	}
	if p.profile == "" || n == 0 {
		return
	}
	io.WriteString(p.w, p.words.Profiles(results.Profiles{Points: n, Dir: p.profile, Trace: last + record.TraceExt, Block: last + record.BlockExt}))
}
