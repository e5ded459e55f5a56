package lessons

import (
	"context"
	"fmt"
	"time"

	"github.com/brewput/brewput/results/lesson"

	"github.com/brewput/brewput/lab/workloads"
)

// workloadsSeed is the article on sequential, concurrent and parallel
// workloads (Ardan Labs, in Chinese and English).
const workloadsSeed = "concurrency-parallelism-workloads.txt"

// workloadsCPUs is the most CPUs the article's parallel runs had (8 cores).
const workloadsCPUs = 8

// workloadsClaims are the article's: IO-bound work gains from goroutines
// on one CPU, CPU-bound work loses there and gains with more CPUs, and a
// bubble sort cannot be split.
func workloadsClaims(cpus int) []Claim {
	n := top(cpus, workloadsCPUs)
	claims := []Claim{
		{
			Name: "workloads/find-1cpu", Text: "IO-bound work (find in documents behind a 1 ms wait) gains from goroutines even on 1 CPU",
			SeedFigure: "1.48 s sequential, 0.19 s concurrent on 1 core (×7.9, \"~87 % faster\")",
			Measures:   "find's sequential time ÷ its concurrent time, on 1 CPU (claim: at least ×2)",
			Unit:       lesson.Ratio, Rule: lesson.AtLeast(2), CPUs: []int{1}, cost: 0.15,
			sample: workloadsSpeedup("find", 1, func(l Level, c *workloads.Config) {
				c.Docs, c.Wait, c.Workers = pick(l, 20, 100, 300), time.Millisecond, pick(l, 10, 50, 100)
			}),
		},
		{
			Name: "workloads/add-1cpu", Text: "CPU-bound work (adding integers) gains nothing from goroutines on 1 CPU: it loses their switching",
			SeedFigure: "5.7 ms sequential, 6.4 ms concurrent on 1 core (×0.89, sequential \"~10–13 % faster\")",
			Measures:   "add's sequential time ÷ its concurrent time, on 1 CPU (claim: at most ×1)",
			Unit:       lesson.Ratio, Rule: lesson.AtMost(1), CPUs: []int{1}, cost: 0.15,
			sample: workloadsSpeedup("add", 1, addConfig),
		},
		{
			Name: "workloads/add-more-cpus", Text: "CPU-bound work (adding integers) gains from goroutines with more CPUs",
			SeedFigure: "5.9 ms sequential, 3.4 ms concurrent on 8 cores (×1.7, \"~41–43 % faster\")",
			Measures:   fmt.Sprintf("add's sequential time ÷ its concurrent time, on %d CPUs (claim: at least ×1.2)", n),
			Unit:       lesson.Ratio, Rule: lesson.AtLeast(1.2), CPUs: []int{n}, cost: 0.15,
			sample: workloadsSpeedup("add", n, addConfig),
		},
		{
			Name: "workloads/sort-no-gain", Text: "A bubble sort split among goroutines gains nothing: the whole must be sorted again after the parts",
			SeedFigure: "no figure: \"we have to sort the entire list again\"",
			Measures:   fmt.Sprintf("sort's sequential time ÷ its concurrent time, on %d CPUs (claim: at most ×1.05)", n),
			Unit:       lesson.Ratio, Rule: lesson.AtMost(1.05), CPUs: []int{n}, cost: 0.1,
			sample: workloadsSpeedup("sort", n, func(l Level, c *workloads.Config) { c.SortSize = pick(l, 500, 3000, 8000) }),
		},
	}
	return fromSeed(workloadsSeed, claims)
}

// addConfig sizes add: 10 million integers in the article, fewer in a
// quick run. Its goroutines are one per CPU of the machine, as the
// article's runtime.NumCPU().
func addConfig(l Level, c *workloads.Config) {
	c.AddSize, c.Reps = pick(l, 200_000, 4_000_000, 10_000_000), pick(l, 1, 3, 5)
}

// workloadsSpeedup samples the "speedup" of workload's concurrent variant
// on cpus CPUs: its sequential median time over its concurrent one, the
// two taking turns. size sizes that workload; the others are made
// trivial.
func workloadsSpeedup(workload string, cpus int, size func(Level, *workloads.Config)) func(context.Context, Env) (float64, error) {
	return func(ctx context.Context, e Env) (float64, error) {
		c := workloads.Config{AddSize: 1, SortSize: 1, Docs: 1, Topic: "gopher", Workers: 1, Goroutines: 0, Reps: 1}
		size(e.Level, &c)
		points, err := workloads.Run(ctx, c, []int{cpus}, nil)
		return metricOf(points, err, workload+"/concurrent", cpus, "speedup")
	}
}
