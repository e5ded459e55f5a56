package study

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/measure/meter"
	"github.com/brewput/brewput/model/blueprint"
	"github.com/brewput/brewput/results"
)

// lockGroup is one group of a variant's metered locks (meter.Group), as
// its model holds it: Locks mutexes, each use taking one at random,
// UsesPerOp times an operation, for HeldPerUse each.
type lockGroup struct {
	Name       string
	Locks      int
	UsesPerOp  float64
	HeldPerUse time.Duration
	heldPerOp  float64 // seconds, summed over the group's locks
}

// variantModel is what a variant's model is made of, read from the point
// From: an operation's time Outside the metered locks (less its holds and
// waits), each lock group it holds, and the meters it has no structure
// for (Unmodelled: channels, counted as work outside).
type variantModel struct {
	Variant    string
	Unit       string // the throughput's, "ops/s"
	From       results.Point
	Outside    time.Duration
	Locks      []lockGroup
	Unmodelled []string
}

// modelOf reads variant's model from p, a closed-loop point of it, its
// costs what p's CPU count made of them.
func modelOf(p results.Point) (variantModel, error) {
	m := variantModel{Variant: p.Mode, Unit: p.Unit, From: p}
	switch {
	case p.Ops <= 0 || !(p.Throughput > 0):
		return m, fmt.Errorf("%s on %d CPUs: no operation completed in its window; nothing to model", p.Mode, p.CPUs)
	case p.Rate > 0:
		return m, fmt.Errorf("%s on %d CPUs: an open loop (%v calls/s); predict models the closed loop (measure without --rate)", p.Mode, p.CPUs, p.Rate)
	}
	ops := float64(p.Ops)
	window := ops / p.Throughput // a little past its nominal Dur
	perOp := perOpTime(p)
	for _, mc := range p.Machines() {
		if results.IsChan(mc.Kind) {
			// A channel's waits are a pipeline's rhythm: work outside.
			if !slices.Contains(m.Unmodelled, results.MeterLabel(mc)) {
				m.Unmodelled = append(m.Unmodelled, results.MeterLabel(mc))
			}
			continue
		}
		name := meter.Group(mc.Name)
		i := slices.IndexFunc(m.Locks, func(g lockGroup) bool { return g.Name == name })
		if i < 0 {
			m.Locks = append(m.Locks, lockGroup{Name: name})
			i = len(m.Locks) - 1
		}
		g := &m.Locks[i]
		g.Locks++
		g.UsesPerOp += float64(mc.Uses) / ops
		// In seconds: whole nanoseconds would lose shards' short holds.
		g.heldPerOp += mc.BusyFrac * window / ops
		perOp -= mc.MeanWaitMs / 1e3 * float64(mc.Uses) / ops
	}
	m.Locks = slices.DeleteFunc(m.Locks, func(g lockGroup) bool { return g.UsesPerOp == 0 })
	for i := range m.Locks {
		g := &m.Locks[i]
		g.HeldPerUse = time.Duration(math.Round(g.heldPerOp / g.UsesPerOp * float64(time.Second)))
	}
	// A blueprint's durations are whole nanoseconds: the work outside is
	// what the rounded holds leave, so that the model reproduces p.
	steps := time.Duration(0)
	for _, g := range m.Locks {
		n, d := uses(g)
		steps += time.Duration(n) * d
	}
	m.Outside = max(0, time.Duration(math.Round(perOp*float64(time.Second)))-steps)
	if m.Outside <= 0 && len(m.Locks) == 0 {
		return m, fmt.Errorf("%s on %d CPUs: used no CPU time; nothing to model", p.Mode, p.CPUs)
	}
	return m, nil
}

// perOpTime is, in seconds, a worker's time per operation of p: its share
// of the window with no more workers than CPUs (so that the model
// reproduces p), else the CPU time used per operation.
func perOpTime(p results.Point) float64 {
	switch {
	case p.Par > 0 && p.Par <= p.CPUs:
		return float64(p.Par) / p.Throughput
	case p.CPUUsed > 0:
		return p.CPUUsed / p.Throughput
	}
	return float64(p.CPUs) / p.Throughput
}

// yaml writes the model as a blueprint: a step of the work outside the
// locks, then the holds of each lock group (uses), with the default load
// of a worker per CPU.
func (m variantModel) yaml() string {
	var b strings.Builder
	q := strconv.Quote // a JSON string is a YAML flow scalar
	unit, _ := strings.CutSuffix(m.Unit, "/s")
	fmt.Fprintf(&b, "name: %s\nunit: %s\n", q(m.Variant), q(unit))
	fmt.Fprintf(&b, "description: %s\n", q(fmt.Sprintf("%s as measured on %d CPU(s): %s", m.Variant, m.From.CPUs, m.describe())))
	if len(m.Locks) > 0 {
		b.WriteString("resources:\n")
		for _, g := range m.Locks {
			if g.Locks > 1 {
				fmt.Fprintf(&b, "  %s: {locks: %d}\n", q(g.Name), g.Locks)
			} else {
				fmt.Fprintf(&b, "  %s: 1\n", q(g.Name))
			}
		}
	}
	outside := "outside"
	for slices.ContainsFunc(m.Locks, func(g lockGroup) bool { return g.Name == outside }) {
		outside += "-work"
	}
	b.WriteString("steps:\n")
	fmt.Fprintf(&b, "  - {name: %s, duration: %s}\n", q(outside), m.Outside)
	for _, g := range m.Locks {
		n, d := uses(g)
		for range n {
			fmt.Fprintf(&b, "  - {name: %s, duration: %s, holds: [%s]}\n", q(g.Name), d, q(g.Name))
		}
	}
	return b.String()
}

// uses is how many holds of g an operation's model has, and how long each:
// its uses where a whole number (to 5 %), else one of its time held, which
// keeps the structural bound.
func uses(g lockGroup) (int, time.Duration) {
	if n := math.Round(g.UsesPerOp); n >= 1 && n <= 16 && math.Abs(g.UsesPerOp-n) <= 0.05*n {
		return int(n), g.HeldPerUse
	}
	return 1, time.Duration(math.Round(g.heldPerOp * float64(time.Second)))
}

// describe says what the model is made of, in a line.
func (m variantModel) describe() string {
	parts := []string{fmt.Sprintf("%s of work outside the measured locks", format.Wait(float64(m.Outside)/1e6))}
	for _, g := range m.Locks {
		what := "mutex " + g.Name
		if g.Locks > 1 {
			what = fmt.Sprintf("one of %d %s locks", g.Locks, g.Name)
		}
		parts = append(parts, fmt.Sprintf("%s held %s %s", what, format.Wait(float64(g.HeldPerUse)/1e6), timesPerOp(g.UsesPerOp)))
	}
	if len(m.Unmodelled) > 0 {
		parts = append(parts, "the time in "+strings.Join(m.Unmodelled, ", ")+" counted as work outside")
	}
	return strings.Join(parts, ", then ")
}

// timesPerOp says how often an operation does something.
func timesPerOp(n float64) string {
	if math.Abs(n-1) < 0.005 {
		return "once an operation"
	}
	return fmt.Sprintf("%.3g times an operation", n)
}

// blueprintOf is m's blueprint, parsed.
func (m variantModel) blueprint() (*blueprint.Blueprint, error) {
	bp, err := blueprint.Parse(m.Variant+".yaml", []byte(m.yaml()))
	if err != nil {
		return nil, errors.Join(fmt.Errorf("%s: the model made of its meters does not parse", m.Variant), err)
	}
	return bp, nil
}
