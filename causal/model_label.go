package causal

import (
	"fmt"
	"time"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/sim"
)

// ModelLabel says what a simulation ran with: "model (fifo)", or the go
// policy and the costs it charged, so that an answer can be traced to the
// calibration it came from.
func ModelLabel(sched string, c sim.Costs) string {
	if sched == "fifo" {
		return "model (fifo)"
	}
	return "model (go: " + costsText(c) + ")"
}

// Setting says which model policy is and where its costs came from, as
// brewput's commands print it beside their answers: "the model, fifo
// policy (idealized CPUs: no calibration)", or "the model, go policy,
// calibration FILE (measured on HOST): wake 132µs, …". from says where
// the costs came from ("calibration FILE", "the cost flags"), host where
// they were measured, if known.
func Setting(policy model.Policy, from, host string) string {
	if policy.Sched == "fifo" {
		return "the model, fifo policy (idealized CPUs: no calibration)"
	}
	s := "the model, go policy, " + from
	if host != "" {
		s += " (measured on " + host + ")"
	}
	return s + ": " + costsText(policy.Costs)
}

func costsText(c sim.Costs) string {
	us := func(d time.Duration) string { return fmt.Sprintf("%.3gµs", float64(d)/float64(time.Microsecond)) }
	return fmt.Sprintf("wake %s, spin wake %s within %s, switch %s, mutex handoff %s, chan handoff %s, buffered %s",
		us(c.Wake), us(c.SpinWake), us(c.SpinWindow), us(c.Switch), us(c.MutexHandoff), us(c.ChanHandoff), us(c.BufChanHandoff))
}
