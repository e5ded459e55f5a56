package text

import (
	"slices"
	"strings"
	"testing"

	"github.com/brewput/brewput/coffee"

	"github.com/brewput/brewput/explain/verdict"

	"go.uber.org/goleak"

	"github.com/brewput/brewput/explain/analyze"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// bottleneck is a profile's verdict naming resources, with the best change.
func bottleneck(change string, gain float64, combined bool, rs ...string) *results.Bottleneck {
	// Named as the causal profile names them.
	nouns := map[string]string{"espresso": "espresso machine", "kitchen": "kitchen lock", "grinder": "grinder", "steamer": "steamer"}
	b := &results.Bottleneck{Resource: strings.Join(rs, "+"), Resources: rs, Gain: gain, Model: "model (fifo)"}
	for _, r := range rs {
		part := results.Part{Key: r, Noun: nouns[r], Count: 1}
		if strings.HasPrefix(r, "channel:") {
			part.Queue = "the " + r
		}
		b.Parts = append(b.Parts, part)
	}
	e := results.Experiment{Kind: "copy", Resources: rs, Gain: gain, Change: change} // its words as an older file keeps them
	if combined {
		b.Combined = &e
	} else {
		b.Experiments, b.Tier = []results.Experiment{e}, []int{0}
	}
	return b
}

// point is a closed-loop point of mode on cpus, one customer per CPU.
func point(model bool, mode string, cpus int, tput, p50 float64, b *results.Bottleneck) results.Point {
	p := results.Point{Source: results.SourceMeasured, Spec: results.Spec{Mode: mode, CPUs: cpus, Load: results.Load{Par: cpus}}, Throughput: tput, Unit: "lattes/s",
		Latency: results.Latency{P50: p50, P99: 2 * p50}, Bottleneck: b, Host: results.Host{Name: "box", Cores: 2}, Shop: &results.Shop{}}
	if model {
		p.Source, p.Sched = results.SourceModel, "go"
	}
	return p
}

// talk is the talk's picture: measured on 1 and 2 CPUs, predicted on 1 to
// 6; finelocking stops at its grinder from 4 CPUs, multi-2 scales, locking
// is held at its kitchen lock.
func talk() []results.Point {
	cpusB := func(n int) *results.Bottleneck {
		return bottleneck("one more CPU and one more customer", 1/float64(n), false, "cpus", "customers")
	}
	kitchen := bottleneck("the kitchen lock held for less: combining outside it", 0.3, false, "kitchen")
	grinder := bottleneck("another grinder", 0.07, false, "grinder")
	var ps []results.Point
	for _, model := range []bool{false, true} {
		top := 2
		if model {
			top = 6
		}
		for n := 1; n <= top; n++ {
			f, fb := 250*float64(n), cpusB(n)
			if n >= 4 {
				f, fb = 930, grinder
			}
			ps = append(ps,
				point(model, "locking", n, 250, 4*float64(n), kitchen),
				point(model, "finelocking", n, f, 4, fb),
				point(model, "multi-2", n, 250*float64(n), 4, cpusB(n)))
		}
	}
	return ps
}

func TestLimitOf(t *testing.T) {
	for _, c := range []struct {
		b           *results.Bottleneck
		class, name string
		scales      bool
	}{
		{nil, "unknown", "no causal profile", false},
		{bottleneck("x", 0.5, false, "cpus", "customers"), "cpus", "the CPUs and the customers together", true},
		{bottleneck("x", 0.5, false, "customers"), "customers", "the customers", true},
		{bottleneck("x", 0.1, false, "grinder#1", "grinder#2"), "grinder", "the grinder#1 and the grinder#2 together", false},
		{bottleneck("x", 0.5, true, "grinder", "espresso", "steamer"), "machines", "the grinder, the espresso machine and the steamer together", false},
		{bottleneck("x", 0.1, true, "grinder", "espresso", "steamer", "cpus", "customers"), "machines", "the grinder, the espresso machine, the steamer, the CPUs and the customers together", false},
		{bottleneck("x", 0.3, false, "kitchen"), "kitchen", "the kitchen lock", false},
		{bottleneck("x", 0.1, false, "channel:espresso"), "channel", "the channel:espresso", false},
		{bottleneck("", 0, false, "none"), "none", "nothing tried", false},
	} {
		l := verdict.LimitOf(c.b)
		if l.Class != c.class || LimitName(l.Of) != c.name || l.Scales() != c.scales {
			t.Errorf("verdict.LimitOf(%v) = %q %q scales %v; want %q %q %v", c.b, l.Class, LimitName(l.Of), l.Scales(), c.class, c.name, c.scales)
		}
	}
	// With: the CPUs or the customers bind with a machine, which the map
	// marks beside the machine's colour.
	for _, c := range []struct {
		resources []string
		with      bool
	}{{[]string{"grinder", "customers"}, true}, {[]string{"grinder", "espresso", "cpus"}, true}, {[]string{"cpus", "customers"}, false}, {[]string{"grinder"}, false}} {
		if l := verdict.LimitOf(bottleneck("x", 0.1, true, c.resources...)); l.With != c.with {
			t.Errorf("verdict.LimitOf of %q: With %v, want %v", c.resources, l.With, c.with)
		}
	}
	if l := verdict.LimitOf(bottleneck("a + b", 0.5, true, "grinder", "espresso")); l.Change == nil || ChangeText(*l.Change) != "a + b" || !l.Combined || l.Gain != 0.5 {
		t.Errorf("combined change: %+v", l)
	}
}

// TestVerdictOfTheTalk: the counts of interest are the most measured, the
// first wall the model predicts and the most predicted; the words say which
// figures are measured and which predicted, and every figure is the
// points'.
func TestVerdictOfTheTalk(t *testing.T) {
	v := verdict.Of(talk(), coffee.Declared{})
	var counts []int
	for _, c := range v.Counts {
		counts = append(counts, c.CPUs)
	}
	if !slices.Equal(counts, []int{2, 4, 6}) {
		t.Fatalf("counts of interest %v, want [2 4 6]", counts)
	}
	want := []string{
		"On 2 CPUs, measured on host box: every mode but locking makes 500 lattes/s at a median 4.00 ms; locking makes 250 (the kitchen lock).",
		"On 4 CPUs, predicted by the model (go): multi-2 makes the most, 1000 lattes/s at a median 4.00 ms; finelocking makes 930 (the grinder), locking 250 (the kitchen lock).",
		"On 6 CPUs, predicted by the model (go): multi-2 makes the most, 1500 lattes/s at a median 4.00 ms; finelocking makes 930 (the grinder), locking 250 (the kitchen lock).",
	}
	if got := Sentences(v); !slices.Equal(got, want) {
		t.Errorf("sentences\n got %q\nwant %q", got, want)
	}
	// Each mode's summary, as the answer and the page say it.
	says := ModeSummaries(analyze.Answer(talk(), coffee.Declared{}))
	for mode, want := range map[string]string{
		"finelocking": "the grinder from 4 CPUs; another grinder +7.0 % on 6 CPUs",
		"locking":     "the kitchen lock; the kitchen lock held for less: combining outside it +30 % on 6 CPUs",
		"multi-2":     "the CPUs and the customers together; one more CPU and one more customer +17 % on 6 CPUs",
	} {
		if says[mode] != want {
			t.Errorf("%s:\n got %q\nwant %q", mode, says[mode], want)
		}
	}
}

// TestVerdictMeasuredDisagrees: a measurement that falls short of the
// model's prediction says so, and one disturbed by other processes is
// counted as such.
func TestVerdictMeasuredDisagrees(t *testing.T) {
	ps := talk()
	for i, p := range ps {
		if !p.IsModel() && p.Mode == "multi-2" && p.CPUs == 2 {
			ps[i].Throughput = 400
			ps[i].OthersCPUs = 0.9
		}
	}
	s := Sentences(verdict.Of(ps, coffee.Declared{}))[0]
	for _, want := range []string{"finelocking makes the most, 500", "Not ranked, being disturbed: multi-2 400 lattes/s (the model predicts 500)", "1 of the 3 points measured here were disturbed"} {
		if !strings.Contains(s, want) {
			t.Errorf("%q lacks %q", s, want)
		}
	}
}

// TestDisturbedNeverWins: a disturbed measurement that makes the most is
// not crowned, and a count whose every measurement was disturbed ranks
// none, in the data and in the words.
func TestDisturbedNeverWins(t *testing.T) {
	ps := talk()
	for i, p := range ps {
		if !p.IsModel() && p.Mode == "locking" && p.CPUs == 2 {
			ps[i].Throughput = 900
			ps[i].OthersCPUs = 0.9
		}
	}
	c := verdict.Of(ps, coffee.Declared{}).Counts[0]
	if slices.Contains(c.Best, "locking") || len(c.Unranked) != 1 || c.Unranked[0].Mode != "locking" || c.Inconclusive != "" {
		t.Errorf("one disturbed mode: best %v, unranked %+v, inconclusive %q", c.Best, c.Unranked, c.Inconclusive)
	}
	if s := CountSentence(c); strings.Contains(s, "locking makes") || !strings.Contains(s, "Not ranked, being disturbed: locking 900 lattes/s") {
		t.Errorf("one disturbed mode: %q", s)
	}

	for i, p := range ps {
		if !p.IsModel() && p.CPUs == 2 {
			ps[i].OthersCPUs = 0.9
		}
	}
	c = verdict.Of(ps, coffee.Declared{}).Counts[0]
	if len(c.Best) != 0 || len(c.Rest) != 0 || len(c.Unranked) != 3 || c.Inconclusive != analysis.InconclusiveDisturbed {
		t.Errorf("every mode disturbed: best %v, rest %v, unranked %d, inconclusive %q", c.Best, c.Rest, len(c.Unranked), c.Inconclusive)
	}
	for _, s := range []string{CountSentence(c), CountHeadline(c, 80)} {
		if strings.Contains(s, "makes the most") || !strings.Contains(s, "inconclusive") || !strings.Contains(strings.ToLower(s), "all 3 points") {
			t.Errorf("every mode disturbed: %q", s)
		}
	}
}

// TestGridPrefersMeasurements: a cell measured and predicted shows the
// measurement; one series per mode and kind, the medians of repetitions.
func TestGridPrefersMeasurements(t *testing.T) {
	ps := talk()
	rep := point(false, "locking", 2, 150, 8, ps[3].Bottleneck)
	rep.Rep = 2
	ps[3].Rep = 1
	ps = append(ps, rep, point(false, "locking", 2, 200, 8, ps[3].Bottleneck))
	ps[len(ps)-1].Par = 7 // another load: another series, left out
	g := verdict.NewGrid(ps)
	c, ok := g.At("locking", 2)
	if !ok || c.Measured == nil || c.Model == nil || c.Shown() != c.Measured {
		t.Fatalf("locking on 2 CPUs: %+v", c)
	}
	if c.Measured.Reps != 2 || c.Measured.Throughput != 200 {
		t.Errorf("measured entry of 2 repetitions (250, 150): %d reps, median %v; want 2 and 200", c.Measured.Reps, c.Measured.Throughput)
	}
	if !slices.Equal(g.CPUs, []int{1, 2, 3, 4, 5, 6}) || !slices.Equal(g.Modes, []string{"locking", "finelocking", "multi-2"}) {
		t.Errorf("grid %v × %v", g.Modes, g.CPUs)
	}
}

// TestWriteAnswer: the talk's points as a terminal shows them: a line a
// count of interest, the modes by CPU counts with the measured counts
// apart from the predicted and the median latency where it changes, each
// mode's limit named once from where it starts with its best change, and
// which figures were disturbed.
func TestWriteAnswer(t *testing.T) {
	t.Setenv("COLUMNS", "80")
	ps := talk()
	for n := 1; n <= 6; n++ {
		ps = append(ps, point(true, "ideal", n, 260*float64(n), 4, nil))
	}
	ps[0].Disturbed = true // locking on 1 CPU, measured
	var b strings.Builder
	if err := WriteAnswer(&b, ps, analyze.Answer(ps, coffee.Declared{}), nil); err != nil {
		t.Fatal(err)
	}
	want := `On 2 CPUs (measured): finelocking and multi-2 make the most, 500 lattes/s.
On 4 CPUs (model): multi-2 makes the most, 1000 lattes/s.
On 6 CPUs (model): multi-2 makes the most, 1500 lattes/s.
                   measured      predicted by the model (go)
lattes/s               1      2    3     4     5     6  p50 ms
locking             250*    250  250   250   250   250  4.00–24.0
finelocking          250    500  750   930   930   930  4.00
multi-2              250    500  750  1000  1250  1500  4.00
ideal (data race)  (260)  (520)  780  1040  1300  1560  4.00
mode         limited by; the best change on 6 CPUs
locking      the kitchen lock; the kitchen lock held for less: combining outside
             it +30 %
finelocking  the grinder from 4 CPUs; another grinder +7.0 %
multi-2      the CPUs and the customers together; one more CPU and one more
             customer +17 %
ideal        no causal profile
* disturbed (1 of 6 points): other processes took CPU while it was measured.
(…) predicted: the mode was not measured on that count.
`
	if got := b.String(); got != want {
		t.Errorf("answer\n got:\n%s\nwant:\n%s", got, want)
	}
}

// TestAnswerPredictsPastTheMeasured: the answer's table gives the model's
// figures on the counts past the most measured; within them the
// measurements speak, in order of CPUs.
func TestAnswerPredictsPastTheMeasured(t *testing.T) {
	t.Setenv("COLUMNS", "80")
	ps := talk()
	for _, mode := range []string{"locking", "finelocking", "multi-2"} {
		ps = append(ps, point(false, mode, 4, 900, 4, nil))
	}
	var b strings.Builder
	if err := WriteAnswer(&b, ps, analyze.Answer(ps, coffee.Declared{}), nil); err != nil {
		t.Fatal(err)
	}
	if want := "\nlattes/s       1    2    4     5     6  p50 ms\n"; !strings.Contains(b.String(), want) {
		t.Errorf("the table's counts are not %q:\n%s", want, b.String())
	}
}

// TestVerdictEmpty: no shop points, no verdict.
func TestVerdictEmpty(t *testing.T) {
	lab := results.Point{Kind: results.KindLab, Lab: &results.Lab{Name: "workloads", Variant: "add/concurrent"}, Spec: results.Spec{Mode: "workloads/add/concurrent", CPUs: 1}}
	if v := verdict.Of([]results.Point{lab}, coffee.Declared{}); len(v.Counts) != 0 || len(v.Modes) != 0 {
		t.Errorf("verdict of a lab's point: %+v", v)
	}
	var b strings.Builder
	if err := WriteVerdict(&b, verdict.Of(nil, coffee.Declared{})); err != nil || b.Len() != 0 {
		t.Errorf("WriteText of nothing wrote %q, %v", b.String(), err)
	}
}

// TestRacyDesignIsAReference: ideal, whose lesson is its data race, makes
// the most yet is never named as what makes the most: it is said apart,
// as the CPUs' ceiling.
func TestRacyDesignIsAReference(t *testing.T) {
	ps := talk()
	for n := 1; n <= 6; n++ {
		ps = append(ps, point(true, "ideal", n, 260*float64(n), 4, nil))
	}
	for _, c := range verdict.Of(ps, coffee.Declared{}).Counts {
		if slices.Contains(c.Best, "ideal") {
			t.Errorf("on %d CPUs ideal among the best: %q", c.CPUs, CountSentence(c))
		}
		if c.CPUs == 6 && (!strings.HasPrefix(CountSentence(c), "On 6 CPUs, predicted by the model (go): multi-2 makes the most, 1500") ||
			!strings.Contains(CountSentence(c), "For reference, ideal makes 1560 lattes/s: it has a data race")) {
			t.Errorf("on 6 CPUs: %q", CountSentence(c))
		}
	}
}

// TestPredictionsCarryTheirBand: issue 57 saw the main job say "multi-2
// and multipipe-2 make the most, 1782–1822 lattes/s" of the model's 8 CPUs
// with no band. The sentence says the best modes' bands together; where
// any of them has none, it claims none.
func TestPredictionsCarryTheirBand(t *testing.T) {
	banded := func(mode string, tput, lo, hi float64) results.Point {
		p := point(true, mode, 8, tput, 4.4, bottleneck("another CPU", 0.1, false, "cpus"))
		p.Band = &results.Band{Throughput: [2]float64{lo, hi}, P50Ms: [2]float64{4.3, 4.5}}
		return p
	}
	ps := []results.Point{banded("multi-2", 1782, 1766, 1800), banded("multipipe-2", 1822, 1790, 1830)}
	s := Sentences(verdict.Of(ps, coffee.Declared{}))[0]
	if want := "makes 1782–1822 lattes/s (1766–1830 with the costs' uncertainty) at a median"; !strings.Contains(s, want) {
		t.Errorf("the sentence %q; want it to say %q", s, want)
	}
	ps[1].Band = nil
	if s := Sentences(verdict.Of(ps, coffee.Declared{}))[0]; strings.Contains(s, "uncertainty") {
		t.Errorf("one of the best without a band: the sentence %q claims a band for both", s)
	}
}

// TestCaveatsInTheAnswer: issue 54's blueprint of an empty critical
// section on 16 CPUs was answered "makes 6.6M ops/s" and "one more CPU
// and one more customer: +69 %" while the point's own caveat said to take
// the figure as rough, in the table's notes only. The answer says the
// model's note, briefly, where it states the figure, once for the modes
// sharing it, as a study's prediction does, and the best change says what
// figure its gain is from; a figure with no note gets neither.
func TestCaveatsInTheAnswer(t *testing.T) {
	rough := results.Caveat{Kind: results.CaveatShortHold, Resource: "mu", Under: 100}
	at := func(mode string, tput float64, cs ...results.Caveat) results.Point {
		p := point(true, mode, 16, tput, 0.0005, bottleneck("one more CPU and one more customer", 0.69, false, "cpus", "customers"))
		p.Unit, p.Caveats = "ops/s", cs
		return p
	}
	v := verdict.Of([]results.Point{at("a", 6.6e6, rough), at("b", 6.5e6, rough)}, coffee.Declared{})
	s := Sentences(v)
	if want := "The model takes its figures for a and b as rough: " + CaveatBrief(rough) + "."; len(s) == 0 || strings.Count(s[0], "as rough") != 1 || !strings.Contains(s[0], want) {
		t.Errorf("the count's sentence %q; want it to say once %q", s, want)
	}
	answer := func(ps []results.Point) string {
		var b strings.Builder
		if err := WriteAnswer(&b, ps, analyze.Answer(ps, coffee.Declared{}), nil); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	if want, got := "+69 % (from a rough figure)", answer([]results.Point{at("a", 6.6e6, rough), at("b", 6.5e6, rough)}); !strings.Contains(strings.Join(strings.Fields(got), " "), want) {
		t.Errorf("the answer %q; want its best change to say %q", got, want)
	}
	// A mode that makes less: its note where its figure is said, in
	// full, not in the headline, which names the best alone.
	c := verdict.Of([]results.Point{at("a", 6.6e6), at("b", 2e6, rough)}, coffee.Declared{}).Counts[0]
	if full, head := CountSentence(c), CountHeadline(c, 200); !strings.Contains(full, "its figure for b as rough") || strings.Contains(head, "rough") {
		t.Errorf("a rough figure below the best: the sentence %q, the headline %q; want the note in the first alone", full, head)
	}
	// A study's prediction says it of each variant's figure alike.
	pr := analysis.Prediction{Sched: "go", CPUs: 64, At: []analysis.Predicted{
		{Variant: "mutex-read", Throughput: 5.8e6, Unit: "ops/s", Locked: true, Caveats: []results.Caveat{rough}},
		{Variant: "sharded-read", Throughput: 44e6, Unit: "ops/s", Locked: true}}}
	if got, want := PredictionSentences(pr)[0], "The model takes its figure for mutex-read as rough: "+CaveatBrief(rough)+"."; !strings.Contains(got, want) {
		t.Errorf("the prediction's sentence %q; want it to say %q", got, want)
	}
	lockstep := results.Caveat{Kind: results.CaveatLockstep, Idle: 3, Customers: 16, Each: 40}
	if want, got := "(from a figure not to trust)", answer([]results.Point{at("a", 6.6e6, rough, lockstep)}); !strings.Contains(strings.Join(strings.Fields(got), " "), want) {
		t.Errorf("the answer %q; want %q", got, want)
	}
	if got := answer([]results.Point{at("a", 6.6e6)}); strings.Contains(got, "rough") || strings.Contains(got, "trust") {
		t.Errorf("a figure without a caveat: the answer %q speaks of one", got)
	}
}
