package model_test

import (
	"fmt"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/model"
)

// Simulate three of the talk's modes on 6 CPUs, on the idealized fifo
// machine, and compare each with its bound.
func ExampleRun() {
	cfg := model.DefaultConfig(6)
	cfg.Sched = "fifo"
	for _, mode := range []string{"locking", "finelocking", "multi-2"} {
		cfg.Mode = coffee.MustParseMode(mode)
		r, err := model.Run(cfg)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%-11s %4.0f lattes/s, p50 %v; bound %4.0f (%s)\n",
			mode, r.Throughput, r.Latency.P50, r.Bounds.ThroughputMax, r.Bounds.Limit)
	}
	// Output:
	// locking      250 lattes/s, p50 24ms; bound  250 (kitchen)
	// finelocking 1000 lattes/s, p50 6ms; bound 1000 (grinder)
	// multi-2     1500 lattes/s, p50 4ms; bound 1500 (cpus)
}
