package text

import (
	"fmt"
	"time"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results"
)

// SweepWords says a sweep's progress between its points (sweep.Words).
type SweepWords struct{}

// Measuring says how many points a sweep measures, and for how long.
func (SweepWords) Measuring(m results.Measuring) string {
	when := fmt.Sprintf("about %v", m.About.Round(100*time.Millisecond))
	if m.Most > 0 {
		when += fmt.Sprintf(" on a quiet machine, up to %v if other processes make every point be measured again", m.Most.Round(time.Second))
	}
	if m.Done > 0 {
		return fmt.Sprintf("resuming: %s of %d measured, measuring %s, %s (revised as points finish)", format.Count(m.Done, "point"), m.Total, format.Count(m.Left, "point"), when)
	}
	return fmt.Sprintf("measuring %s, %s (revised as points finish)", format.Count(m.Total, "point"), when)
}

// Remeasure says a disturbed point is measured again.
func (SweepWords) Remeasure(r results.Remeasure) string {
	state := "quiet"
	if !r.Quiet {
		state = "still busy"
	}
	return fmt.Sprintf("%s cpus=%d: disturbed (%s): measuring again after waiting %v for a quiet machine (%s), attempt %d of %d",
		r.Point.Mode, r.Point.CPUs, Interference(r.Point), r.Waited.Round(100*time.Millisecond), state, r.Attempt, r.Attempts)
}

// Profiles says where the points' profiles are, and how to open them.
func (SweepWords) Profiles(p results.Profiles) string {
	return fmt.Sprintf("profiles of %s in %s (trace, cpu, block and mutex for each); open them with\n  go tool trace %s\n  go tool pprof -top %s\n",
		format.Count(p.Points, "point"), p.Dir, p.Trace, p.Block)
}

// Interference says what took CPU from a disturbed point (Interference).
func (SweepWords) Interference(p results.Point) string { return Interference(p) }
