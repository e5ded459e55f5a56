package limits

import (
	"strings"
	"time"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/model/sim"
)

// ModelLabel names what a simulation ran with: "model (fifo)", "model
// (go: wake 20µs, spin wake 15µs, spin window 30µs, …)", each of the go
// policy's costs by its name (as brewput calibrate's), those it does not
// use left out.
func ModelLabel(sched string, c sim.Costs) string {
	if sched == "fifo" {
		return "model (fifo)"
	}
	us := func(d time.Duration) string { return format.Sig(float64(d)/float64(time.Microsecond), 3) + "µs" }
	costs := []struct {
		name string
		d    time.Duration
		used bool
	}{
		{"wake", c.Wake, true}, {"spin wake", c.SpinWake, c.SpinWindow > 0}, {"spin window", c.SpinWindow, true},
		{"switch", c.Switch, true}, {"mutex handoff", c.MutexHandoff, true}, {"chan handoff", c.ChanHandoff, true},
		{"buffered", c.BufChanHandoff, true}, {"runnext grace", c.RunnextGrace, c.RunnextGrace > 0}, {"mutex spin", c.MutexSpin, c.MutexSpin > 0},
	}
	var named []string
	for _, k := range costs {
		if k.used {
			named = append(named, k.name+" "+us(k.d))
		}
	}
	return "model (go: " + strings.Join(named, ", ") + ")"
}
