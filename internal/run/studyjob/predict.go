package studyjob

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/brewput/brewput/explain/verdict"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/internal/run/predict"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/blueprint"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// simCycles is how many cycles of each customer a prediction's window
// holds at the structure's ceiling, simMinDur its shortest: a steady state
// of 100 ns operations, 64 CPU counts with bands in a minute. Under the go
// policy it is at least simMinDurGo: twice the millisecond a sync.Mutex
// waiter waits before the lock passes to it in turn (starvation mode),
// so that a waiter that others barge past is handed the lock within the
// window, as on a machine; in a shorter one it finished nothing (the
// cache study's one mutex on 2 and 4 CPUs, docs/model.md).
const (
	simCycles   = 500
	simMinDur   = 500 * time.Microsecond
	simMinDurGo = 2 * time.Millisecond
)

// window is how long the simulation of cfg runs, simCycles at the
// structure's ceiling (simMinDur to 1 s, simMinDurGo under the go policy),
// and its warm-up: a fifth of it, and under the go policy at least the
// time to wake every P twice, lest it predict a start-up.
func window(cfg model.Config) (warmup, dur time.Duration, err error) {
	cfg.Dur = time.Second
	b, err := cfg.Bounds()
	if err != nil {
		return 0, 0, err
	}
	secs := 1.0
	if b.ThroughputMax > 0 && !math.IsInf(b.ThroughputMax, 1) {
		secs = min(1, simCycles*float64(cfg.Resolve().Par)/b.ThroughputMax)
	}
	dur = max(time.Duration(secs*float64(time.Second)), simMinDur)
	if cfg.Policy.Sched == "fifo" {
		return dur / 5, dur, nil
	}
	dur = max(dur, simMinDurGo)
	return max(dur/5, 2*time.Duration(cfg.CPUs)*max(cfg.Costs.Wake, cfg.Costs.SpinWake)), dur, nil
}

// predictAll simulates every variant on every CPU count under pr, each
// count with its model (modelFor), telling log (where not nil) as each
// variant's counts are done, and returns the points by variant, then CPU
// count, each naming the study.
func predictAll(ctx context.Context, pr predict.Prediction, study string, models []variantModel, cpus []int, log io.Writer) ([]results.Point, error) {
	var variants []string
	bps := map[*variantModel]*blueprint.Blueprint{}
	for i := range models {
		m := &models[i]
		if !slices.Contains(variants, m.Variant) {
			variants = append(variants, m.Variant)
		}
		bp, err := m.blueprint()
		if err != nil {
			return nil, err
		}
		bps[m] = bp
	}
	var cfgs []model.Config
	for _, v := range variants {
		for _, n := range cpus {
			bp := bps[modelFor(models, v, n)]
			cfg := pr.For(n).Apply(model.Config{System: bp, Spec: results.Spec{Mode: bp.Name, CPUs: n}})
			var err error
			if cfg.Warmup, cfg.Dur, err = window(cfg); err != nil {
				return nil, fmt.Errorf("%s on %d CPUs: %w", v, n, err)
			}
			cfgs = append(cfgs, cfg)
		}
	}
	points, err := model.Simulate(ctx, cfgs, func(i int, _ results.Point, err error) error {
		if err != nil {
			return fmt.Errorf("%s on %d CPUs: %w", variants[i/len(cpus)], cpus[i%len(cpus)], err)
		}
		if log != nil && (i+1)%len(cpus) == 0 {
			fmt.Fprintf(log, "[%d/%d] %s predicted on %s\n", (i+1)/len(cpus), len(variants), variants[i/len(cpus)], format.Count(len(cpus), "CPU count"))
		}
		return nil
	})
	if err := cmp.Or(ctx.Err(), err); err != nil {
		return nil, err
	}
	for i := range points {
		points[i].Host, points[i].Calibration = pr.Host, pr.Cal
		points[i].AsStudy(study)
		widenForRounding(&points[i], modelFor(models, variants[i/len(cpus)], cpus[i%len(cpus)]).Rounding)
	}
	return points, nil
}

// widenForRounding widens p's band by what its model's whole nanoseconds
// left out (r, the model's time an operation over the measured one): a
// model 2 % fast predicts 2 % high, and its band, where its costs leave
// no room (one CPU), would not hold what was measured. Its high edge
// stays at its bound.
func widenForRounding(p *results.Point, r float64) {
	if p.Band == nil || !(r > 0) || r == 1 {
		return
	}
	b := &p.Band.Throughput
	b[0] = min(b[0], b[0]*r)
	b[1] = max(b[1], b[1]*r)
	if p.Bounds != nil && p.Bounds.ThroughputMax > 0 {
		b[1] = max(min(b[1], p.Bounds.ThroughputMax), p.Throughput)
	}
}

// shapeSingleLocks gives each variant whose every model is one shared lock
// (not a lock per goroutine, not shards) the shape one lock can make past
// the CPUs measured: once its predicted throughput falls, on the CPUs
// measured or past them, it does not rise again (held at the lowest so
// far: a simulation's window wobbles by a few percent where one lock is
// saturated), and it stays at or below its structural bound; the band
// keeps what was simulated. It says which variants it shaped.
func shapeSingleLocks(points []results.Point, models []variantModel) []string {
	anchor := map[string]int{} // the most CPUs measured, by variant
	single := map[string]bool{}
	for _, m := range models {
		one := len(m.Locks) == 1 && !m.Locks[0].Private && m.Locks[0].Locks == 1
		if ok, seen := single[m.Variant]; !seen || ok {
			single[m.Variant] = one
		}
		anchor[m.Variant] = max(anchor[m.Variant], m.From.CPUs)
	}
	var shaped []string
	byVariant := map[string][]int{}
	for i, p := range points {
		if single[p.Mode] {
			byVariant[p.Mode] = append(byVariant[p.Mode], i)
		}
	}
	for v, idx := range byVariant {
		slices.SortFunc(idx, func(a, b int) int { return points[a].CPUs - points[b].CPUs })
		fallen, changed := false, false
		for k := 1; k < len(idx); k++ {
			p, prev := &points[idx[k]], points[idx[k-1]]
			if p.CPUs <= anchor[v] {
				// As simulated; a fall here (one goroutine's lock on one
				// CPU, contended on two) is one the curve keeps.
				fallen = fallen || p.Throughput < prev.Throughput
				continue
			}
			raw := p.Throughput
			switch {
			case fallen:
				p.Throughput = min(p.Throughput, prev.Throughput)
			case p.Throughput < prev.Throughput:
				fallen = true
			}
			if b := p.Bounds; b != nil && b.ThroughputMax > 0 {
				p.Throughput = min(p.Throughput, b.ThroughputMax)
			}
			if p.Throughput != raw {
				changed = true
				if p.Band != nil {
					p.Band.Throughput[0] = min(p.Band.Throughput[0], p.Throughput)
					p.Band.Throughput[1] = max(p.Band.Throughput[1], raw)
				}
				p.AssessAbove()
			}
		}
		if changed {
			shaped = append(shaped, v)
		}
	}
	slices.Sort(shaped)
	return shaped
}

// modelFor is variant's model read on the most CPUs up to n, or fewest.
func modelFor(models []variantModel, variant string, n int) *variantModel {
	var pick *variantModel
	for i := range models {
		m := &models[i]
		if m.Variant != variant {
			continue
		}
		switch {
		case pick == nil,
			m.From.CPUs <= n && (pick.From.CPUs > n || m.From.CPUs > pick.From.CPUs),
			m.From.CPUs > n && pick.From.CPUs > n && m.From.CPUs < pick.From.CPUs:
			pick = m
		}
	}
	return pick
}

// modelsOf reads each variant's models, by CPU count, from the median run
// of each count measured: a lock's hold on more cores, slowed by the
// cache lines its holders share, is what it measured there.
func modelsOf(variants []string, measured []results.Point) ([]variantModel, error) {
	var out []variantModel
	for _, v := range variants {
		pts := slices.DeleteFunc(slices.Clone(measured), func(p results.Point) bool { return p.Mode != v })
		if len(pts) == 0 {
			return nil, fmt.Errorf("no measured point of variant %s", v)
		}
		var counts []int
		for _, p := range pts {
			counts = append(counts, p.CPUs)
		}
		slices.Sort(counts)
		for _, n := range slices.Compact(counts) {
			runs := slices.DeleteFunc(slices.Clone(pts), func(p results.Point) bool { return p.CPUs != n })
			slices.SortFunc(runs, func(a, b results.Point) int { return cmp.Compare(a.Throughput, b.Throughput) })
			mid := runs[(len(runs)-1)/2]
			if len(runs)%2 == 0 {
				// The median of an even count, which the check holds the
				// model against, lies between the middle two runs: the
				// lower one's locks at the median's throughput (its times
				// scaled to it; its waits as they were).
				mid.Throughput = (mid.Throughput + runs[len(runs)/2].Throughput) / 2
			}
			m, err := modelOf(mid)
			if err != nil {
				return nil, err
			}
			out = append(out, m)
		}
	}
	// The work outside the locks is read where one goroutine ran, where
	// that is less: on more CPUs it also holds what contention cost the
	// locks' callers (the lock's word moving between cores, a handoff's
	// wake-up), which the engine charges itself. Less on more CPUs, the
	// holds measured there took the time; it stays as it was read. Locks
	// each goroutine has to itself contend for nothing: what more CPUs
	// added to their operation is the machine's, and stays.
	for i := range out {
		one := modelFor(out, out[i].Variant, 1)
		shared := slices.ContainsFunc(out[i].Locks, func(g lockGroup) bool { return !g.Private })
		if one.From.CPUs == 1 && out[i].From.CPUs > 1 && shared && one.Outside < out[i].Outside {
			out[i].Outside, out[i].OutsideOn = one.Outside, 1
			out[i].Rounding = min(out[i].Rounding, one.Rounding)
		}
		// A reader's hold, not timed, is what the operation's time leaves
		// (modelOf): on more CPUs that too holds what the engine charges
		// itself, the reader count's line among them.
		if one.From.CPUs != 1 || out[i].From.CPUs <= 1 {
			continue
		}
		for k := range out[i].Locks {
			g := &out[i].Locks[k]
			j := slices.IndexFunc(one.Locks, func(o lockGroup) bool { return o.Name == g.Name })
			if g.rwShares() && j >= 0 && one.Locks[j].rwShares() && one.Locks[j].ReadPerUse < g.ReadPerUse {
				g.ReadPerUse, g.ReadOn = one.Locks[j].ReadPerUse, 1
			}
		}
	}
	return out, nil
}

// tableCounts are the CPU counts the prediction's table shows: the first
// and the last, the powers of two and those measured.
func tableCounts(cpus []int, measured []results.Point) []int {
	var out []int
	for i, n := range cpus {
		pow2 := n&(n-1) == 0
		if i == 0 || i == len(cpus)-1 || pow2 || slices.ContainsFunc(measured, func(p results.Point) bool { return p.CPUs == n }) {
			out = append(out, n)
		}
	}
	return out
}

// writePrediction writes each variant's model in a line, then the table
// of the predicted points against the measured ones.
func writePrediction(w io.Writer, models []variantModel, predicted, measured []results.Point, cpus []int, shaped []string) error {
	var b strings.Builder
	b.WriteString(format.Wrap("What each model is made of, from its measured locks on each CPU count measured (a count past "+
		"them takes the most CPUs' model; its times are whole nanoseconds, and its band also spans what they round off):", format.Width(w), "") + "\n")
	for _, m := range models {
		line := fmt.Sprintf("%s (%s, %s): %s", m.Variant, format.Count(m.From.CPUs, "CPU"), format.Rate(m.From.Throughput, m.Unit), m.describe())
		b.WriteString("  " + format.Wrap(line, format.Width(w)-4, "    ") + "\n")
	}
	if len(shaped) > 0 {
		b.WriteString(format.Wrap(fmt.Sprintf("%s: one lock each, whose predicted throughput past the CPUs measured, once it has fallen "+
			"(there or on the CPUs measured), is held at its lowest so far and at its bound (a simulation's window wobbles by a few percent where one lock is "+
			"saturated; the band keeps what was simulated).", strings.Join(shaped, ", ")), format.Width(w), "") + "\n")
	}
	b.WriteString("\n")
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	return text.WritePrediction(w, predicted, verdict.Checks(append(slices.Clone(predicted), measured...)), tableCounts(cpus, measured))
}
