package advise

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/brewput/brewput/analysis"
	"github.com/brewput/brewput/results"
)

// Advice is the answer to "what would help?" for one system: what it
// does now, and each change tried, best first.
type Advice struct {
	// System names what was advised on: "finelocking on 6 CPUs".
	System string `json:"system"`
	Mode   string `json:"mode"`
	CPUs   int    `json:"cpus"`
	Unit   string `json:"unit"`
	Sched  string `json:"sched"`
	// Now is the model's prediction for the system as it is.
	Now Outcome `json:"now"`
	// Options are the changes tried, ranked: by throughput gain (gains
	// within 1 % count as equal), then those that make latency 5 % worse
	// or more last, then by cost (the cheaper first), then by latency gain.
	Options []Option `json:"options"`
	// Answer is the advice in one line: what limits the system, and the
	// best change with its predicted gain and cost, or that none helps.
	Answer string `json:"answer"`
}

// Outcome is what the model predicts for one configuration.
type Outcome struct {
	Throughput float64             `json:"throughput"`
	P50Ms      float64             `json:"p50_ms"`
	MeanMs     float64             `json:"mean_ms"`
	Bottleneck *results.Bottleneck `json:"bottleneck"`
}

// Option is one change tried in the model, with what it would give.
type Option struct {
	// Change says what changes, in words: "another copy of each machine".
	Change string `json:"change"`
	// As says what the system becomes: "multi-2", "12 CPUs".
	As   string `json:"as"`
	Cost Cost   `json:"cost"`
	Outcome
	// ThroughputGain is the relative change in throughput (0.5 is 50 %
	// more); LatencyGain the relative fall in median latency (0.25 is a
	// quarter less; negative when latency grows).
	ThroughputGain float64 `json:"throughput_gain"`
	LatencyGain    float64 `json:"latency_gain"`
}

// Cost is what a change adds to the system. A change that only shortens
// work costs nothing here: its price is the engineering, which brewput
// cannot count.
type Cost struct {
	Machines    int `json:"machines,omitempty"`     // machines added to the coffee shop
	Units       int `json:"units,omitempty"`        // units of a YAML system's resources added
	Locks       int `json:"locks,omitempty"`        // mutexes added
	Goroutines  int `json:"goroutines,omitempty"`   // goroutines added, at most at once
	CPUs        int `json:"cpus,omitempty"`         // CPUs added
	BufferSlots int `json:"buffer_slots,omitempty"` // channel slots added (negative: fewer)
	BufferBytes int `json:"buffer_bytes,omitempty"` // memory those slots hold when full
}

// String says the cost in words: "3 machines, 3 goroutines".
func (c Cost) String() string {
	var parts []string
	add := func(n int, noun string) {
		if n != 0 {
			parts = append(parts, plural(n, noun))
		}
	}
	add(c.Machines, "machine")
	add(c.Units, "resource unit")
	add(c.Locks, "lock")
	add(c.CPUs, "CPU")
	add(c.Goroutines, "goroutine")
	if c.BufferSlots != 0 {
		parts = append(parts, fmt.Sprintf("%s (%d B)", plural(c.BufferSlots, "buffer slot"), c.BufferBytes))
	}
	if len(parts) == 0 {
		return "none (code changes only)"
	}
	return strings.Join(parts, ", ")
}

// weight orders costs for ranking: CPUs and machines are dearer than
// locks, goroutines and buffer slots.
func (c Cost) weight() float64 {
	return 100*float64(c.CPUs+c.Machines+c.Units) + float64(c.Locks) + float64(c.Goroutines)/10 + float64(c.BufferBytes)/1e4
}

// trial is one configuration to simulate: the system now (change "") or
// one change to it.
type trial struct {
	change, as string
	cost       Cost
	run        func() (results.Point, error)
}

// advise simulates the system now and every change, all at once as the
// CPUs allow, and ranks the changes.
func advise(system string, now trial, changes []trial) (*Advice, error) {
	all := append([]trial{now}, changes...)
	points := make([]results.Point, len(all))
	errs := make([]error, len(all))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.NumCPU(), len(all)) {
		wg.Go(func() {
			for i := range next {
				points[i], errs[i] = all[i].run()
			}
		})
	}
	for i := range all {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			if i == 0 {
				return nil, err
			}
			return nil, fmt.Errorf("what if %s (%s): %w", all[i].change, all[i].as, err)
		}
	}

	a := &Advice{System: system, Mode: points[0].Mode, CPUs: points[0].CPUs, Unit: points[0].Unit,
		Sched: points[0].Sched, Now: outcome(points[0])}
	for i, t := range changes {
		o := Option{Change: t.change, As: t.as, Cost: t.cost, Outcome: outcome(points[i+1])}
		if a.Now.Throughput > 0 {
			o.ThroughputGain = o.Throughput/a.Now.Throughput - 1
		}
		if a.Now.P50Ms > 0 {
			o.LatencyGain = 1 - o.P50Ms/a.Now.P50Ms
		}
		a.Options = append(a.Options, o)
	}
	slices.SortStableFunc(a.Options, func(x, y Option) int {
		gx, gy := math.Round(100*x.ThroughputGain), math.Round(100*y.ThroughputGain)
		lx, ly := math.Round(100*x.LatencyGain), math.Round(100*y.LatencyGain)
		hurts := func(o Option) float64 { // latency 5 % worse or more
			if o.LatencyGain <= -0.05 {
				return 1
			}
			return 0
		}
		switch {
		case gx != gy:
			return cmpDesc(gx, gy)
		case hurts(x) != hurts(y):
			return cmpDesc(hurts(y), hurts(x))
		case x.Cost.weight() != y.Cost.weight():
			return cmpDesc(y.Cost.weight(), x.Cost.weight())
		}
		return cmpDesc(lx, ly)
	})
	a.Answer = answer(a)
	return a, nil
}

func cmpDesc(x, y float64) int {
	switch {
	case x > y:
		return -1
	case x < y:
		return 1
	}
	return 0
}

func outcome(p results.Point) Outcome {
	b := analysis.Bottleneck(p)
	return Outcome{Throughput: p.Throughput, P50Ms: p.Latency.P50, MeanMs: p.Latency.Mean, Bottleneck: &b}
}

// answer says in a line what limits the system and what would help most.
func answer(a *Advice) string {
	now := fmt.Sprintf("%s makes %.0f %s, limited by %s", a.System, a.Now.Throughput, a.Unit, limitedBy(a.Now.Bottleneck))
	if len(a.Options) == 0 || a.Options[0].ThroughputGain < 0.01 {
		best := ""
		for _, o := range a.Options {
			if o.LatencyGain >= 0.05 && o.ThroughputGain > -0.01 {
				best = fmt.Sprintf("; %s (%s) cuts the median latency by %.0f %%", o.Change, o.As, 100*o.LatencyGain)
				break
			}
		}
		return fmt.Sprintf("%s. None of the %d changes tried raises throughput by 1 %% or more%s.", now, len(a.Options), best)
	}
	o := a.Options[0]
	then := ""
	if o.Bottleneck != nil && o.Bottleneck.Resource != a.Now.Bottleneck.Resource {
		then = ", then " + limitedBy(o.Bottleneck) + " limits"
	}
	return fmt.Sprintf("%s. Best change: %s (%s): %.0f %s (%+.0f %%), median latency %s ms (%s)%s; it costs %s.",
		now, o.Change, o.As, o.Throughput, a.Unit, 100*o.ThroughputGain, fmtMs(o.P50Ms), latencyChange(o.LatencyGain), then, o.Cost)
}

// limitedBy names a bottleneck for the answer: "the grinder (busy 100 %)".
func limitedBy(b *results.Bottleneck) string {
	u := fmt.Sprintf("%.0f %%", 100*b.Utilization)
	switch b.Resource {
	case "cpus":
		return "the CPUs (" + u + " used)"
	case "customers", "servers":
		return "the number of " + b.Resource
	case "arrivals":
		return "the arrivals (it keeps up)"
	case "kitchen":
		return "the kitchen lock (held " + u + " of the time)"
	case "espresso":
		return "the espresso machine (busy " + u + ")"
	}
	return "the " + b.Resource + " (busy " + u + ")"
}

func latencyChange(g float64) string {
	if math.Abs(g) < 0.005 {
		return "unchanged"
	}
	if g > 0 {
		return fmt.Sprintf("%.0f %% less", 100*g)
	}
	return fmt.Sprintf("%.0f %% more", -100*g)
}

func fmtMs(ms float64) string {
	if ms >= 10 {
		return fmt.Sprintf("%.0f", ms)
	}
	return fmt.Sprintf("%.2g", ms)
}

func plural(n int, noun string) string {
	if n == 1 || n == -1 {
		return fmt.Sprintf("%d %s", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
