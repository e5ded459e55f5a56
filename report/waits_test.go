package report

import (
	"bytes"
	"html/template"
	"strings"
	"testing"

	"github.com/brewput/brewput/results"
)

// profiledPoints are finelocking and linearpipe-0 on 1 and 2 CPUs, run
// with --profile, with the waits such a run reports, and points that must
// not show: a model's, and locking's, which was not profiled.
func profiledPoints() []results.Point {
	fine := func(cpus int, waits ...results.Wait) results.Point {
		return results.Point{Source: results.SourceMeasured, Spec: results.Spec{Mode: "finelocking", CPUs: cpus, Load: results.Load{Par: cpus}}, Ops: 500, Unit: "lattes/s",
			Host: results.Host{Name: "testhost"}, Profile: "prof/finelocking-" + string(rune('0'+cpus)) + "cpu", Waits: waits}
	}
	return []results.Point{
		fine(1),
		fine(2,
			results.Wait{Kind: "mutex", Site: "s.grinder.use(s.steps.grind()) in coffee.(*fineLocking).Brew at coffee/finelocking.go:25", Count: 200, TotalMs: 1550, PerOpMs: 3.1},
			results.Wait{Kind: "mutex", Site: "coffee.(*fineLocking).Brew at coffee/finelocking.go:26", Count: 30, TotalMs: 21, PerOpMs: 0.042},
			results.Wait{Kind: "other", Folded: 2, Under: 0.005, Count: 3, TotalMs: 0.5, PerOpMs: 0.001},
		),
		{Source: results.SourceModel, Spec: results.Spec{Mode: "finelocking", CPUs: 4}, Unit: "lattes/s",
			Waits: []results.Wait{{Kind: "mutex", Site: "x at y/z.go:1", TotalMs: 1, PerOpMs: 1}}},
		{Source: results.SourceMeasured, Spec: results.Spec{Mode: "locking", CPUs: 2, Load: results.Load{Par: 2}}, Unit: "lattes/s", Host: results.Host{Name: "testhost"}},
		{Source: results.SourceMeasured, Spec: results.Spec{Mode: "linearpipe-0", CPUs: 2, Load: results.Load{Par: 2}}, Ops: 490, Unit: "lattes/s", Host: results.Host{Name: "testhost"},
			Profile: "prof/linearpipe-0-2cpu", Waits: []results.Wait{
				{Kind: "chan receive", Site: "for t := range in { in coffee.stage at coffee/pipeline.go:36", Count: 1431, TotalMs: 1464, PerOpMs: 2.99},
				{Kind: "chan receive", Site: "<-o.ready in coffee.(*linearPipe).Brew at coffee/linearpipe.go:46", Count: 481, TotalMs: 1450, PerOpMs: 2.96},
			}},
	}
}

func TestWaitViews(t *testing.T) {
	t.Parallel()
	points := profiledPoints()
	views := waitViews(points, "finelocking")
	if len(views) != 2 {
		t.Fatalf("%d views of finelocking's waits, want one per CPU count measured (2): %+v", len(views), views)
	}
	two, one := views[0], views[1]
	if two.Label != "2 CPUs" || one.Label != "1 CPU" {
		t.Errorf("labels %q, %q; want the largest CPU count first, as 2 CPUs then 1 CPU", two.Label, one.Label)
	}
	if want := "customers waited 3.1 ms per latte on s.grinder.use(s.steps.grind()) (mutex, coffee/finelocking.go:25)"; two.Sentence != want {
		t.Errorf("sentence\n got %q\nwant %q", two.Sentence, want)
	}
	if two.Per != "latte" || two.Files != "prof/finelocking-2cpu" || two.More != 0 {
		t.Errorf("view %+v: want per latte, the files' base and no more sites", two)
	}
	wantRows := []waitRow{
		{On: "s.grinder.use(s.steps.grind())", Kind: "mutex", Where: "coffee.(*fineLocking).Brew, coffee/finelocking.go:25", Count: "200", Total: "1550 ms", PerOp: "3.1 ms"},
		{On: "coffee.(*fineLocking).Brew", Kind: "mutex", Where: "coffee/finelocking.go:26", Count: "30", Total: "21.0 ms", PerOp: "42 µs"},
		{On: "2 smaller sites, each under 0.5 % of the total", Kind: "other", Count: "3", Total: "0.50 ms", PerOp: "1.0 µs"},
	}
	if len(two.Rows) != len(wantRows) {
		t.Fatalf("rows %+v, want %+v", two.Rows, wantRows)
	}
	for i, w := range wantRows {
		if two.Rows[i] != w {
			t.Errorf("row %d:\n got %+v\nwant %+v", i, two.Rows[i], w)
		}
	}
	if one.Sentence != "no goroutine waited on a lock or a channel in the window" || len(one.Rows) != 0 {
		t.Errorf("a profiled point without waits reads %+v", one)
	}

	pipe := waitViews(points, "linearpipe-0")
	if len(pipe) != 1 || pipe[0].Sentence != "baristas waited 3.0 ms per latte on for t := range in { (chan receive, coffee/pipeline.go:36)" {
		t.Errorf("linearpipe-0's views: %+v", pipe)
	}
	if got := waitViews(points, "locking"); len(got) != 0 {
		t.Errorf("locking was not profiled, yet has views %+v", got)
	}
}

// TestWaitViewsRepetitionsAndMachines: one view per configuration, its
// first repetition, labelled with what tells it from the others.
func TestWaitViewsRepetitionsAndMachines(t *testing.T) {
	t.Parallel()
	var points []results.Point
	for _, host := range []string{"a", "b"} {
		for _, rep := range []int{2, 1, 3} {
			points = append(points, results.Point{Source: results.SourceMeasured, Spec: results.Spec{Mode: "multi-2", CPUs: 2, Load: results.Load{Par: 2}}, Rep: rep, Unit: "drinks/s",
				Host: results.Host{Name: host}, Profile: "p", Waits: []results.Wait{
					{Kind: "chan receive", Site: "useOne(s.grinders, s.steps.grind()) in coffee.(*multi).Brew at coffee/multi.go:38", Count: int64(rep), TotalMs: float64(rep), PerOpMs: 0.0008}}})
		}
	}
	points = append(points, results.Point{Source: results.SourceMeasured, Spec: results.Spec{Mode: "multi-2", CPUs: 2, Load: results.Load{Par: 2, Rate: 800}}, Unit: "drinks/s",
		Host: results.Host{Name: "a"}, Waits: []results.Wait{{Kind: "chan receive", Site: "for arrived := range queue { in harness.(*worker).serve at harness/run.go:120", TotalMs: 9, PerOpMs: 0.3}}})
	views := waitViews(points, "multi-2")
	if len(views) != 3 {
		t.Fatalf("%d views, want 3 (two hosts, and an open loop): %+v", len(views), views)
	}
	if views[0].Label != "2 CPUs, closed loop: one customer per CPU, repetition 1 of 3 on a" || views[1].Label != "2 CPUs, closed loop: one customer per CPU, repetition 1 of 3 on b" {
		t.Errorf("labels %q, %q", views[0].Label, views[1].Label)
	}
	if views[0].Rows[0].Count != "1" {
		t.Errorf("the view shows repetition with %s waits, want the first's (1)", views[0].Rows[0].Count)
	}
	if views[0].Sentence != "customers waited 800 ns per drink on useOne(s.grinders, s.steps.grind()) (chan receive, coffee/multi.go:38)" {
		t.Errorf("sentence %q", views[0].Sentence)
	}
	if want := "servers waited 0.30 ms per drink on for arrived := range queue { (chan receive, harness/run.go:120)"; views[2].Sentence != want {
		t.Errorf("open loop sentence\n got %q\nwant %q", views[2].Sentence, want)
	}
}

// TestWaitsTemplate renders the views as the page does, and the hint when
// there are none.
func TestWaitsTemplate(t *testing.T) {
	t.Parallel()
	tmpl, err := template.New("report").ParseFS(templates, "*.html.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	render := func(data []waitView) string {
		t.Helper()
		var b bytes.Buffer
		if err := tmpl.ExecuteTemplate(&b, "waits", data); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	points := profiledPoints()
	html := render(waitViews(points, "finelocking"))
	for _, want := range []string{
		"<details class=\"waits\" open>", "<strong>2 CPUs</strong>: customers waited 3.1 ms per latte on s.grinder.use(s.steps.grind()) (mutex, coffee/finelocking.go:25)",
		"<th>per latte</th>", "<code>s.grinder.use(s.steps.grind())</code>", "<td>1550 ms</td>",
		"go tool pprof -top prof/finelocking-2cpu.block.pprof", "<strong>1 CPU</strong>: no goroutine waited",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the waits section does not hold %q:\n%s", want, html)
		}
	}
	if strings.Count(html, " open>") != 1 {
		t.Errorf("want only the first view open:\n%s", html)
	}
	if pipe := render(waitViews(points, "linearpipe-0")); !strings.Contains(pipe, "<code>&lt;-o.ready</code>") {
		t.Errorf("a site's source is not escaped:\n%s", pipe)
	}
	for _, none := range [][]waitView{nil, waitViews(points, "locking")} {
		if got := render(none); !strings.Contains(got, "--profile DIR</code> (brewput run, or the main job) to see where goroutines waited.") || strings.Contains(got, "<table") {
			t.Errorf("without waits, the section reads:\n%s", got)
		}
	}
}
