package limits

import (
	"fmt"
	"time"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/model/sim"
)

// ModelLabel says what a simulation ran with: "model (fifo)".
func ModelLabel(sched string, c sim.Costs) string {
	if sched == "fifo" {
		return "model (fifo)"
	}
	us := func(d time.Duration) string { return format.Sig(float64(d)/float64(time.Microsecond), 3) + "µs" }
	spin := "no spinning P (spin window 0)"
	if c.SpinWindow > 0 {
		spin = fmt.Sprintf("spin wake %s (a P idle under %s)", us(c.SpinWake), us(c.SpinWindow))
	}
	s := fmt.Sprintf("wake %s, %s, switch %s, mutex handoff %s, chan handoff %s, buffered %s",
		us(c.Wake), spin, us(c.Switch), us(c.MutexHandoff), us(c.ChanHandoff), us(c.BufChanHandoff))
	if c.RunnextGrace > 0 {
		s += ", runnext grace " + us(c.RunnextGrace)
	}
	if c.MutexSpin > 0 {
		s += ", mutex spin " + us(c.MutexSpin)
	}
	return "model (go: " + s + ")"
}
