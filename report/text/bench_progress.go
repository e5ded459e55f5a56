package text

import (
	"fmt"
	"strings"
	"time"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results"
)

// The lines brewput bench, why and predict write on stderr while they
// measure a user's Go benchmarks, and the notes they leave.

// FixedCount warns that a fixed number of iterations (benchtime, "1000x")
// makes b.RunParallel's workers contend for one counter (golang/go#37996).
func FixedCount(benchtime string) string {
	return fmt.Sprintf("-benchtime %s: a benchmark that uses b.RunParallel hands its workers "+
		"iterations a few at a time when their number is fixed (its grain is taken from a "+
		"run of one iteration; golang/go#37996), so on several CPUs they contend for one "+
		"counter: a duration such as 500ms measures the code, not that counter.", benchtime)
}

// BenchBuilding says a package's test binary is being built.
func BenchBuilding(pkg string) string { return "building " + pkg }

// NoTestFiles says a package has no test files, so no benchmarks.
func NoTestFiles(pkg string) string { return pkg + ": no test files" }

// BenchDisturbed says a benchmark's runs on cpus were too disturbed, so
// it is measured again alone.
func BenchDisturbed(name string, cpus, disturbed, runs int) string {
	return fmt.Sprintf("%s on %s: %d of its %d runs disturbed; measuring it again alone", name, format.Count(cpus, "CPU"), disturbed, runs)
}

// BenchMeasuredAgain says a benchmark's run others disturbed is measured
// again: attempt of attempts, after waiting for a quiet machine.
func BenchMeasuredAgain(p results.Point, waited time.Duration, attempt, attempts int) string {
	return fmt.Sprintf("disturbed (%s): measuring again after waiting %v for a quiet machine, attempt %d of %d",
		Interference(p), waited.Round(100*time.Millisecond), attempt, attempts)
}

// BenchRunning says a package's test binary runs on n CPUs, pinned to
// the CPU ids named (ids "" where it is not pinned).
func BenchRunning(pkg string, n int, ids string) string {
	where := ""
	if ids != "" {
		noun := "CPUs"
		if n == 1 {
			noun = "CPU"
		}
		where = fmt.Sprintf(" (pinned to %s %s: runtime.NumCPU() returns %d there)", noun, ids, n)
	}
	return fmt.Sprintf("%s on %s%s", pkg, format.Count(n, "CPU"), where)
}

// BenchKilled says a test binary ran a minute past its -timeout and was
// killed; tail is the end of its output.
func BenchKilled(timeout time.Duration, tail string) string {
	return fmt.Sprintf("killed, still running a minute past its -timeout %v (stopped, or stuck): %s", timeout, tail)
}

// BenchAllSkipped says the skipped benchmarks a pattern matched were all
// that it matched.
func BenchAllSkipped(skipped int) string {
	return fmt.Sprintf("%d matching benchmarks skipped themselves (b.Skip) and none ran", skipped)
}

// WatchCost says a benchmark on cpus whose watched runs' median
// throughput differs from its plain ones', runs of each.
func WatchCost(name string, cpus int, watched, plain float64, unit string, runs int) string {
	return fmt.Sprintf("%s on %s: %s watched, %s plain (%+.0f %%, medians of %s each)",
		name, format.Count(cpus, "CPU"), format.Rate(watched, unit), format.Rate(plain, unit), 100*(watched/plain-1), format.Count(runs, "run"))
}

// WatchMoved heads the list of the moved benchmarks that watching the
// locks changed by more than tolerance.
func WatchMoved(moved int, tolerance float64) string {
	return fmt.Sprintf("Watching the locks changed %s by more than %.0f %% (each ran unwatched too, as many times, "+
		"every watched run beyond every unwatched one); their lock figures are of the code as watching changed it:",
		format.Count(moved, "benchmark"), 100*tolerance)
}

// WatchUnsure says in how many benchmarks (more: besides those WatchMoved
// lists) the watched and unwatched medians differ by more than tolerance,
// though no more than chance explains with fewer than minApart runs each.
func WatchUnsure(unsure int, more bool, tolerance float64, minApart int) string {
	noun := "benchmark"
	if more {
		noun = "more benchmark"
	}
	return fmt.Sprintf("Watched and unwatched medians differ by more than %.0f %% in %s, by no more than chance "+
		"explains: their runs overlap, were disturbed or number fewer than %d each (-count).",
		100*tolerance, format.Count(unsure, noun), minApart)
}

// WhyRare names a lock site a why leaves out: held or waited for share
// of the workers' time, used uses times an operation.
func WhyRare(site string, share, uses float64) string {
	return fmt.Sprintf("%s (%s of the time, %.3f uses an op)", site, format.Percent(share, 2), uses)
}

// WhyNothingToAdd names a lock site a why leaves out, as its stretch
// would add nothing.
func WhyNothingToAdd(site string) string { return site + " (nothing to add)" }

// WhyLeftOut says which sites (WhyRare, WhyNothingToAdd) a why leaves
// out: those held less than minShare and used less than minUses an op.
func WhyLeftOut(minShare, minUses float64, sites []string) string {
	return fmt.Sprintf("left out (a part holding or waiting for less than %s of the workers' time and used less than once in %.0f operations cannot queue the others): %s",
		format.Percent(minShare, 0), 1/minUses, strings.Join(sites, "; "))
}

// WhyLockControl names the runs of a benchmark's control, extra added
// before every lock.
func WhyLockControl(extra fmt.Stringer) string {
	return fmt.Sprintf("control, %v before every lock", extra)
}

// DisturbedRuns says how many of the runs a prediction measured were
// disturbed, and whether it stands on them (kept, --noisy ok) or not.
func DisturbedRuns(disturbed, ran int, kept bool) string {
	said := "left out: it stands on the rest"
	if kept {
		said = "kept (--noisy ok): it stands on them"
	}
	return fmt.Sprintf("%d of the %d runs measured were disturbed (other processes took CPU while they ran) and %s.", disturbed, ran, said)
}
