package lessons

import (
	"context"
	"fmt"

	"github.com/brewput/brewput/results/lesson"

	"github.com/brewput/brewput/lab/render"
	"github.com/brewput/brewput/lab/wordcount"
	"github.com/brewput/brewput/results"
)

// profilingSeed is the talk profiling two programs: a word count and a
// Mandelbrot renderer.
const profilingSeed = "profiling-two-programs-talk.txt"

// profilingCPUs is the most CPUs the talk's laptop had.
const profilingCPUs = 8

// profilingClaims are the talk's: a goroutine per pixel is no faster than
// one goroutine, one per row scales, the sequential encode caps the whole
// (Amdahl), buffered reading is an order of magnitude faster, and reusing
// its buffer leaves almost no allocation.
func profilingClaims(cpus int) []Claim {
	n := top(cpus, profilingCPUs)
	claims := []Claim{
		{
			Name: "profiling/per-pixel", Text: "A goroutine per pixel is no faster than one goroutine: a pixel is too little work for a goroutine",
			SeedFigure: "1.6 s with one goroutine, 1.7–1.8 s with one per pixel (8 CPUs)",
			Measures:   fmt.Sprintf("seq's render time ÷ pixel's (a goroutine per pixel), on %d CPUs (claim: at most ×1.1)", n),
			Unit:       lesson.Ratio, Rule: lesson.AtMost(1.1), CPUs: []int{n}, cost: 0.3,
			sample: renderFigure(n, func(points []results.Point) (float64, error) {
				return metricOf(points, nil, "pixel", n, "speedup")
			}),
		},
		{
			Name: "profiling/per-row", Text: "A goroutine per row scales with the CPUs",
			SeedFigure: "render 1.6 s on one worker, about 200 ms on 8 CPUs (×8); the whole program about ×4",
			Measures:   fmt.Sprintf("seq's render time ÷ row's (a goroutine per row), on %d CPUs (claim: at least 75 %% of ×%d)", n, n),
			Unit:       lesson.Ratio, Rule: lesson.AtLeast(0.75 * float64(n)), CPUs: []int{n}, cost: 0.3,
			sample: renderFigure(n, func(points []results.Point) (float64, error) {
				return metricOf(points, nil, "row", n, "speedup")
			}),
		},
		{
			Name: "profiling/amdahl", Text: "The sequential part (encoding the image) caps the whole program's speedup, as Amdahl's law says",
			SeedFigure: "with 50 % sequential, no more than ×2 however many CPUs; with 5 %, no more than ×20",
			Measures:   fmt.Sprintf("the whole program's speedup with a goroutine per row (render and encode) ÷ Amdahl's bound for its measured serial fraction, on %d CPUs (claim: at most ×1.05)", n),
			Unit:       lesson.Ratio, Rule: lesson.AtMost(1.05), CPUs: []int{n}, cost: 0.3,
			sample: renderFigure(n, func(points []results.Point) (float64, error) {
				total, err := metricOf(points, nil, "row", n, "total_speedup")
				if err != nil {
					return 0, err
				}
				serial, err := metricOf(points, nil, "seq", n, "serial_fraction")
				if err != nil {
					return 0, err
				}
				return ratio(total, render.Amdahl(serial, n), "Amdahl's bound")
			}),
		},
		{
			Name: "profiling/buffered-x10", Text: "Buffering the reads makes the word count an order of magnitude faster: a system call per byte was the cost",
			SeedFigure: "2.6 s unbuffered, then \"an order of magnitude\" faster with a bufio.Reader (1.2 MB of text)",
			Measures:   "the bytewise count's time ÷ the buffered count's, on 1 CPU (claim: at least ×10)",
			Unit:       lesson.Ratio, Rule: lesson.AtLeast(10), CPUs: []int{1}, cost: 0.1,
			sample: wordcountFigure(func(points []results.Point) (float64, error) {
				return metricOf(points, nil, "buffered", 1, "speedup")
			}),
		},
		{
			Name: "profiling/reused-allocs", Text: "Reusing the read buffer leaves next to no allocations",
			SeedFigure: "an allocation per byte read before; after, the largest left is bufio's 4 KB buffer",
			Measures:   "allocations per count with the reused buffer ÷ with the buffered reader that allocates per byte, on 1 CPU (claim: at most 1 %)",
			Unit:       lesson.Share, Rule: lesson.AtMost(0.01), CPUs: []int{1}, cost: 0.1,
			sample: wordcountFigure(func(points []results.Point) (float64, error) {
				reused, err := metricOf(points, nil, "reused", 1, "allocs_per_op")
				if err != nil {
					return 0, err
				}
				buffered, err := metricOf(points, nil, "buffered", 1, "allocs_per_op")
				if err != nil {
					return 0, err
				}
				return ratio(reused, buffered, "the buffered count's allocations")
			}),
		},
	}
	return fromSeed(profilingSeed, claims)
}

// renderFigure samples figure of the render lab's points on n CPUs, an
// image of l's size.
func renderFigure(n int, figure func([]results.Point) (float64, error)) func(context.Context, Env) (float64, error) {
	return func(ctx context.Context, e Env) (float64, error) {
		c := render.DefaultConfig()
		c.Size, c.Reps = pick(e.Level, 64, 256, 512), pick(e.Level, 1, 1, 3)
		points, err := render.Run(ctx, c, []int{n}, nil)
		if err != nil {
			return 0, err
		}
		return figure(points)
	}
}

// wordcountFigure samples figure of the word count lab's points on 1 CPU,
// a generated text of l's size.
func wordcountFigure(figure func([]results.Point) (float64, error)) func(context.Context, Env) (float64, error) {
	return func(ctx context.Context, e Env) (float64, error) {
		c := wordcount.Config{Size: pick(e.Level, 20_000, 100_000, 300_000), Reps: pick(e.Level, 1, 1, 3)}
		points, err := wordcount.Run(ctx, c, []int{1}, nil)
		if err != nil {
			return 0, err
		}
		return figure(points)
	}
}
