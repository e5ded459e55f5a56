package lessons

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/brewput/brewput/internal/base/atomicfile"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results/lesson"
)

// Output is where a run's verdicts go: JSON Lines as each is reached (to
// stdout, or a file made at the first), or the table at the end.
type Output struct {
	stdout, stderr io.Writer
	json           bool             // JSON Lines, else the table
	path           string           // "" for stdout
	file           *os.File         // the JSON Lines file, once the first verdict is in
	table          *atomicfile.File // the table's file, written whole at the end
}

// NewOutput checks, before anything is measured, that the verdicts can be
// written to path ("" for stdout); stderr gets the tally at the end.
func NewOutput(stdout, stderr io.Writer, path string, json bool) (*Output, error) {
	w := &Output{stdout: stdout, stderr: stderr, json: json, path: path}
	if path == "" {
		return w, nil
	}
	probe, err := atomicfile.Create(path)
	if err != nil {
		return nil, err
	}
	if json {
		probe.Discard() // the file itself is created with the first verdict
	} else {
		w.table = probe
	}
	return w, nil
}

// Emit writes r as a JSON line as soon as it is reached; the table waits
// for Finish. The error of creating the file is os.Create's, unwrapped.
func (w *Output) Emit(r lesson.Result) error {
	if !w.json {
		return nil
	}
	var dst io.Writer = w.stdout
	if w.path != "" {
		if w.file == nil {
			f, err := os.Create(w.path)
			if err != nil {
				return err
			}
			w.file = f
		}
		dst = w.file
	}
	if err := lesson.WriteJSON(dst, r); err != nil {
		return fmt.Errorf("write the verdict of %s: %w", r.Claim, err)
	}
	return nil
}

// Finish writes the table of rs, closes the files and, for JSON or a file,
// tells stderr the tally and where the verdicts went.
func (w *Output) Finish(rs []lesson.Result) error {
	var err error
	switch {
	case w.json:
		if w.file != nil {
			err = w.file.Close()
		}
	case w.table == nil:
		err = WriteTable(w.stdout, rs)
	case len(rs) == 0:
		w.table.Discard()
	default:
		if err = WriteTable(w.table, rs); err == nil {
			err = w.table.Commit()
		} else {
			w.table.Discard()
		}
	}
	if err != nil {
		return fmt.Errorf("write the verdicts: %w", err)
	}
	if w.json || w.path != "" {
		fmt.Fprintln(w.stderr, lesson.Tally(rs))
	}
	if w.path != "" && len(rs) > 0 {
		fmt.Fprintf(w.stderr, "verdicts: %s\n", w.path)
	}
	return nil
}

// RunTelling is Run, telling log what it measures (claims, level, the
// time it takes at most, host, CPUs) and each verdict as it comes ("[2/9]
// …", see Line), with the time left, never more than the limit leaves.
func RunTelling(ctx context.Context, claims []Claim, opt Options, log io.Writer, emit func(lesson.Result) error) ([]lesson.Result, error) {
	host, _ := os.Hostname()
	limit := opt.atMost()
	waits := ""
	if opt.QuietWait > 0 {
		waits = fmt.Sprintf(", and up to %v more a claim that waits for quiet", opt.QuietWait)
	}
	fmt.Fprintf(log, "measuring %d claims (%s run, at most %v%s) on %s, %d CPUs\n",
		len(claims), opt.Level, limit.Round(time.Second), waits, host, runtime.NumCPU())
	done, start := 0, time.Now()
	return Run(ctx, claims, opt, func(r lesson.Result) error {
		done++
		left := timeLeft(time.Since(start), done, len(claims)-done, limit-time.Since(start), opt.QuietWait > 0)
		line := fmt.Sprintf("[%d/%d] %s%s", done, len(claims), Line(r), left)
		fmt.Fprintln(log, format.Wrap(line, format.Width(log), "  "))
		return emit(r)
	})
}

// atMost is the time a run takes at most, as the user is told: its budget
// and the last claim's verdict; a wait for quiet (QuietWait) comes on top.
func (o Options) atMost() time.Duration {
	return o.budget() + pick(o.Level, 0, 5*time.Second, 30*time.Second)
}

// timeLeft says how long the claims left should take, at the rate seen
// so far (format.TimeLeft), but never more than the run's limit leaves
// (limitLeft): the claims left share the time to the deadline, so a slow
// first claim does not lengthen the run, it shortens theirs. Where claims
// may wait for quiet, the deadline moves by what they wait, and the rate
// alone is told.
func timeLeft(elapsed time.Duration, done, left int, limitLeft time.Duration, waits bool) string {
	s := format.TimeLeft(elapsed, done, left)
	if s == "" || waits || elapsed*time.Duration(left)/time.Duration(done) <= limitLeft {
		return s
	}
	return fmt.Sprintf(", at most %v left (the run's limit)", max(limitLeft, 0).Round(time.Second))
}

// WriteTable writes rs for people, the tally at the end: a row for each
// claim (its verdict, brewput's figure with its 95 % interval, the
// samples, the CPU counts, the CPUs other processes took over the samples
// kept / over all), under it the seed and the claim,
// the seed's figure, and what brewput measured, the claim's threshold and
// the reason for the verdict.
func WriteTable(w io.Writer, rs []lesson.Result) error {
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
		rows[i] = []string{r.Claim, verdict, r.FigureText(), strconv.Itoa(r.Figure.N), format.Ints(r.CPUs, ","), others}
	}
	// Where the six columns pass the width, a row keeps the claim and
	// its verdict, and the figures go on the first line under it.
	wide := rowsWidth(append([][]string{head}, rows...)) <= width
	if wide {
		t.Row(head...)
	} else {
		t.Row(head[:2]...)
	}
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
		under(fmt.Sprintf("brewput's: %s; the claim's side: %s; %s", r.Measures, r.RuleText(), r.Reason))
	}
	t.Line("")
	t.Line(format.Wrap(lesson.Tally(rs), width, ""))
	return t.Write(w)
}

// rowsWidth is how wide rows are laid out as a table: each column as wide
// as its widest cell, two spaces between.
func rowsWidth(rows [][]string) int {
	var widths []int
	for _, r := range rows {
		for i, c := range r {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	n := 0
	for _, w := range widths {
		n += w + 2
	}
	return n - 2
}

// Line says one result in a line, for progress: "talk/ideal-scales:
// reproduced, ×1.99 [1.97, 2.00] (claim ≥ ×1.70), cpus 1,2, others 0.05 CPUs".
func Line(r lesson.Result) string {
	s := fmt.Sprintf("%s: %s, %s (claim %s), cpus %s", r.Claim, r.Verdict, r.FigureText(), r.RuleText(), format.Ints(r.CPUs, ","))
	switch {
	case r.Model:
	case r.Error != "":
		s += ": " + r.Reason
	case r.Disturbed:
		s += fmt.Sprintf(", disturbed (others %.2f CPUs)", r.OthersAll)
	default:
		s += fmt.Sprintf(", others %.2f CPUs", r.Others)
	}
	return s
}
