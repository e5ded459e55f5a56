package main

import (
	"context"
	"fmt"

	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/lab/chartspec"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/results"
)

// This file is a whole new lab, as its package would hold it: a
// configuration whose tagged fields are its flags, its Run, and NewLab
// with its texts and figure. TestNewLab adds it to the list of labs, the
// one line lab/all would take, and brewput runs, lists and reports it.

// tinyConfig is the tiny lab's configuration.
type tinyConfig struct {
	Sizes []int `flag:"sizes" usage:"how many integers to add up, a point each"`
}

// Validate starts its message with the flag's name.
func (c tinyConfig) Validate() error {
	if len(c.Sizes) == 0 || c.Sizes[0] < 1 {
		return fmt.Errorf("sizes %v: want at least one positive size", c.Sizes)
	}
	return nil
}

// tinyRun adds up 0..size-1 for each size at each CPU count.
func tinyRun(ctx context.Context, c tinyConfig, cpus []int, progress func(string)) ([]results.Point, error) {
	return lab.Sweep(ctx, c, cpus, progress, func(n int, add lab.Add) error {
		for _, size := range c.Sizes {
			sw, sum := sweep.StartStopwatch(), 0
			for i := range size {
				sum += i
			}
			w := sw.Stop()
			v := fmt.Sprint(size)
			p := lab.Point("tiny", v, n, w, map[results.Metric]float64{"sum": float64(sum)})
			p.Par, p.Ops, p.Unit, p.Throughput = 1, int64(size), "ints/s", float64(size)/max(w.Wall.Seconds(), 1e-9)
			add(p, "tiny added up "+v)
		}
		return nil
	})
}

// newTinyLab is the tiny lab at its defaults.
func newTinyLab() *lab.Of[tinyConfig] {
	return lab.New(lab.Info{Name: "tiny", Summary: "adds up integers", Help: "Adds up integers.", Example: "  brewput lab tiny"},
		tinyConfig{Sizes: []int{1000}}, tinyRun, chartspec.Figure{Kind: chartspec.Bars, Title: "tiny: integers added per second",
			Lesson: "How fast each size adds up.", Y: chartspec.Axis{Of: chartspec.ByThroughput}, Empty: "Nothing added."})
}
