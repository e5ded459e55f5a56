package schedule

import (
	"strings"
	"testing"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/explain/verdict"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
	"github.com/brewput/brewput/results/resultstest"
)

// TestPick: the mode at a wall of one resource beside the best that
// scales (ideal's race aside), where the first makes at most 70 % of the
// second: finelocking and multi-2 on 6 CPUs.
func TestPick(t *testing.T) {
	cs := Pick(verdict.NewGrid(resultstest.Study()), resultstest.Study(), coffee.Declared{})
	if len(cs) != 2 || cs[0].Mode != "finelocking" || cs[1].Mode != "multi-2" || cs[0].CPUs != 6 || cs[1].CPUs != 6 {
		t.Fatalf("picked %+v; want finelocking and multi-2 on 6 CPUs", cs)
	}
	if want := "finelocking on 6 CPUs has hit a wall: 930 lattes/s, limited by the grinder, as the model (go) predicts."; why(cs[0]) != want {
		t.Errorf("why %q, want %q", why(cs[0]), want)
	}
	if !cs[0].Point.IsModel() || cs[0].Point.CPUs != 6 {
		t.Errorf("the choice's point is %s on %d CPUs; want the model's on 6", cs[0].Point.Source, cs[0].Point.CPUs)
	}

	// Measured only: locking's kitchen on 2 CPUs beside finelocking.
	var measured []results.Point
	for _, p := range resultstest.Study() {
		if !p.IsModel() {
			measured = append(measured, p)
		}
	}
	cs = Pick(verdict.NewGrid(measured), measured, coffee.Declared{})
	if len(cs) != 2 || cs[0].Mode != "locking" || cs[1].Mode != "finelocking" || cs[0].CPUs != 2 {
		t.Errorf("measured only: picked %+v; want locking beside finelocking on 2 CPUs", cs)
	}
	if len(Pick(verdict.NewGrid(nil), nil, coffee.Declared{})) != 0 {
		t.Error("picked something from no points")
	}
}

// TestPickOnlyARealContrast: a mode at a wall is drawn beside one that
// scales only where the contrast holds. The mode that makes the most at a
// wall (multi-2, 1750 on 8 CPUs, limited by its grinders) has no partner
// that makes enough more, so finelocking and multi-2 on 6 CPUs are drawn
// instead; where no wall has a contrast, the walled mode is drawn alone,
// its limit named and no wall claimed; a mode that still grows past the
// CPUs where it would be drawn is not said to have hit a wall there.
func TestPickOnlyARealContrast(t *testing.T) {
	ps := resultstest.Study()
	for i, p := range ps {
		if p.IsModel() && p.Mode == "multi-2" && p.CPUs == 8 {
			ps[i].Throughput, ps[i].Bottleneck = 1750, resultstest.Limited("grinder#1", "grinder#2")
		}
	}
	cs := Pick(verdict.NewGrid(ps), ps, coffee.Declared{})
	if len(cs) != 2 || cs[0].Mode != "finelocking" || cs[1].Mode != "multi-2" || cs[0].CPUs != 6 {
		t.Errorf("picked %+v; want finelocking beside multi-2 on 6 CPUs, not multi-2's wall without a contrast", cs)
	}

	// Only multi-2 at a wall, and multipipe-2 2 % above it: no pair.
	var near []results.Point
	for _, p := range ps {
		if p.IsModel() && p.Mode == "multi-2" {
			near = append(near, p)
			if p.CPUs == 8 {
				q := p
				q.Mode, q.Throughput, q.Bottleneck = "multipipe-2", 1785, resultstest.Limited("cpus")
				near = append(near, q)
			}
		}
	}
	cs = Pick(verdict.NewGrid(near), near, coffee.Declared{})
	if len(cs) != 1 || cs[0].Mode != "multi-2" || cs[0].CPUs != 8 {
		t.Fatalf("picked %+v; want multi-2 on 8 CPUs alone", cs)
	}
	if want := "multi-2 on 8 CPUs is limited by the grinder#1 and grinder#2 together: 1750 lattes/s, as the model (go) predicts; no mode that scales makes enough more beside it to draw the two."; why(cs[0]) != want {
		t.Errorf("why %q, want %q", why(cs[0]), want)
	}

	// finelocking grows 20 % from 6 to 8 CPUs: it has not hit a wall on
	// 6, and on 8 nothing scales beside it; locking's kitchen has.
	for i, p := range ps {
		if p.IsModel() && p.Mode == "finelocking" && p.CPUs == 8 {
			ps[i].Throughput = 1116
		}
	}
	cs = Pick(verdict.NewGrid(ps), ps, coffee.Declared{})
	if len(cs) != 2 || cs[0].Mode != "locking" || !strings.Contains(why(cs[0]), "has hit a wall") {
		t.Errorf("picked %+v; want locking at its wall", cs)
	}
}

// why says why c is drawn, as the report does.
func why(c Choice) string {
	return text.PictureWhy(analysis.Picture{Mode: c.Mode, CPUs: c.CPUs, Does: c.Does, Shown: c.Entry})
}
