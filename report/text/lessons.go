package text

import (
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/lesson"
)

// LessonsLog tells W what a run of claims measures and each verdict.
type LessonsLog struct{ W io.Writer }

// Start says what the run is about to measure.
func (l LessonsLog) Start(s lesson.Start) {
	waits := ""
	if s.QuietWait > 0 {
		waits = fmt.Sprintf(", and up to %v more a claim that waits for quiet", s.QuietWait)
	}
	fmt.Fprintf(l.W, "measuring %d claims (%s run, at most %v%s) on %s, %d CPUs\n",
		s.Claims, s.Level, s.AtMost.Round(time.Second), waits, s.Host, s.CPUs)
}

// Reached says a verdict, with the time left.
func (l LessonsLog) Reached(r lesson.Reached) {
	left := lessonsTimeLeft(r.Elapsed, r.Done, r.Total-r.Done, r.LimitLeft, r.Waits)
	line := fmt.Sprintf("[%d/%d] %s%s", r.Done, r.Total, LessonLine(r.Result), left)
	fmt.Fprintln(l.W, format.Wrap(line, format.Width(l.W), "  "))
}

// lessonsTimeLeft says how long the claims left should take at the rate
// seen so far, but never more than the run's limit leaves: a slow first
// claim shortens the others' time, not lengthens the run. Where claims
// may wait for quiet, the deadline moves, and the rate alone is told.
func lessonsTimeLeft(elapsed time.Duration, done, left int, limitLeft time.Duration, waits bool) string {
	s := format.TimeLeft(elapsed, done, left)
	if s == "" || waits || elapsed*time.Duration(left)/time.Duration(done) <= limitLeft {
		return s
	}
	return fmt.Sprintf(", at most %v left (the run's limit)", max(limitLeft, 0).Round(time.Second))
}

// WriteLessons writes rs for people: a row for each claim, under it the
// seed, the claim and the reason for the verdict; the tally at the end.
func WriteLessons(w io.Writer, rs []lesson.Result) error {
	width := format.Width(w)
	t := format.Table{Ragged: true, Width: width}
	head := []string{"claim", "verdict", "brewput [95 %]", "n", "cpus", "others"}
	rows := make([][]string, len(rs))
	for i, r := range rs {
		others := fmt.Sprintf("%.2f/%.2f", r.Others, r.OthersAll)
		switch {
		case r.Model:
			others = "model"
		case r.Figure.N == 0:
			others = fmt.Sprintf("–/%.2f", r.OthersAll)
		}
		verdict := string(r.Verdict)
		if r.Disturbed {
			verdict += ", disturbed"
		}
		rows[i] = []string{r.Claim, verdict, LessonFigure(r), strconv.Itoa(r.Figure.N), format.Ints(r.CPUs, ","), others}
	}
	// Where the six columns pass the width, the figures go under the row.
	wide := tableWidth(append([][]string{head}, rows...)...) <= width
	if !wide {
		head = head[:2]
	}
	t.Row(head...)
	for i, r := range rs {
		const indent = "    "
		under := func(s string) { t.Line(indent + format.Wrap(s, width-len(indent), indent+"  ")) }
		if c := rows[i]; wide {
			t.Row(c...)
		} else {
			t.Row(c[:2]...)
			figures := fmt.Sprintf("brewput [95 %%]: %s, n %s, cpus %s", c[2], c[3], c[4])
			if !r.Model {
				figures += ", others " + c[5] + " CPUs (the samples kept/all)"
			}
			under(figures)
		}
		under(fmt.Sprintf("%s: %s", r.Seed, r.Text))
		under("seed's figure: " + r.SeedFigure)
		if r.Correction != "" {
			under("brewput corrects: " + r.Correction)
		}
		under(fmt.Sprintf("brewput's: %s; the claim's side: %s; %s", r.Measures, r.RuleText(), LessonReason(r)))
	}
	t.Line("")
	t.Line(format.Wrap(LessonTally(rs), width, ""))
	return t.Write(w)
}

// LessonLine says one result in a line, for progress.
func LessonLine(r lesson.Result) string {
	s := fmt.Sprintf("%s: %s, %s (claim %s), cpus %s", r.Claim, r.Verdict, LessonFigure(r), r.RuleText(), format.Ints(r.CPUs, ","))
	switch {
	case r.Model:
	case r.Error != "":
		s += ": " + LessonReason(r)
	case r.Disturbed:
		s += fmt.Sprintf(", disturbed (others %.2f CPUs)", r.OthersAll)
	default:
		s += fmt.Sprintf(", others %.2f CPUs", r.Others)
	}
	return s
}

// LessonReason says why r has its verdict: r.Reason if read, else r.Why in words.
func LessonReason(r lesson.Result) string {
	if r.Reason != "" {
		return r.Reason
	}
	w, f := r.Why, r.Figure
	discarded := ""
	if r.Discarded > 0 {
		discarded = fmt.Sprintf("; %s discarded, taken while other processes took more than the %s allowed beside it (what its CPUs leave free of the machine's, and %.1f; %s on average over all)",
			format.Count(r.Discarded, "sample"), cpusText(r.BusyLimit), results.DisturbedCPUs, cpusText(r.OthersAll))
	}
	if r.Empty > 0 {
		discarded += fmt.Sprintf("; %s measured nothing in their window", format.Count(r.Empty, "sample"))
	}
	switch w.Kind {
	case lesson.WhyModel:
		return fmt.Sprintf("model (%s policy), exact: %s %s the claim's %s", r.Sched, lesson.FormatValue(f.Median, r.Unit), lessonSide(r.Verdict), r.RuleText())
	case lesson.WhyRace:
		return "not measured: this binary has the race detector, which stops the ideal mode, racy by design"
	case lesson.WhyCPUs:
		return fmt.Sprintf("needs %d CPUs; this machine has %d", w.Need, w.Have)
	case lesson.WhyFailed:
		return "failed to measure: " + r.Error
	case lesson.WhyDisturbed:
		return fmt.Sprintf("disturbed: %d quiet samples of the %d an interval needs%s; it needs a machine where others take at most %s, or a longer wait for one (lessons --quiet-wait)",
			f.N, w.Need, discarded, cpusText(r.BusyLimit))
	case lesson.WhyOutOfTime:
		return fmt.Sprintf("out of time after %s; an interval needs %d: it needs more time (lessons without --quick, or fewer claims with --only)", format.Count(f.N, "sample"), w.Need)
	case lesson.WhyTooFew:
		return fmt.Sprintf("%s: too few for an interval, which needs %d%s", format.Count(f.N, "sample"), w.Need, discarded)
	case lesson.WhyInterval:
		return fmt.Sprintf("the whole 95 %% interval %s the claim's %s%s", lessonSide(r.Verdict), r.RuleText(), discarded)
	case lesson.WhyOnThreshold:
		return fmt.Sprintf("the interval straddles the claim's %s and its median sits on the threshold: more samples are unlikely to tell%s", r.RuleText(), discarded)
	case lesson.WhyStraddles:
		return fmt.Sprintf("the interval straddles the claim's %s: about %d more samples would tell%s", r.RuleText(), r.MoreRuns, discarded)
	}
	return ""
}

// lessonSide says where a decided figure lies against the rule.
func lessonSide(v lesson.Verdict) string {
	switch v {
	case lesson.Reproduced:
		return "meets"
	case lesson.NotReproduced:
		return "misses"
	}
	return "straddles"
}

// LessonWords writes a run's verdicts for lessons.Output.
type LessonWords struct{}

// Table writes rs as WriteLessons does.
func (LessonWords) Table(w io.Writer, rs []lesson.Result) error { return WriteLessons(w, rs) }

// Reason is LessonReason.
func (LessonWords) Reason(r lesson.Result) string { return LessonReason(r) }

// Tally counts the verdicts in one line (LessonTally).
func (LessonWords) Tally(rs []lesson.Result) string { return LessonTally(rs) }
