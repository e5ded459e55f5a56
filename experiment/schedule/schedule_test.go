package schedule

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"go.uber.org/goleak"

	"github.com/brewput/brewput/coffee/coffeetest"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/resultstest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// span is the stretch the pictures show.
const span = Span

// TestFromModel: the model's finelocking on 6 CPUs, as the talk draws it:
// its grinder busy all the time, its CPUs two thirds.
func TestFromModel(t *testing.T) {
	cfg := model.DefaultConfig(6)
	cfg.Policy.Sched = "fifo"
	tl, err := FromModel(cfg, span)
	if err != nil {
		t.Fatal(err)
	}
	resultstest.CheckTimeline(t, tl)
	u := tl.Use()
	if u.Steps < 0.6 || u.Steps > 0.73 || len(u.Kinds) != 3 || u.Kinds[0].Kind != "grinder" || u.Kinds[0].Held < 0.95 {
		t.Errorf("use %+v; want the CPUs two thirds busy (4 of 6) and the grinder all the time", u)
	}
	if got := text.TimelineTitle(tl); got != "finelocking on 6 CPUs, model (fifo)" {
		t.Errorf("title %q", got)
	}
	var out strings.Builder
	if err := text.WriteTimelineText(&out, tl, 80); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	for _, l := range lines {
		if n := utf8.RuneCountInString(l); n > 80 {
			t.Errorf("a line of %d columns: %q", n, l)
		}
	}
	if len(lines) < 1+6+2 || !strings.HasPrefix(lines[1], "CPU 0 |") || !strings.Contains(out.String(), "G") {
		t.Errorf("text of 6 CPUs:\n%s", out.String())
	}
	// Gaps: 2 of the 6 CPUs' time runs no step, which the text shows as dots.
	if dots := strings.Count(strings.Join(lines[1:7], ""), "."); dots < 100 {
		t.Errorf("%d idle columns of 432; finelocking leaves a third idle:\n%s", dots, out.String())
	}
}

// TestFromModelBusyIsModelUtil: the picture's bars cover the CPUs' busy
// time as the model counts it, so that its text ("ran steps … and other
// Go code …") says the utilization the model reports for the same window,
// under both policies — steps still running at the window's end and the
// runtime's own work included — for every family of the shop's modes,
// with and without jitter, from 1 to 8 CPUs.
func TestFromModelBusyIsModelUtil(t *testing.T) {
	costs := sim.Costs{Switch: 200, Wake: 20 * time.Microsecond, SpinWake: 15 * time.Microsecond, MutexHandoff: 300,
		ChanHandoff: time.Microsecond, BufChanHandoff: time.Microsecond, RunnextGrace: 60 * time.Microsecond}
	modes := []string{"ideal", "locking", "finelocking", "parsteam", "multi-2", "linearpipe-1", "splitpipe-2", "multipipe-2"}
	for _, sched := range []string{"fifo", "go"} {
		for _, m := range modes {
			for _, n := range []int{1, 2, 3, 6, 8} {
				for _, jitter := range []time.Duration{0, 300 * time.Microsecond} {
					cfg := model.DefaultConfig(n)
					cfg.Mode, cfg.Policy.Sched, cfg.Steps.Jitter = m, sched, jitter
					if sched == "go" {
						cfg.Costs = costs
					}
					tl, err := FromModel(cfg, span)
					if err != nil {
						t.Fatal(err)
					}
					resultstest.CheckTimeline(t, tl)
					cfg.Warmup, cfg.Dur = tl.Start, span
					ps, err := model.Simulate(context.Background(), []model.Config{cfg}, nil)
					if err != nil {
						t.Fatal(err)
					}
					u := tl.Use()
					if d := u.Steps + u.Other - ps[0].Metrics[results.Util]; d > 0.001 || d < -0.001 {
						t.Errorf("%s, jitter %v: the picture's CPUs are busy %.4f (steps %.4f, other %.4f), the model's %.4f over the same %v",
							text.TimelineTitle(tl), jitter, u.Steps+u.Other, u.Steps, u.Other, ps[0].Metrics[results.Util], span)
					}
				}
			}
		}
	}
}

// TestPictures: the chosen configurations drawn from the model under
// their predictions' policy, the go policy with the costs the points name
// (for the measured point, its prediction's), and a profiled point's trace
// beside the model's schedule of it.
func TestPictures(t *testing.T) {
	ps := resultstest.Study()
	base := filepath.Join(t.TempDir(), "finelocking-2cpu")
	coffeetest.WriteShopTrace(t, base+".trace", 10) // what --profile writes for a point
	for i, p := range ps {
		if !p.IsModel() && p.Mode == "finelocking" && p.CPUs == 2 {
			ps[i].Profile = base
		}
	}
	pics := Pictures(ps, span)
	if len(pics) != 3 {
		t.Fatalf("%d pictures, want finelocking and multi-2 on 6 CPUs, then finelocking on 2 as profiled", len(pics))
	}
	for i, want := range []string{"finelocking on 6 CPUs, model (go)", "multi-2 on 6 CPUs, model (go)", "finelocking on 2 CPUs, model (go)"} {
		if pics[i].Model == nil || text.TimelineTitle(*pics[i].Model) != want {
			t.Errorf("picture %d: model timeline %v, want %q", i, pics[i].Model, want)
		}
	}
	if why := text.PictureWhy(pics[2]); why != "finelocking on 2 CPUs, measured with --profile: the model's schedule beside the real one." {
		t.Errorf("the profiled point's picture is headed %q", why)
	}
	if tr := pics[2].Trace; tr == nil || tr.File != base+".trace" || tr.Source != "execution trace" {
		t.Errorf("the profiled point's picture has no trace beside the model: %+v (trace error %q)", tr, pics[2].TraceErr)
	}
	// A trace that is gone is said, not drawn.
	if err := os.Remove(base + ".trace"); err != nil {
		t.Fatal(err)
	}
	pics = Pictures(ps, span)
	if len(pics) != 3 || pics[2].Trace != nil || pics[2].TraceGone != base+".trace" || !strings.Contains(text.PictureNote(pics[2]), "is not at hand") {
		t.Errorf("without its file: trace %v, gone %q", pics[2].Trace, pics[2].TraceGone)
	}
}

// TestPicturesDrawnAsHeaded: every picture's model timeline is drawn
// under the policy its heading quotes, go or fifo.
func TestPicturesDrawnAsHeaded(t *testing.T) {
	for _, sched := range []string{"go", "fifo"} {
		ps := resultstest.Study()
		for i := range ps {
			if ps[i].IsModel() {
				ps[i].Sched = sched
			}
		}
		pics := Pictures(ps, span)
		if len(pics) != 2 {
			t.Fatalf("%s: %d pictures; want 2", sched, len(pics))
		}
		for _, pic := range pics {
			quoted := "as the model (" + sched + ") predicts"
			if why := text.PictureWhy(pic); !strings.Contains(why, quoted) || pic.Model == nil || pic.Model.Source != "model ("+sched+")" {
				t.Errorf("%s: heading %q above a picture drawn by %v (model error %q)", sched, why, pic.Model, pic.ModelErr)
			}
		}
	}
}
