package text

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// NoCausalProfile starts the words of a point of the user's own code.
const NoCausalProfile = "No causal profile: brewput names what limits your code only by experiment (a study's why command), so it names no limit here and recommends no change."

// Describe says what a study's point measured, each metered resource
// most used first, then the CPUs; "" for a shop's point.
func Describe(p results.Point) string {
	if !p.IsUserCode() {
		return ""
	}
	rs := analysis.Resources(p) // the CPUs first
	cpu, metered := rs[0], rs[1:]
	slices.SortStableFunc(metered, func(a, b analysis.Resource) int {
		return cmp.Compare(b.Utilization*float64(b.Copies)+b.WaitShare, a.Utilization*float64(a.Copies)+a.WaitShare)
	})
	parts := collect.Mapped(metered, meterWords)
	if cpu.Utilization > 0 {
		parts = append(parts, fmt.Sprintf("CPUs %s used", format.Percent(cpu.Utilization, 0)))
	}
	if p.OthersCPUs >= 0.05 {
		parts = append(parts, fmt.Sprintf("other processes used %.2f CPUs of the machine's %d meanwhile", p.OthersCPUs, max(p.Host.Cores, p.CPUs)))
	}
	s := NoCausalProfile
	if len(parts) > 0 {
		s += " Measured over the window: " + strings.Join(parts, "; ") + "."
	}
	return s
}

// meterWords says what one metered resource measured: "mutex cache held
// 66 % of the time, 4.0 M uses, …", "16 mutexes shard held …".
func meterWords(r analysis.Resource) string {
	var s strings.Builder
	kind := r.Meter
	if results.IsChan(kind) {
		kind = "chan"
	}
	switch {
	case kind == "":
		s.WriteString(r.Name)
	case r.Copies > 1 && strings.HasSuffix(kind, "x"):
		fmt.Fprintf(&s, "%d %ses %s", r.Copies, kind, r.Name)
	case r.Copies > 1:
		fmt.Fprintf(&s, "%d %ss %s", r.Copies, kind, r.Name)
	default:
		s.WriteString(kind + " " + r.Name)
	}
	if !results.IsChan(r.Meter) {
		fmt.Fprintf(&s, " held %s of the time", format.Percent(r.Utilization, 0))
		if r.Copies > 1 {
			s.WriteString(" each, on average")
		}
		if r.Working > 0 {
			fmt.Fprintf(&s, ", working %s", format.Percent(r.Working, 0))
		}
		s.WriteString(",")
	}
	fmt.Fprintf(&s, " %s uses", format.Approx(r.Uses))
	switch {
	case r.Uses > 0 && r.MeanWaitMs == 0:
		s.WriteString(", no caller waiting for it")
	case r.Uses > 0:
		fmt.Fprintf(&s, ", callers waiting %s of their time (%s per use)", format.Percent(r.WaitShare, 0), format.Wait(r.MeanWaitMs))
	}
	return s.String()
}
