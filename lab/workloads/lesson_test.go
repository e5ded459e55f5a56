package workloads

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/brewput/brewput/internal/guard"
)

// skipTiming skips a lesson where its timing would say nothing.
func skipTiming(t *testing.T) {
	t.Helper()
	guard.Timing(t, 1)
}

// only is a configuration that makes one workload's size sizes and the
// others' trivial, for a lesson about that one.
func only(edit func(*Config)) Config {
	c := Config{AddSize: 1, SortSize: 1, Docs: 1, Topic: "gopher", Workers: 1, Goroutines: 1, Reps: 5}
	edit(&c)
	return c
}

// speedups runs c on each CPU count and returns the speedup of the named
// workload's concurrent variant at each.
func speedups(c Config, workload string, cpus ...int) ([]float64, error) {
	ps, err := Run(context.Background(), c, cpus, nil)
	if err != nil {
		return nil, err
	}
	var s []float64
	for _, p := range ps {
		if p.Variant == workload+"/concurrent" {
			s = append(s, p.Metrics["speedup"])
		}
	}
	if len(s) != len(cpus) {
		return nil, fmt.Errorf("%d %s points for %d CPU counts", len(s), workload, len(cpus))
	}
	return s, nil
}

// TestLessonFind: IO-bound work pays for concurrency on one CPU already.
// 200 documents of a 1 ms wait each take about 0.22 s one after the other;
// a pool of 100 overlaps the waits, leaving two rounds of waits and the
// parsing, about 15 ms: well over the 3× the lesson asks.
func TestLessonFind(t *testing.T) {
	skipTiming(t)
	c := only(func(c *Config) { c.Docs, c.Wait, c.Workers, c.Reps = 200, time.Millisecond, 100, 3 })
	guard.Retry(t, func() error {
		s, err := speedups(c, "find", 1)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("find on 1 CPU: concurrent %.2f× sequential", s[0])
		if s[0] < 3 {
			return fmt.Errorf("find concurrent is %.2f× sequential on 1 CPU, want at least 3×", s[0])
		}
		return nil
	})
}

// TestLessonAdd: CPU-bound work gains nothing from goroutines on one CPU,
// and gains from a second CPU. 10 million integers take some milliseconds
// to sum, long enough that starting two goroutines is noise; the 2-CPU
// speedup stops short of 2 where memory bandwidth, not arithmetic, limits
// the sum.
func TestLessonAdd(t *testing.T) {
	skipTiming(t)
	cpus := []int{1, 2}
	if runtime.NumCPU() < 2 {
		t.Log("one CPU only: checking the 1-CPU half of the lesson")
		cpus = cpus[:1]
	}
	c := only(func(c *Config) { c.AddSize, c.Goroutines, c.Reps = 10_000_000, 2, 11 })
	guard.Retry(t, func() error {
		s, err := speedups(c, "add", cpus...)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("add: concurrent %.2f× sequential on %v CPUs", s, cpus)
		if s[0] > 1.15 {
			return fmt.Errorf("add concurrent is %.2f× sequential on 1 CPU, want no more than 1.15×", s[0])
		}
		if len(s) > 1 && s[1] < 1.3 {
			return fmt.Errorf("add concurrent is %.2f× sequential on 2 CPUs, want at least 1.3×", s[1])
		}
		return nil
	})
}

// TestLessonSort: sorting chunks at once and then the whole again is no
// faster than one sort, on one CPU or two: the second sort redoes most of
// the work. On one CPU it is about 0.8×; on two about 1×.
func TestLessonSort(t *testing.T) {
	skipTiming(t)
	cpus := []int{1}
	if runtime.NumCPU() >= 2 {
		cpus = append(cpus, 2)
	}
	c := only(func(c *Config) { c.SortSize, c.Goroutines, c.Reps = 6000, 2, 5 })
	guard.Retry(t, func() error {
		s, err := speedups(c, "sort", cpus...)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("sort: concurrent %.2f× sequential on %v CPUs", s, cpus)
		for i, x := range s {
			if x > 1.1 {
				return fmt.Errorf("sort concurrent is %.2f× sequential on %d CPUs, want no more than 1.1×", x, cpus[i])
			}
		}
		return nil
	})
}
