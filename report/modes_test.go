package report

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/brewput/brewput/experiment/limits"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// simulated predicts mode on each CPU count under fifo, with each
// point's causal profile, as brewput model does.
func simulated(t *testing.T, mode string, cpus ...int) []results.Point {
	t.Helper()
	var cfgs []model.Config
	for _, n := range cpus {
		cfg := model.DefaultConfig(n)
		cfg.Mode, cfg.Policy.Sched = mode, "fifo"
		cfgs = append(cfgs, cfg)
	}
	return profiled(t, cfgs)
}

// profiled is each configuration's point with its causal profile.
func profiled(t *testing.T, cfgs []model.Config) []results.Point {
	t.Helper()
	var ps []results.Point
	if err := limits.CausalProfiles(context.Background(), cfgs, limits.EveryRelief, func(_ int, pr *limits.CausalProfile, err error) error {
		if err == nil {
			ps = append(ps, pr.Point())
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return ps
}

// Each mode's section names what limits every point and shows the
// model's advice; the report's results carry the bottlenecks.
func TestModeSections(t *testing.T) {
	t.Parallel()
	points := append(simulated(t, "finelocking", 1, 2, 6), simulated(t, "locking", 1, 2)...)
	cfg := model.DefaultConfig(6)
	cfg.Mode, cfg.Policy.Sched = "finelocking", "fifo"
	advice, err := limits.Advise(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	a := answered(t, points)
	a.Advice = []*analysis.Advice{advice}
	before := *points[0].Bottleneck
	r, err := BuildWith(points, Options{Analysis: a})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(*points[0].Bottleneck, before) {
		t.Error("BuildWith changed the caller's points")
	}
	page := string(file(t, r, Index))
	for _, want := range []string{
		`id="modes"`, `id="mode-finelocking"`, `id="mode-locking"`,
		"The grinder held 100 % of the time, working 100 %", "The kitchen lock limits it", "kitchen lock held 100 % of the time",
		"What if?", "Best change: another copy of each machine (multi-2)", "<td class=\"text wrap\">multi-2</td>",
		"<summary><strong>finelocking</strong>: the grinder, the espresso machine and the steamer together from 6 CPUs; relieving them all at once",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// Advice only where given: locking's section has none.
	locking := page[strings.Index(page, `id="mode-locking"`):]
	if strings.Contains(locking[:strings.Index(locking, "</section>")], "What if?") {
		t.Error("locking's section shows advice that was not given")
	}
	back, err := results.ReadJSON(strings.NewReader(string(file(t, r, "results.json"))))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range back {
		if p.Bottleneck == nil || p.Bottleneck.Resource == "" || len(p.Bottleneck.Parts) == 0 || text.BottleneckText(p) == "" {
			t.Errorf("%s on %d CPUs: results.json has no bottleneck", p.Mode, p.CPUs)
		}
	}
}

func file(t *testing.T, r *Report, name string) []byte {
	t.Helper()
	for _, f := range r.Files {
		if f.Name == name {
			return f.Data
		}
	}
	t.Fatalf("report has no %s", name)
	return nil
}
