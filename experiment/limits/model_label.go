package limits

import (
	"fmt"
	"time"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/results"
)

// ModelLabel says what a simulation ran with: "model (fifo)".
func ModelLabel(sched string, c sim.Costs) string {
	if sched == "fifo" {
		return "model (fifo)"
	}
	return "model (go: " + costsText(c) + ")"
}

// SettingOf says beside an answer which model policy is, where its costs
// came from (from: "calibration FILE") and whose (whose: "" for this
// machine): "the model, go policy, calibration FILE, for vm's …: wake 132µs, …".
func SettingOf(policy model.Policy, from, machine, whose string) string {
	if policy.Sched == "fifo" {
		return "the model, fifo policy (idealized CPUs: no calibration)"
	}
	s := "the model, go policy, " + from
	if machine != "" {
		s += ", " + machine
	}
	c := policy.Costs
	s += ": " + results.CostsWords(whose, c.Wake, c.MutexHandoff, c.ChanHandoff) + " (every cost: --format json, or brewput calibrate --show)"
	if b := policy.Background; b.CPUs > 0 {
		s += fmt.Sprintf("; other processes taking %.3g CPUs in bursts of %v", b.CPUs, b.Burst)
	}
	return s
}

func costsText(c sim.Costs) string {
	us := func(d time.Duration) string { return format.Sig(float64(d)/float64(time.Microsecond), 3) + "µs" }
	spin := "no spinning P (spin window 0)"
	if c.SpinWindow > 0 {
		spin = fmt.Sprintf("spin wake %s (a P idle under %s)", us(c.SpinWake), us(c.SpinWindow))
	}
	s := fmt.Sprintf("wake %s, %s, switch %s, mutex handoff %s, chan handoff %s, buffered %s",
		us(c.Wake), spin, us(c.Switch), us(c.MutexHandoff), us(c.ChanHandoff), us(c.BufChanHandoff))
	// Older calibrations have neither (and never spin on a mutex).
	if c.RunnextGrace > 0 {
		s += ", runnext grace " + us(c.RunnextGrace)
	}
	if c.MutexSpin > 0 {
		s += ", mutex spin " + us(c.MutexSpin)
	}
	return s
}
