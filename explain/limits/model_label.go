package limits

import (
	"fmt"
	"time"

	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/sim"
)

// ModelLabel says what a simulation ran with: "model (fifo)", or the go
// policy and the costs it charged, so that an answer can be traced to the
// calibration it came from.
func ModelLabel(sched string, c sim.Costs) string { return label(sched, "", c) }

// label is ModelLabel of the go policy following runtime's scheduler,
// which it names where it is not today's: "model (go, go1.9 runtime: …)".
func label(sched, runtime string, c sim.Costs) string {
	if sched == "fifo" {
		return "model (fifo)"
	}
	if runtime != "" {
		return "model (go, " + runtime + " runtime: " + costsText(c) + ")"
	}
	return "model (go: " + costsText(c) + ")"
}

// Setting says which model policy is and where its costs came from, as
// brewput's commands print it beside their answers: "the model, fifo
// policy (idealized CPUs: no calibration)", or "the model, go policy,
// calibration FILE, for vm's runtime costs, measured 2026-…: wake 132µs,
// …" (naming the runtime it follows where it is not today's). from says
// where the costs came from ("calibration FILE", "the cost flags"),
// machine which machine's costs they are (results.Calibration.For), if
// known.
func Setting(policy model.Policy, from, machine string) string {
	if policy.Sched == "fifo" {
		return "the model, fifo policy (idealized CPUs: no calibration)"
	}
	s := "the model, go policy, " + from
	if policy.Runtime != "" {
		s = "the model, go policy following the " + policy.Runtime + " runtime, " + from
	}
	if machine != "" {
		s += ", " + machine
	}
	s += ": " + costsText(policy.Costs)
	if b := policy.Background; b.CPUs > 0 {
		s += fmt.Sprintf("; other processes taking %.3g CPUs in bursts of %v", b.CPUs, b.Burst)
	}
	return s
}

func costsText(c sim.Costs) string {
	us := func(d time.Duration) string { return format.Sig(float64(d)/float64(time.Microsecond), 3) + "µs" }
	// The spin wake-up applies only to a P idle for less than the spin
	// window; without a window no P spins.
	spin := "no spinning P (spin window 0)"
	if c.SpinWindow > 0 {
		spin = fmt.Sprintf("spin wake %s (a P idle under %s)", us(c.SpinWake), us(c.SpinWindow))
	}
	s := fmt.Sprintf("wake %s, %s, switch %s, mutex handoff %s, chan handoff %s, buffered %s",
		us(c.Wake), spin, us(c.Switch), us(c.MutexHandoff), us(c.ChanHandoff), us(c.BufChanHandoff))
	if c.RunnextGrace > 0 { // measured; calibrations from before it have none
		s += ", runnext grace " + us(c.RunnextGrace)
	}
	if c.MutexSpin > 0 { // measured; calibrations from before it have none, and never spin
		s += ", mutex spin " + us(c.MutexSpin)
	}
	return s
}
