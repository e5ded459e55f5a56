package main

import (
	"context"
	"fmt"

	"github.com/brewput/brewput/lab/aggregate"
	"github.com/brewput/brewput/results"
	"github.com/spf13/pflag"
)

func aggregateLab() labEntry {
	return labEntry{
		name: aggregate.Name, summary: aggregate.Summary, help: aggregate.Help,
		example: `  brewput lab aggregate
  brewput lab aggregate --producers 1,4 --buffers 0,100 --handle-cost 5us
  brewput lab aggregate --cpus 1,2 --run-length 2 --format json --out aggregate.json`,
		register: func(fs *pflag.FlagSet) func() (labRun, error) {
			c := aggregate.DefaultConfig()
			cost := durationFlag(c.HandleCost)
			fs.IntVar(&c.Events, "events", c.Events, "events the producers make together for each run of a point")
			fs.IntSliceVar(&c.Producers, "producers", c.Producers, "producer counts P to sweep")
			fs.IntSliceVar(&c.Buffers, "buffers", c.Buffers, "channel buffer sizes S to sweep, in events (0: unbuffered)")
			fs.Float64Var(&c.RunLength, "run-length", c.RunLength, "mean length of the runs of one event type each producer makes (1: every event differs from the one before)")
			fs.Var(&cost, "handle-cost", "CPU time one handle call spins, whatever the number of events it handles")
			fs.Uint64Var(&c.Seed, "seed", c.Seed, "seed of the producers' event streams")
			fs.IntVar(&c.Reps, "reps", c.Reps, "runs of each variant at each point, the two ways taking turns; a point reports the median")
			return func() (labRun, error) {
				c.HandleCost = cost.get()
				if err := c.Validate(); err != nil {
					return nil, fmt.Errorf("--%w", err)
				}
				return func(ctx context.Context, cpus []int, progress func(string)) ([]results.Point, error) {
					return aggregate.Run(ctx, c, cpus, progress)
				}, nil
			}
		},
	}
}
