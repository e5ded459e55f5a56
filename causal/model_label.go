package causal

import (
	"fmt"
	"time"

	"github.com/brewput/brewput/sim"
)

// ModelLabel says what a simulation ran with: "model (fifo)", or the go
// policy and the costs it charged, so that an answer can be traced to the
// calibration it came from.
func ModelLabel(sched string, c sim.Costs) string {
	if sched == "fifo" {
		return "model (fifo)"
	}
	us := func(d time.Duration) string { return fmt.Sprintf("%.3gµs", float64(d)/float64(time.Microsecond)) }
	return fmt.Sprintf("model (go: wake %s, spin wake %s within %s, switch %s, mutex handoff %s, chan handoff %s, buffered %s)",
		us(c.Wake), us(c.SpinWake), us(c.SpinWindow), us(c.Switch), us(c.MutexHandoff), us(c.ChanHandoff), us(c.BufChanHandoff))
}
