package lessons

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/lesson"
	"github.com/brewput/brewput/results/stats"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// fake is a claim whose samples are values, in turn, and whose rule is
// rule; it measures nothing.
func fake(name string, rule lesson.Rule, values ...float64) Claim {
	return Claim{Name: name, Seed: "fake.txt", Text: "a fake claim", SeedFigure: "none", Measures: "values",
		Unit: lesson.Ratio, Rule: rule, CPUs: []int{1}, cost: 1,
		sample: func(_ context.Context, e Env) (float64, error) { return values[e.Index%len(values)], nil }}
}

// quietAlways is a machine where nothing else runs.
func quietAlways() func() float64 { return func() float64 { return 0 } }

func TestRunDecides(t *testing.T) {
	claims := []Claim{
		fake("f/yes", lesson.AtLeast(1.7), 1.9, 2, 1.95, 1.99, 2.01, 1.97),
		fake("f/no", lesson.AtLeast(1.7), 1.2, 1.1, 1.25),
		fake("f/maybe", lesson.AtMost(1), 0.9, 1.1, 0.95, 1.05, 0.98, 1.02),
	}
	var emitted []string
	rs, err := Run(context.Background(), claims, Options{Level: Quick, others: quietAlways}, func(r lesson.Result) error {
		emitted = append(emitted, r.Claim)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []lesson.Verdict{lesson.Reproduced, lesson.NotReproduced, lesson.Inconclusive}
	for i, r := range rs {
		if r.Verdict != want[i] {
			t.Errorf("%s: %q (%s), want %q", r.Claim, r.Verdict, text.LessonReason(r), want[i])
		}
		if err := follows(r); err != nil {
			t.Error(err)
		}
		wantN := 6 // decided, or up to 10 while inconclusive
		if r.Verdict == lesson.Inconclusive {
			wantN = 10
		}
		if r.Figure.N != wantN || r.Level != "quick" || r.Host.Cores == 0 {
			t.Errorf("%s: n=%d (want %d) level %q host %+v", r.Claim, r.Figure.N, wantN, r.Level, r.Host)
		}
	}
	if !slices.Equal(emitted, []string{"f/yes", "f/no", "f/maybe"}) {
		t.Errorf("emitted %v", emitted)
	}
	if rs[2].MoreRuns == 0 || !strings.Contains(text.LessonReason(rs[2]), "straddles") {
		t.Errorf("inconclusive without saying how many more runs: %d, %q", rs[2].MoreRuns, text.LessonReason(rs[2]))
	}
}

// TestRunFull: a full run takes 10 samples, and more, up to 20, while the
// claim is inconclusive.
func TestRunFull(t *testing.T) {
	claims := []Claim{
		fake("f/decided", lesson.AtLeast(1), 2),
		fake("f/undecided", lesson.AtMost(1), 0.9, 1.1),
	}
	rs, err := Run(context.Background(), claims, Options{Level: Full, others: quietAlways}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rs[0].Figure.N != 10 || rs[1].Figure.N != 20 {
		t.Errorf("samples: %d for a decided claim (want 10), %d for an undecided one (want 20)", rs[0].Figure.N, rs[1].Figure.N)
	}
}

// TestRunDisturbed: samples taken while other processes took more than
// results.DisturbedCPUs CPUs beyond what the claim leaves free (none, on a 1-CPU
// machine) are discarded, and a claim left without enough quiet ones says
// it was disturbed, and what it needs, whatever its figures.
func TestRunDisturbed(t *testing.T) {
	busy := func() func() float64 { return func() float64 { return 1.2 } }
	rs, err := Run(context.Background(), []Claim{fake("f/yes", lesson.AtLeast(1.7), 2)}, Options{Level: Quick, others: busy, cores: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := rs[0]
	if r.Verdict != lesson.Inconclusive || !r.Disturbed || r.Figure.N != 0 || r.Discarded == 0 || r.OthersAll < 1 {
		t.Errorf("busy machine: %+v", r)
	}
	if !strings.Contains(text.LessonReason(r), "disturbed") || !strings.Contains(text.LessonReason(r), "needs a machine where others take at most 0.2 CPUs") {
		t.Errorf("reason %q does not say disturbed, and what it needs", text.LessonReason(r))
	}

	// Every other sample disturbed: the quiet ones make the figure.
	n := 0
	alternate := func() func() float64 {
		n++
		busy := n%2 == 0
		return func() float64 {
			if busy {
				return 0.5
			}
			return 0.1
		}
	}
	rs, err = Run(context.Background(), []Claim{fake("f/yes", lesson.AtLeast(1.7), 2)}, Options{Level: Quick, others: alternate, cores: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r = rs[0]
	if r.Verdict != lesson.Reproduced || r.Disturbed || r.Figure.N != 6 || r.Discarded != 5 || r.Others > results.DisturbedCPUs {
		t.Errorf("half disturbed: %+v", r)
	}
	if err := follows(r); err != nil {
		t.Error(err)
	}
}

// TestRunBusyNeighbour: beside one busy process on 2 CPUs, a claim on 1
// CPU keeps its samples, the other CPU being free, and one on 2 discards
// them.
func TestRunBusyNeighbour(t *testing.T) {
	busy := func() func() float64 { return func() float64 { return 1.1 } }
	two := fake("f/two", lesson.AtLeast(1.7), 2)
	two.CPUs = []int{1, 2}
	if runtime.NumCPU() < 2 {
		two.CPUs = []int{1} // a claim on more CPUs than there are is not measured
	}
	rs, err := Run(context.Background(), []Claim{fake("f/one", lesson.AtLeast(1.7), 2), two}, Options{Level: Quick, others: busy, cores: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r := rs[0]; r.Verdict != lesson.Reproduced || r.Discarded != 0 || r.BusyLimit != 1+results.DisturbedCPUs {
		t.Errorf("1-CPU claim beside a busy process on 2 CPUs: %+v", r)
	}
	if r := rs[1]; runtime.NumCPU() >= 2 && (r.Verdict != lesson.Inconclusive || !r.Disturbed || r.BusyLimit != results.DisturbedCPUs) {
		t.Errorf("2-CPU claim beside a busy process on 2 CPUs: %+v", r)
	}
}

// TestRunQuietWait: with QuietWait, a discarded sample is followed by a
// wait for quiet below the claim's limit, the waits in all at most
// QuietWait; without it, there is none.
func TestRunQuietWait(t *testing.T) {
	calls := 0
	busyTwice := func() func() float64 {
		calls++
		busy := calls <= 2
		return func() float64 {
			if busy {
				return 1
			}
			return 0
		}
	}
	var asked []time.Duration
	var below float64
	wait := func(_ context.Context, wait time.Duration, b float64) (float64, time.Duration, error) {
		asked, below = append(asked, wait), b
		return 0, 300 * time.Millisecond, nil
	}
	rs, err := Run(context.Background(), []Claim{fake("f/a", lesson.AtLeast(1), 2)},
		Options{Level: Quick, others: busyTwice, cores: 1, waitQuiet: wait, QuietWait: 500 * time.Millisecond}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r := rs[0]; r.Verdict != lesson.Reproduced || r.Discarded != 2 || len(asked) != 2 || asked[0] != 500*time.Millisecond ||
		asked[1] != 200*time.Millisecond || below != results.DisturbedCPUs {
		t.Errorf("waits asked %v below %v; result %+v", asked, below, r)
	}
	calls, asked = 0, nil
	if _, err := Run(context.Background(), []Claim{fake("f/a", lesson.AtLeast(1), 2)},
		Options{Level: Quick, others: busyTwice, cores: 1, waitQuiet: wait}, nil); err != nil || len(asked) != 0 {
		t.Errorf("no QuietWait: waits asked %v, %v", asked, err)
	}
}

func TestRunFailures(t *testing.T) {
	broken := fake("f/broken", lesson.AtLeast(1), 2)
	broken.sample = func(context.Context, Env) (float64, error) { return 0, errors.New("wrong sum") }
	big := fake("f/big", lesson.AtLeast(1), 2)
	big.CPUs = []int{1, runtime.NumCPU() + 1}
	// Every other sample measures nothing (a busy machine left a point's
	// window empty): those are left out, not failures.
	empty := fake("f/empty", lesson.AtLeast(1), 2)
	empty.sample = func(_ context.Context, e Env) (float64, error) {
		if e.Index%2 == 1 {
			return ratio(1, 0, "an empty point")
		}
		return 2, nil
	}
	rs, err := Run(context.Background(), []Claim{broken, big, fake("f/fine", lesson.AtLeast(1), 2), empty}, Options{Level: Quick, others: quietAlways}, nil)
	if err == nil || !strings.Contains(err.Error(), "f/broken") {
		t.Errorf("a claim failed to measure: error %v", err)
	}
	if len(rs) != 4 {
		t.Fatalf("%d results, want all 4", len(rs))
	}
	if r := rs[3]; r.Verdict != lesson.Reproduced || r.Error != "" || r.Empty != 5 || r.Figure.N != 6 {
		t.Errorf("empty samples: %+v", r)
	}
	if rs[0].Verdict != lesson.Inconclusive || !strings.Contains(rs[0].Error, "wrong sum") {
		t.Errorf("broken: %+v", rs[0])
	}
	if rs[1].Verdict != lesson.Inconclusive || !strings.Contains(text.LessonReason(rs[1]), "CPUs") {
		t.Errorf("too big for the machine: %+v", rs[1])
	}
	if rs[2].Verdict != lesson.Reproduced {
		t.Errorf("fine: %+v", rs[2])
	}
	for _, r := range rs {
		if err := follows(r); err != nil {
			t.Error(err)
		}
	}
}

// TestRunOutOfTime: a claim whose time is up decides on the samples it
// has, and the run keeps its budget.
func TestRunOutOfTime(t *testing.T) {
	slow := fake("f/slow", lesson.AtLeast(1), 2)
	slow.sample = func(ctx context.Context, _ Env) (float64, error) {
		select {
		case <-time.After(40 * time.Millisecond):
			return 2, nil
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
	start := time.Now()
	rs, err := Run(context.Background(), []Claim{slow, slow}, Options{Level: Quick, Budget: 100 * time.Millisecond, others: quietAlways}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("a 100 ms budget took %v", d)
	}
	for _, r := range rs {
		if r.Verdict != lesson.Inconclusive || r.Figure.N >= 6 || !strings.Contains(text.LessonReason(r), "out of time") {
			t.Errorf("out of time: %+v", r)
		}
	}
}

// TestRunInterrupted: a cancelled run returns the results reached, and
// stops emitting.
func TestRunInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	second := fake("f/second", lesson.AtLeast(1), 2)
	second.sample = func(context.Context, Env) (float64, error) {
		cancel()
		return 0, context.Canceled
	}
	var emitted int
	rs, err := Run(ctx, []Claim{fake("f/first", lesson.AtLeast(1), 2), second, fake("f/third", lesson.AtLeast(1), 2)}, Options{Level: Quick, others: quietAlways},
		func(lesson.Result) error { emitted++; return nil })
	if !errors.Is(err, context.Canceled) || len(rs) != 1 || emitted != 1 {
		t.Errorf("interrupted at the second claim: %d results, %d emitted, error %v", len(rs), emitted, err)
	}

	stop := errors.New("disk full")
	_, err = Run(context.Background(), []Claim{fake("f/a", lesson.AtLeast(1), 2), fake("f/b", lesson.AtLeast(1), 2)}, Options{Level: Quick, others: quietAlways},
		func(lesson.Result) error { return stop })
	if !errors.Is(err, stop) {
		t.Errorf("emit failed: %v, want its error", err)
	}
}

func TestClaims(t *testing.T) {
	names := map[string]bool{}
	groups := map[string]string{}
	for _, c := range Claims(2) {
		if c.Name == "" || c.Seed == "" || c.Text == "" || c.SeedFigure == "" || c.Measures == "" || c.Unit == "" || len(c.CPUs) == 0 || c.sample == nil {
			t.Errorf("incomplete claim: %+v", c)
		}
		if names[c.Name] {
			t.Errorf("two claims named %s", c.Name)
		}
		names[c.Name] = true
		if seed, ok := groups[c.group()]; ok && seed != c.Seed {
			t.Errorf("group %s holds claims of %s and %s", c.group(), seed, c.Seed)
		}
		groups[c.group()] = c.Seed
		if strings.Contains(c.Text, "\n") || strings.Contains(c.SeedFigure, "\n") {
			t.Errorf("%s: its texts must be one line", c.Name)
		}
		if c.Model != (c.Sched != "") {
			t.Errorf("%s: model %v with policy %q", c.Name, c.Model, c.Sched)
		}
		if !c.Model && c.needs() > 2 {
			t.Errorf("%s needs %d CPUs on a machine of 2", c.Name, c.needs())
		}
	}
	if len(groups) != 5 {
		t.Errorf("claims of %d seeds, want the 5 seeds'", len(groups))
	}
	// A small machine is told it is too small; a big one measures the
	// talk's shop on up to its 6 CPUs.
	for _, c := range Claims(1) {
		if c.Name == "talk/ideal-scales" && !slices.Equal(c.CPUs, []int{1, 2}) {
			t.Errorf("on 1 CPU, ideal-scales uses %v", c.CPUs)
		}
	}
	for _, c := range Claims(64) {
		if c.Name == "talk/ideal-scales" && !slices.Equal(c.CPUs, []int{1, 6}) {
			t.Errorf("on 64 CPUs, ideal-scales uses %v", c.CPUs)
		}
	}
}

func TestSelect(t *testing.T) {
	all := Claims(2)
	got, err := Select(all, []string{"talk/overload", "journal"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) < 2 || got[0].Name != "talk/overload" {
		t.Errorf("selected %d claims, first %q", len(got), got[0].Name)
	}
	for _, c := range got[1:] {
		if c.group() != "journal" {
			t.Errorf("selected %s", c.Name)
		}
	}
	if got, _ := Select(all, nil); len(got) != len(all) {
		t.Errorf("no names selected %d of %d", len(got), len(all))
	}
	_, err = Select(all, []string{"talk/nonsense"})
	if err == nil || !strings.Contains(err.Error(), "talk/ideal-scales") || !strings.Contains(err.Error(), "journal") {
		t.Errorf("unknown name: %v; want the known names listed", err)
	}
}

// TestEveryClaim measures every claim at the tiny level, one sample each,
// and checks that each gets one of the three verdicts and that the
// verdict follows from its figure by the rule. Which verdict it is depends
// on the machine and its load, and is not checked.
func TestEveryClaim(t *testing.T) {
	if testing.Short() {
		t.Skip("measures every claim for a few seconds")
	}
	claims := Claims(runtime.NumCPU())
	// Every sample counts as quiet here, so that a busy machine does not
	// make the test retry; brewput's own tests of the command line (the
	// main job's --lessons) measure every claim with package quiet.
	opt := Options{Level: Tiny, Samples: 1, Budget: 30 * time.Second, others: quietAlways}
	rs, err := Run(context.Background(), claims, opt, nil)
	for _, r := range rs {
		if r.Error != "" {
			t.Errorf("%s: %s", r.Claim, r.Error)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != len(claims) {
		t.Fatalf("%d results for %d claims", len(rs), len(claims))
	}
	for _, r := range rs {
		switch r.Verdict {
		case lesson.Reproduced, lesson.NotReproduced, lesson.Inconclusive:
		default:
			t.Errorf("%s: verdict %q", r.Claim, r.Verdict)
		}
		if err := follows(r); err != nil {
			t.Error(err)
		}
		if r.Model && r.Verdict == lesson.Inconclusive {
			t.Errorf("%s: the model's exact figure %s is inconclusive", r.Claim, text.LessonFigure(r))
		}
		t.Log(text.LessonLine(r))
	}
	var b strings.Builder
	if err := text.WriteLessons(&b, rs); err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(b.String()), " ") // the lines under a row wrap
	for _, r := range rs {
		for _, s := range []string{r.Claim, r.Seed, r.Text, r.SeedFigure, text.LessonFigure(r), r.RuleText()} {
			if !strings.Contains(flat, strings.Join(strings.Fields(s), " ")) {
				t.Errorf("the table lacks %q", s)
			}
		}
	}
	if !strings.Contains(b.String(), text.LessonTally(rs)) {
		t.Errorf("the table lacks the tally")
	}
}

// TestRunSecondPass: a claim whose first samples are all disturbed hands
// its share on after giveUpAfter of them, takes more samples after the
// others, while time remains, and gets its verdict then; the results stay
// in the claims' order, emitted in the order reached.
func TestRunSecondPass(t *testing.T) {
	calls := 0
	busyFirst := func() func() float64 {
		calls++
		busy := calls <= giveUpAfter // the first claim's whole first pass
		return func() float64 {
			if busy {
				return 1
			}
			return 0
		}
	}
	var emitted []string
	rs, err := Run(context.Background(), []Claim{fake("f/a", lesson.AtLeast(1), 2), fake("f/b", lesson.AtLeast(1), 2)},
		Options{Level: Quick, others: busyFirst, cores: 1}, func(r lesson.Result) error {
			emitted = append(emitted, r.Claim)
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(emitted, []string{"f/b", "f/a"}) {
		t.Errorf("emitted %v, want f/b, then f/a after its second pass", emitted)
	}
	if rs[0].Claim != "f/a" || rs[0].Verdict != lesson.Reproduced || rs[0].Discarded != giveUpAfter || rs[0].Figure.N != 6 || rs[1].Verdict != lesson.Reproduced {
		t.Errorf("results %+v", rs)
	}
}

// TestChance: the second pass weighs a claim by the share of its samples
// kept, at least leastChance; one not yet sampled by its whole weight.
func TestChance(t *testing.T) {
	for _, tc := range []struct {
		attempts, kept int
		want           float64
	}{{0, 0, 1}, {10, 5, 0.5}, {4, 4, 1}, {18, 0, leastChance}, {20, 1, leastChance}} {
		st := &claimState{attempts: tc.attempts, values: make([]float64, tc.kept)}
		if got := st.chance(); got != tc.want {
			t.Errorf("%d kept of %d: chance %g, want %g", tc.kept, tc.attempts, got, tc.want)
		}
	}
}

// TestRunInterruptedWithPending: a claim left pending for a second pass is
// kept, as it stood, when the run is interrupted.
func TestRunInterruptedWithPending(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	calls := 0
	busyFirst := func() func() float64 {
		calls++
		busy := calls <= 18
		return func() float64 {
			if busy {
				return 1
			}
			return 0
		}
	}
	stop := fake("f/stop", lesson.AtLeast(1), 2)
	stop.sample = func(context.Context, Env) (float64, error) {
		cancel()
		return 0, context.Canceled
	}
	var emitted []string
	rs, err := Run(ctx, []Claim{fake("f/a", lesson.AtLeast(1), 2), stop}, Options{Level: Quick, others: busyFirst, cores: 1},
		func(r lesson.Result) error { emitted = append(emitted, r.Claim); return nil })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
	if len(rs) != 1 || rs[0].Claim != "f/a" || !rs[0].Disturbed || !slices.Equal(emitted, []string{"f/a"}) {
		t.Errorf("interrupted with f/a pending: results %+v, emitted %v", rs, emitted)
	}
}

// columns is a writer of a given width, as format.Width reads it.
type columns struct {
	strings.Builder
	n int
}

func (c *columns) Columns() int { return c.n }

// TestWriteTableFitsWidth: the table of verdicts fits 80 columns with the
// widest cells a run gives (a long claim, "inconclusive, disturbed", a
// figure with its reason), the figures under each row; where the six
// columns fit, they are columns.
func TestWriteTableFitsWidth(t *testing.T) {
	rs := []lesson.Result{
		{Claim: "talk/model-finelocking-limit", Seed: "talk.txt", Text: "a claim", SeedFigure: "1000", Measures: "lattes/s",
			Unit: lesson.Lattes, Rule: lesson.AtLeast(950), CPUs: []int{6}, Model: true, Figure: lesson.Figure{Median: 1000, N: 1}, Verdict: lesson.Reproduced},
		{Claim: "journal/actor-vs-mutex-grpc", Seed: "journal.txt", Text: "a claim", SeedFigure: "none", Measures: "a ratio",
			Unit: lesson.Ratio, Rule: lesson.AtLeast(1.2), CPUs: []int{1, 2}, Figure: lesson.Figure{Median: 21.6, Lo: math.Inf(-1), Hi: math.Inf(1), N: 5},
			Verdict: lesson.Inconclusive, Disturbed: true, Others: 0.08, OthersAll: 0.86},
	}
	for _, width := range []int{80, 160} {
		b := &columns{n: width}
		if err := text.WriteLessons(b, rs); err != nil {
			t.Fatal(err)
		}
		for line := range strings.Lines(b.String()) {
			if n := utf8.RuneCountInString(strings.TrimRight(line, "\n")); n > width {
				t.Errorf("at %d columns, a line of %d: %q", width, n, line)
			}
		}
		flat := strings.Join(strings.Fields(b.String()), " ")
		for _, r := range rs {
			if !strings.Contains(flat, text.LessonFigure(r)) || !strings.Contains(flat, r.Claim) {
				t.Errorf("at %d columns the table lacks %s's %q:\n%s", width, r.Claim, text.LessonFigure(r), b.String())
			}
		}
		if columned := strings.Contains(b.String(), "brewput [95 %]  "); columned != (width == 160) {
			t.Errorf("at %d columns, the figures in a column: %v\n%s", width, columned, b.String())
		}
	}
}

// follows checks that r's verdict follows from its figure by its rule, as
// Run decides: inconclusive for a figure disturbed, failed or of too few
// samples, else Rule.Decide of its interval.
func follows(r lesson.Result) error {
	want := r.Rule.Decide(r.Figure.Lo, r.Figure.Hi)
	if r.Disturbed || r.Error != "" || r.Figure.N == 0 || (!r.Model && r.Figure.N < stats.RunsForInterval()) {
		want = lesson.Inconclusive
	}
	if r.Verdict != want {
		return fmt.Errorf("%s: verdict %q, but the figure %s against %s gives %q", r.Claim, r.Verdict, text.LessonFigure(r), r.RuleText(), want)
	}
	return nil
}
