package text

import (
	"fmt"
	"io"
	"math"
	"time"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results"
)

// LabEvent says in a line what a lab's run tells as it goes: a point
// measured, a count measured again, profiles written, a warning.
func LabEvent(ev results.LabEvent) string {
	switch {
	case ev.Measured != nil:
		return labPoint(*ev.Measured)
	case ev.Again != nil:
		a := ev.Again
		state := "quiet"
		if a.Busy {
			state = fmt.Sprintf("still busy, others %.2f CPUs", a.Others)
		}
		return fmt.Sprintf("%d of the %d points on %s disturbed: measuring the count again after %v (%s), attempt %d of %d",
			a.Disturbed, a.Of, format.Count(a.CPUs, "CPU"), a.Waited.Round(100*time.Millisecond), state, a.Attempt, a.Attempts)
	case ev.Profiled != nil:
		n, base := ev.Profiled.CPUs, ev.Profiled.Base
		return fmt.Sprintf("profiles of %d %s: %s.trace, .cpu.pprof, .block.pprof, .mutex.pprof", n, format.Plural(n, "CPU"), base)
	case ev.Warning != nil:
		return ev.Warning.Error()
	}
	return ""
}

// labPoint says a lab's point as its lab tells it, marked where disturbed.
func labPoint(lp results.LabPoint) string {
	s := labFigures(lp)
	if lp.Point.IsDisturbed() {
		s += " (disturbed: " + Interference(lp.Point) + ")"
	}
	return s
}

// labFigures is a point's figures, as its lab (the point's LabName) tells
// them: "channels cpus=2 B=1: 1.2M lines/s, 91 [88, 93] % of the bound …".
func labFigures(lp results.LabPoint) string {
	p, m := lp.Point, lp.Point.Metrics
	rate := func(v float64) string { return format.Rate(v, p.Unit) }
	util := 100 * m[results.Util]
	name, variant, n := p.LabName(), p.Variant(), p.CPUs
	switch name {
	case "actors":
		s := fmt.Sprintf("%s cpus=%d %s clients=%d: %s %s, latency p50 %s p99 %s, CPU util %.0f %%",
			name, n, variant, p.Par, rate(p.Throughput), intervalEnds(lp.Rate, rate), format.Wait(p.Latency.P50), format.Wait(p.Latency.P99), util)
		if lp.Vs.N > 0 && variant != "simple" && variant != "remote/simple" {
			s += ", ×" + intervalFixed(lp.Vs, 2) + " simple's"
		}
		if cost, ok := m["remote_cost"]; ok {
			s += fmt.Sprintf(", %.1f× slower than in process", cost)
		}
		return s
	case "aggregate":
		s := fmt.Sprintf("%s cpus=%d %s: %s, %.2f events/call (stream runs of %.2f), p50 latency %s, CPU util %.0f %%",
			name, n, variant, rate(p.Throughput), m["events_per_call"], m["stream_run_length"], format.Wait(p.Latency.P50), util)
		if lp.Vs.N > 0 {
			s += fmt.Sprintf(", ×%s single's events/s", intervalFixed(lp.Vs, 2))
		}
		return s
	case "channels":
		percent := func(v float64) string { return fmt.Sprintf("%.0f", 100*v) }
		return fmt.Sprintf("%s cpus=%d %s: %s, %s %s %% of the bound %s, CPU util %.0f %%",
			name, n, variant, rate(p.Throughput), percent(lp.Vs.Median), intervalEnds(lp.Vs, percent), rate(m["bound_lines_per_s"]), util)
	case "logs":
		return fmt.Sprintf("%s cpus=%d %s writers=%d: %s %s, %.0f%% of 1 writer; latency sum %.2f× the wall time; verified",
			name, n, variant, p.Par, rate(p.Throughput), intervalEnds(lp.Rate, rate), 100*m["of_single"], m["overstatement"])
	case "render":
		return fmt.Sprintf("%s cpus=%d %s: render %s, render speedup over seq ×%s, encode %s, CPU util %.0f %%",
			name, n, variant, format.Wait(m["render_ms"]), intervalFixed(lp.Vs, 2), format.Wait(m["encode_ms"]), util)
	case "stream":
		s := fmt.Sprintf("%s cpus=%d %s: %s %s, reply p50 %s p99 %s, %.0f replied, %.0f failed",
			name, n, variant, rate(p.Throughput), intervalEnds(lp.Rate, rate), format.Wait(p.Latency.P50), format.Wait(p.Latency.P99), m["replied"], m["failed"])
		if m["restart"] == 1 {
			s += fmt.Sprintf(", %.0f reconnects", m["reconnects"])
		}
		return s
	case "workloads":
		s := fmt.Sprintf("%s/%s cpus=%d: median run %s of %d (the workload %s a run), %s",
			name, variant, n, format.Wait(p.Latency.P50), lp.Rate.N, times(int(m["passes"])), rate(p.Throughput))
		if lp.Vs.N > 0 {
			s += ", speedup over sequential ×" + intervalFixed(lp.Vs, 2)
		}
		return s
	case "wordcount":
		s := fmt.Sprintf("%s/%s cpus=%d: median %s of %d, %s, speedup ×%s",
			name, variant, n, format.Wait(m["median_ms"]), lp.Rate.N, rate(p.Throughput), intervalFixed(lp.Vs, 1))
		if _, ok := m["allocs_per_op"]; ok {
			s += fmt.Sprintf(", %.0f allocs/op, %.0f B/op", m["allocs_per_op"], m["bytes_per_op"])
		}
		return s
	}
	return fmt.Sprintf("%s cpus=%d %s: %s", name, n, variant, rate(p.Throughput))
}

// times says how many times: "once", "3 times".
func times(n int) string {
	if n == 1 {
		return "once"
	}
	return fmt.Sprintf("%d times", n)
}

// intervalFixed writes iv's median with prec decimals, and its ends:
// "1.81 [1.70, 1.90]".
func intervalFixed(iv results.Interval, prec int) string {
	f := func(v float64) string { return fmt.Sprintf("%.*f", prec, v) }
	return f(iv.Median) + " " + intervalEnds(iv, f)
}

// intervalEnds writes iv's ends by f, "[1.70, 1.90]", or where unbounded
// the runs, "(5 runs)".
func intervalEnds(iv results.Interval, f func(float64) string) string {
	if math.IsInf(iv.Lo, 0) || math.IsInf(iv.Hi, 0) {
		return fmt.Sprintf("(%s)", format.Count(iv.N, "run"))
	}
	return fmt.Sprintf("[%s, %s]", f(iv.Lo), f(iv.Hi))
}

// LabLines tells a lab's events on w, each a line after prefix
// (format.Lines).
func LabLines(w io.Writer, prefix string) func(results.LabEvent) {
	lines := format.Lines(w, prefix)
	return func(ev results.LabEvent) { lines(LabEvent(ev)) }
}
