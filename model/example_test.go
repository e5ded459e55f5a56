package model_test

import (
	"context"
	"fmt"

	"github.com/brewput/brewput/model"
)

// Simulate three of the talk's modes on 6 CPUs, on the idealized fifo
// machine, and compare each with its bound.
func ExampleSimulate() {
	var cfgs []model.Config
	for _, mode := range []string{"locking", "finelocking", "multi-2"} {
		cfg := model.DefaultConfig(6)
		cfg.Mode, cfg.Policy.Sched = mode, "fifo"
		cfgs = append(cfgs, cfg)
	}
	points, err := model.Simulate(context.Background(), cfgs, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range points {
		fmt.Printf("%-11s %4.0f lattes/s, p50 %vms; ceiling %4.0f (%s)\n",
			p.Mode, p.Throughput, p.Latency.P50, p.Bounds.ThroughputMax, p.Bounds.SetBy)
	}
	// Output:
	// locking      250 lattes/s, p50 24ms; ceiling  250 (kitchen)
	// finelocking 1000 lattes/s, p50 6ms; ceiling 1000 (grinder)
	// multi-2     1500 lattes/s, p50 4ms; ceiling 1500 (cpus)
}
