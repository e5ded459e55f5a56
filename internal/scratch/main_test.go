package scratch

import (
	"fmt"
	"testing"
	"time"

	"github.com/brewput/brewput/causal"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/sim"
)

func TestShow(t *testing.T) {
	us := time.Microsecond
	costs := sim.Costs{Switch: 280 * time.Nanosecond, Wake: 132 * us, SpinWake: 1200 * time.Nanosecond, SpinWindow: 80 * us,
		MutexHandoff: 3 * us, ChanHandoff: 3700 * time.Nanosecond, BufChanHandoff: 3600 * time.Nanosecond}
	for _, c := range []struct{ mode string; cpus int; sched string }{
		{"finelocking", 8, "go"}, {"parsteam", 2, "fifo"}, {"finelocking", 4, "fifo"}, {"finelocking", 6, "fifo"}, {"ideal", 4, "fifo"}, {"locking", 2, "fifo"}, {"locking", 1, "fifo"}, {"linearpipe-0", 4, "go"}, {"multipipe-2", 8, "fifo"},
	} {
		cfg := model.DefaultConfig(c.cpus)
		cfg.Mode, cfg.Sched = c.mode, c.sched
		if c.sched == "go" { cfg.Costs = costs }
		start := time.Now()
		p, err := causal.Mode(cfg)
		if err != nil { t.Fatal(err) }
		fmt.Printf("== %s %s %.0f (%v)\n%s\n", p.System, c.sched, p.Now.Throughput, time.Since(start).Round(time.Millisecond), p.Bottleneck.Text)
		for _, tr := range p.Trials { fmt.Printf("   %-60s %+6.1f%%  p99 %+6.1f%%\n", tr.Change, 100*tr.Gain, 100*tr.P99Change) }
		if p.Combined != nil { fmt.Printf("   combined: %s %+.1f%%\n", p.Combined.Change, 100*p.Combined.Gain) }
	}
}
