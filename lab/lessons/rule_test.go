package lessons

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results/lesson"
	"github.com/brewput/brewput/results/stats"
)

func TestDecide(t *testing.T) {
	inf := math.Inf(1)
	cases := []struct {
		rule   lesson.Rule
		lo, hi float64
		want   lesson.Verdict
	}{
		{lesson.AtLeast(1.7), 1.8, 2.0, lesson.Reproduced},
		{lesson.AtLeast(1.7), 1.7, 2.0, lesson.Reproduced}, // the threshold is the claim's
		{lesson.AtLeast(1.7), 1.2, 1.6, lesson.NotReproduced},
		{lesson.AtLeast(1.7), 1.6, 1.8, lesson.Inconclusive},
		{lesson.AtLeast(1.7), 1.6, 1.7, lesson.Inconclusive},
		{lesson.AtMost(1), 0.8, 0.99, lesson.Reproduced},
		{lesson.AtMost(1), 1.01, 1.2, lesson.NotReproduced},
		{lesson.AtMost(1), 0.9, 1.1, lesson.Inconclusive},
		{lesson.Between(360, 440), 390, 410, lesson.Reproduced},
		{lesson.Between(360, 440), 100, 200, lesson.NotReproduced},
		{lesson.Between(360, 440), 450, 500, lesson.NotReproduced},
		{lesson.Between(360, 440), 350, 400, lesson.Inconclusive},
		{lesson.Between(360, 440), 400, 450, lesson.Inconclusive},
		{lesson.Between(360, 440), 300, 500, lesson.Inconclusive}, // straddles both ends
		{lesson.AtLeast(1.7), -inf, inf, lesson.Inconclusive},     // no interval
		{lesson.AtLeast(1.7), 1.8, inf, lesson.Inconclusive},
		{lesson.AtLeast(1.7), math.NaN(), 2, lesson.Inconclusive},
	}
	for _, c := range cases {
		if got := c.rule.Decide(c.lo, c.hi); got != c.want {
			t.Errorf("%v.Decide(%v, %v) = %q, want %q", c.rule, c.lo, c.hi, got, c.want)
		}
	}
}

// TestVerdictOnSamples decides synthetic samples as Run does: a figure
// from their median's 95 % interval, then the rule.
func TestVerdictOnSamples(t *testing.T) {
	cases := []struct {
		name   string
		rule   lesson.Rule
		values []float64
		want   lesson.Verdict
		more   func(int) bool
	}{
		{"all above", lesson.AtLeast(1.7), []float64{1.98, 2.0, 1.95, 1.99, 2.01, 1.97}, lesson.Reproduced, zero},
		{"all below", lesson.AtLeast(1.7), []float64{1.2, 1.1, 1.25, 1.18, 1.3, 1.22}, lesson.NotReproduced, zero},
		{"one below, interval is min to max at n=6", lesson.AtLeast(1.7), []float64{1.98, 2.0, 1.6, 1.99, 2.01, 1.97}, lesson.Inconclusive, positive},
		{"five samples give no interval", lesson.AtLeast(1.7), []float64{1.98, 2.0, 1.95, 1.99, 2.01}, lesson.Inconclusive, func(n int) bool { return n == 1 }},
		{"centred on the threshold", lesson.AtMost(1), []float64{0.9, 1.1, 0.95, 1.05, 0.98, 1.02, 1.0}, lesson.Inconclusive, func(n int) bool { return n == -1 }},
		{"inside a band", lesson.Between(360, 440), []float64{398, 402, 404, 399, 401, 400}, lesson.Reproduced, zero},
		{"a band's interval reaching out", lesson.Between(0.8, 1.25), []float64{1.2, 1.14, 1.41, 1.19, 1.22, 1.2}, lesson.Inconclusive, positive},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := summarize(c.values)
			got := c.rule.Decide(f.Lo, f.Hi)
			if got != c.want {
				t.Errorf("samples %v: interval [%v, %v] against %v: %q, want %q", c.values, f.Lo, f.Hi, c.rule, got, c.want)
			}
			if more := c.rule.MoreRuns(f, stats.RunsForInterval()); !c.more(more) {
				t.Errorf("samples %v against %v: MoreRuns %d", c.values, c.rule, more)
			}
			if f.N != len(c.values) || len(f.Values) != len(c.values) {
				t.Errorf("figure of %d samples says n=%d with %d values", len(c.values), f.N, len(f.Values))
			}
		})
	}
}

func zero(n int) bool     { return n == 0 }
func positive(n int) bool { return n > 0 }

// TestMoreRuns checks the estimate: a side of the interval that reaches a
// distance a past the median, against a threshold at distance d, needs
// about n·(a/d)² samples in all.
func TestMoreRuns(t *testing.T) {
	f := lesson.Figure{Median: 2, Lo: 1.5, Hi: 2.1, N: 6}
	// The lower arm, 0.5, reaches past 1.75, at 0.25: 6·(0.5/0.25)² = 24 in all.
	if got := lesson.AtLeast(1.75).MoreRuns(f, 6); got != 18 {
		t.Errorf("MoreRuns = %d, want 18", got)
	}
	if got := lesson.AtLeast(1.4).MoreRuns(f, 6); got != 0 {
		t.Errorf("decided figure: MoreRuns = %d, want 0", got)
	}
	if got := lesson.AtLeast(2).MoreRuns(f, 6); got != -1 {
		t.Errorf("median on the threshold: MoreRuns = %d, want -1", got)
	}
	if got := lesson.AtLeast(1.999).MoreRuns(f, 6); got != -1 {
		t.Errorf("median next to the threshold: MoreRuns = %d, want -1 (beyond %d)", got, lesson.MaxMoreRuns)
	}
}

func TestRuleJSON(t *testing.T) {
	for _, r := range []lesson.Rule{lesson.AtLeast(1.7), lesson.AtMost(0.01), lesson.Between(360, 440)} {
		data, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var back lesson.Rule
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		if back != r {
			t.Errorf("%v → %s → %v", r, data, back)
		}
	}
	var r lesson.Rule
	if err := json.Unmarshal([]byte(`{"min": 2, "max": 1}`), &r); err == nil {
		t.Error("a rule whose min is above its max was read")
	}
}

func TestFormat(t *testing.T) {
	cases := []struct {
		got, want string
	}{
		{lesson.Result{Rule: lesson.AtLeast(1.7), Unit: lesson.Ratio}.RuleText(), "≥ ×1.70"},
		{lesson.Result{Rule: lesson.AtMost(0.01), Unit: lesson.Share}.RuleText(), "≤ 1.00 %"},
		{lesson.Result{Rule: lesson.Between(360, 440), Unit: lesson.Ms}.RuleText(), "360 to 440 ms"},
		{lesson.Result{Rule: lesson.Between(0.8, 1.25), Unit: lesson.Ratio}.RuleText(), "×0.80 to ×1.25"},
		{text.LessonFigure(lesson.Result{Figure: lesson.Figure{Median: 1.99, Lo: 1.97, Hi: 2, N: 6}, Unit: lesson.Ratio, Model: false}), "×1.99 [1.97, 2.00]"},
		{text.LessonFigure(lesson.Result{Figure: lesson.Figure{Median: 0.834, Lo: 0.73, Hi: 0.9, N: 6}, Unit: lesson.Share, Model: false}), "83.4 % [73.0, 90.0]"},
		{text.LessonFigure(lesson.Result{Figure: lesson.Figure{Median: 402, Lo: math.Inf(-1), Hi: math.Inf(1), N: 2}, Unit: lesson.Ms, Model: false}), "402 ms (n=2: too few for an interval)"},
		{text.LessonFigure(lesson.Result{Figure: exact(1000), Unit: lesson.Lattes, Model: true}), "1000 lattes/s (model, exact)"},
		{text.LessonFigure(lesson.Result{Figure: summarize(nil), Unit: lesson.Ratio, Model: false}), "no sample"},
		{lesson.FormatValue(0.0061, ""), "0.0061"},
		{lesson.FormatValue(15.8, ""), "15.8"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestResultJSON(t *testing.T) {
	rs := []lesson.Result{
		{Claim: "talk/a", Seed: "s.txt", Text: "x", Unit: lesson.Ratio, Rule: lesson.AtLeast(1.7), CPUs: []int{1, 2},
			Figure: summarize([]float64{1.9, 2}), Verdict: lesson.Inconclusive, MoreRuns: 4},
		{Claim: "talk/b", Seed: "s.txt", Text: "y", Unit: lesson.Ms, Rule: lesson.Between(360, 440), CPUs: []int{6}, Model: true, Sched: "fifo",
			Figure: exact(400), Verdict: lesson.Reproduced},
		{Claim: "talk/c", Rule: lesson.AtMost(1), Figure: summarize(nil), Verdict: lesson.Inconclusive, Error: "failed"},
	}
	var b bytes.Buffer
	for _, r := range rs {
		if err := lesson.WriteJSON(&b, r); err != nil {
			t.Fatal(err)
		}
	}
	if n := strings.Count(b.String(), "\n"); n != len(rs) {
		t.Fatalf("%d lines for %d results:\n%s", n, len(rs), b.String())
	}
	back, err := lesson.ReadJSON(&b)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range back {
		w := rs[i]
		if r.Claim != w.Claim || r.Rule != w.Rule || r.Verdict != w.Verdict || r.Figure.N != w.Figure.N ||
			!same(r.Figure.Lo, w.Figure.Lo) || !same(r.Figure.Hi, w.Figure.Hi) || !same(r.Figure.Median, w.Figure.Median) {
			t.Errorf("result %d read back as %+v, want %+v", i, r, w)
		}
	}
	if _, err := lesson.ReadJSON(strings.NewReader(`{"mode": "ideal"}`)); err == nil {
		t.Error("a results file's point was read as a lesson")
	}
}

// same is == where NaN equals NaN.
func same(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
