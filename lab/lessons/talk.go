package lessons

import (
	"context"
	"fmt"
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/coffee/shopsweep"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/lesson"
)

// The coffee shop talk, "Simulating a Real-World System (Coffee Shop) in
// Go", up to 6 CPUs; beyond the machine, the model's fifo policy (ideal
// CPUs, free handoffs) gives each structure's figures exactly.
const (
	talkSeed     = "coffee-shop-simulation-talk.txt"
	talkOverload = "reference/talk/overload.csv" // the overload runs the talk shows in charts only, under shared/
	talkCPUs     = 6
	modelSched   = "fifo"
)

// talkClaims are the talk's: those the machine's CPUs can show, measured,
// and those that need more, from the model.
func talkClaims(cpus int) []Claim {
	n := top(cpus, talkCPUs)
	scaling := 0.85 * float64(n) // "in proportion": within 15 % of ×n
	claims := []Claim{
		{
			Name: "talk/ideal-scales", Text: "With no synchronization (ideal), throughput grows in proportion to the CPUs",
			SeedFigure: "“with one CPU we can prepare one latte in four milliseconds our throughput or rather brew put is 250 lattes per second” … “six CPUs we get 1,500 lattes per second” … “latency stays flat at 4 milliseconds” (×6)",
			Measures:   fmt.Sprintf("ideal's throughput on %d CPUs ÷ on 1 (claim: within 15 %% of ×%d)", n, n),
			Unit:       lesson.Ratio, Rule: lesson.AtLeast(scaling), CPUs: []int{1, n}, Races: true, cost: 0.3,
			sample: shopRatio("ideal", n, "ideal", 1, throughputOf),
		},
		{
			Name: "talk/locking-flat", Text: "One lock around the whole kitchen (locking) keeps throughput flat, whatever the CPUs",
			SeedFigure: "“throughput stays flat at 250 lattes per second and latency grows linearly with CPUs” (1 to 6 CPUs)",
			Measures:   fmt.Sprintf("locking's throughput on %d CPUs ÷ on 1 (claim: within 10 %% of ×1)", n),
			Unit:       lesson.Ratio, Rule: lesson.Between(0.9, 1.1), CPUs: []int{1, n}, cost: 0.3,
			sample: shopRatio("locking", n, "locking", 1, throughputOf),
		},
		{
			Name: "talk/locking-latency", Text: "Under one kitchen lock, mean latency grows in proportion to the CPUs: each customer waits for all the others",
			SeedFigure: "“latency grows linearly with CPUs” … “the whole kitchen locking scenario has a throughput of just 250 lattes per second and the latency span between 22 and 25 milliseconds” (4 ms on 1 CPU: ×6 on 6)",
			Measures:   fmt.Sprintf("locking's mean latency on %d CPUs ÷ on 1 (claim: within 15 %% of ×%d)", n, n),
			Unit:       lesson.Ratio, Rule: lesson.AtLeast(scaling), CPUs: []int{1, n}, cost: 0.3,
			sample: shopRatio("locking", n, "locking", 1, meanMsOf),
		},
		{
			Name: "talk/two-of-each-scales", Text: "Two of each machine (multi-2) scale like ideal",
			SeedFigure: "“with two sets of machines we see ideal performance up to 6 CPUs throughput increases linearly and latency stays flat”",
			Measures:   fmt.Sprintf("multi-2's throughput on %d CPUs ÷ on 1 (claim: within 15 %% of ×%d)", n, n),
			Unit:       lesson.Ratio, Rule: lesson.AtLeast(scaling), CPUs: []int{1, n}, cost: 0.3,
			sample: shopRatio("multi-2", n, "multi-2", 1, throughputOf),
		},
		{
			Name: "talk/buffer-1", Text: "A pipeline with a buffer of 1 between its stages does at least as well as the unbuffered one",
			SeedFigure: "“I tested pipelines with buffer size 1 and buffer size 10” … “both of these buffer pipelines outperform the unbuffered pipeline achieving the optimal throughput of a thousand lattes per second” (6 CPUs)",
			Measures:   fmt.Sprintf("linearpipe-1's throughput ÷ linearpipe-0's, on %d CPUs (claim: no more than 3 %% lower)", n),
			Unit:       lesson.Ratio, Rule: lesson.AtLeast(0.97), CPUs: []int{n}, cost: 0.3,
			sample: shopRatio("linearpipe-1", n, "linearpipe-0", n, throughputOf),
		},
		{
			Name: "talk/buffer-10", Text: "A pipeline with a buffer of 10 between its stages does at least as well as the unbuffered one",
			SeedFigure: "“I tested pipelines with buffer size 1 and buffer size 10” … “both of these buffer pipelines outperform the unbuffered pipeline achieving the optimal throughput of a thousand lattes per second” (6 CPUs)",
			Measures:   fmt.Sprintf("linearpipe-10's throughput ÷ linearpipe-0's, on %d CPUs (claim: no more than 3 %% lower)", n),
			Unit:       lesson.Ratio, Rule: lesson.AtLeast(0.97), CPUs: []int{n}, cost: 0.3,
			sample: shopRatio("linearpipe-10", n, "linearpipe-0", n, throughputOf),
		},
		{
			Name: "talk/overload", Text: "Overloaded with 100 customers, one kitchen lock makes the median customer wait for the 99 others: about 400 ms",
			SeedFigure: "the talk's overload runs (reference/talk/overload.csv), locking with 100 customers on 6 CPUs: p50 “396.849”, “388.060”, “399.092” and “400.884” ms in its four runs",
			QuoteFrom:  talkOverload,
			Measures:   fmt.Sprintf("locking's median latency with 100 customers on %d CPUs (claim: within 10 %% of 400 ms)", n),
			Unit:       lesson.Ms, Rule: lesson.Between(360, 440), CPUs: []int{n}, cost: 0.8,
			sample: func(ctx context.Context, e Env) (float64, error) {
				// After a warm-up in which each customer has been served once (100 × 4 ms).
				ms := time.Millisecond
				s := shopSpec(e.Level, "locking", n, 100)
				s.Warmup, s.Dur = pick(e.Level, 60*ms, 450*ms, time.Second), pick(e.Level, 20*ms, 300*ms, time.Second)
				p, err := e.Shop(ctx, s)
				return p.Latency.P50, err
			},
		},
	}
	return append(fromSeed(talkSeed, claims), talkModelClaims()...)
}

// talkModelClaims are the talk's claims that need more CPUs than a small
// machine has: predicted on 6 virtual CPUs by the model.
func talkModelClaims() []Claim {
	six := talkCPUs
	claims := []Claim{
		{
			Name: "talk/model-finelocking-limit", Text: "A lock per machine (finelocking) scales until the grinder is busy all the time: 1000 lattes/s, however many CPUs",
			SeedFigure: "“that is why the throughput of the system flattens at a thousand lattes per second 4 CPUs running at 250 lattes per second each” (4, 5 and 6 CPUs)",
			Measures:   "finelocking's throughput on 6 virtual CPUs (claim: within 5 % of the grinder's 1000 lattes/s)",
			Unit:       lesson.Lattes, Rule: lesson.Between(950, 1050), CPUs: []int{six},
			sample: modelSample("finelocking", six, 0, throughputOf),
		},
		{
			Name: "talk/model-two-of-each", Text: "Two of each machine (multi-2) scale like ideal to 6 CPUs, past finelocking's limit",
			SeedFigure: "“with two of each machine we achieve ideal performance” (1,500 lattes/s on 6 CPUs, ×6)",
			Measures:   "multi-2's throughput on 6 virtual CPUs ÷ on 1 (claim: within 15 % of ×6)",
			Unit:       lesson.Ratio, Rule: lesson.AtLeast(0.85 * float64(six)), CPUs: []int{1, six},
			sample: func(ctx context.Context, e Env) (float64, error) {
				one, err := modelRun(e.Level, "multi-2", 1, 0, 0)
				if err != nil {
					return 0, err
				}
				many, err := modelRun(e.Level, "multi-2", six, 0, 0)
				if err != nil {
					return 0, err
				}
				return ratio(many.Throughput, one.Throughput, "multi-2 on 1 virtual CPU")
			},
		},
		{
			Name: "talk/model-locking-latency", Text: "Under one kitchen lock on 6 CPUs, latency is about 6 lattes' time",
			SeedFigure: "“the latency span between 22 and 25 milliseconds with most of them falling between 23 and 24 milliseconds” (6 CPUs)",
			Measures:   "locking's median latency on 6 virtual CPUs (claim: 22 to 25 ms)",
			Unit:       lesson.Ms, Rule: lesson.Between(22, 25), CPUs: []int{six},
			sample: modelSample("locking", six, 0, p50MsOf),
		},
		{
			Name: "talk/model-buffers", Text: "Buffers absorb the stages' variance: buffered pipelines do at least as well as the unbuffered one",
			SeedFigure: "“I tested pipelines with buffer size 1 and buffer size 10” … “both of these buffer pipelines outperform the unbuffered pipeline achieving the optimal throughput of a thousand lattes per second” (6 CPUs)",
			Measures:   "the lower of linearpipe-1's and linearpipe-10's throughput ÷ linearpipe-0's, on 6 virtual CPUs with steps varying by ±0.25 ms (claim: no more than 3 % lower)",
			Unit:       lesson.Ratio, Rule: lesson.AtLeast(0.97), CPUs: []int{six},
			sample: func(ctx context.Context, e Env) (float64, error) {
				var th [3]float64
				for i, mode := range []string{"linearpipe-0", "linearpipe-1", "linearpipe-10"} {
					r, err := modelRun(e.Level, mode, six, 0, modelJitter)
					if err != nil {
						return 0, err
					}
					th[i] = r.Throughput
				}
				return ratio(min(th[1], th[2]), th[0], "linearpipe-0 on 6 virtual CPUs")
			},
		},
		{
			Name: "talk/model-overload", Text: "Overloaded with 100 customers on 6 CPUs, one kitchen lock gives a median latency of about 400 ms",
			SeedFigure: "the talk's overload runs (reference/talk/overload.csv), locking with 100 customers on 6 CPUs: p50 “396.849”, “388.060”, “399.092” and “400.884” ms in its four runs",
			QuoteFrom:  talkOverload,
			Measures:   "locking's median latency with 100 customers on 6 virtual CPUs (claim: within 10 % of 400 ms)",
			Unit:       lesson.Ms, Rule: lesson.Between(360, 440), CPUs: []int{six},
			sample: modelSample("locking", six, 100, p50MsOf),
		},
	}
	for i := range claims {
		claims[i].Seed, claims[i].Model, claims[i].Sched = talkSeed, true, modelSched
	}
	return claims
}

// modelJitter is the variation of the steps in the model's pipelines: ±
// half of it, uniformly, on each machine step.
const modelJitter = 500 * time.Microsecond

// modelRun predicts mode on cpus virtual CPUs with the talk's 1 ms steps,
// fifo, seed 1: customers in a closed loop (0: one per CPU), each served
// once before the window.
func modelRun(l Level, mode string, cpus, customers int, jitter time.Duration) (results.Point, error) {
	cfg := model.DefaultConfig(cpus)
	cfg.Mode, cfg.Par, cfg.Steps.Jitter, cfg.Policy.Sched = mode, customers, jitter, modelSched
	cfg.Dur = pick(l, 200*time.Millisecond, time.Second, 2*time.Second)
	if customers > 0 {
		cfg.Warmup = max(cfg.Warmup, time.Duration(customers)*10*time.Millisecond)
	}
	ps, err := model.Simulate(context.Background(), []model.Config{cfg}, nil)
	if err != nil {
		return results.Point{}, err
	}
	return ps[0], nil
}

// modelSample samples f of modelRun's prediction of mode on cpus virtual
// CPUs with customers (0: one per CPU) and steps that do not vary.
func modelSample(mode string, cpus, customers int, f func(results.Point) float64) sampler {
	return func(_ context.Context, e Env) (float64, error) {
		r, err := modelRun(e.Level, mode, cpus, customers, 0)
		return f(r), err
	}
}

// What a claim samples of a point: its throughput, its median or mean
// latency in ms.
func throughputOf(p results.Point) float64 { return p.Throughput }
func p50MsOf(p results.Point) float64      { return p.Latency.P50 }
func meanMsOf(p results.Point) float64     { return p.Latency.Mean }

// shopSpec is a point of the talk's shop (1 ms steps) at l's size.
func shopSpec(l Level, mode string, cpus, par int) shopsweep.Spec {
	ms := time.Millisecond
	return shopsweep.Spec{Mode: coffee.MustParseMode(mode), Load: sweep.Load{CPUs: cpus, Load: results.Load{Par: par, Warmup: pick(l, 20*ms, 30*ms, 100*ms), Dur: pick(l, 30*ms, 100*ms, 400*ms)}},
		Steps: coffee.DefaultSteps()}
}

// shopRatio samples f(mode a on ca CPUs) ÷ f(b on cb), one customer per
// CPU, b first on even samples.
func shopRatio(a string, ca int, b string, cb int, f func(results.Point) float64) sampler {
	return func(ctx context.Context, e Env) (float64, error) {
		pb, pa, err := pair(e,
			func() (results.Point, error) { return e.Shop(ctx, shopSpec(e.Level, b, cb, 0)) },
			func() (results.Point, error) { return e.Shop(ctx, shopSpec(e.Level, a, ca, 0)) })
		if err != nil {
			return 0, err
		}
		return ratio(f(pa), f(pb), b)
	}
}
