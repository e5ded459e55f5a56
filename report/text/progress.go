package text

import (
	"fmt"
	"time"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results"
)

// The lines the command layer writes on stderr while it works, and the
// notes it leaves there.

// WhyBegins says how a why experiment of what goes: "why WHAT: 6 rounds or
// more, up to 20, within 3m0s…TAIL"; built is the time the build took of
// within, 0 where within is counted from the experiment's start.
func WhyBegins(what string, count, maxCount int, within, built time.Duration, tail string) string {
	limit := ""
	if within > 0 {
		limit = fmt.Sprintf(", within %v", within)
		if built > 0 {
			limit = fmt.Sprintf(", within %v counted from its start (the build took %.0f s of it)", within, built.Seconds())
		}
	}
	return fmt.Sprintf("why %s: %d rounds or more, up to %d%s%s", what, count, maxCount, limit, tail)
}

// WhyRunLength is the tail of WhyBegins for a study: ", of 1.2s a run".
func WhyRunLength(run time.Duration) string { return fmt.Sprintf(", of %v a run", run) }

// WhyControl names the control's runs: "control, 61ns an op outside every lock".
func WhyControl(extra fmt.Stringer) string {
	return fmt.Sprintf("control, %v an op outside every lock", extra)
}

// WhyRounds says how a why's rounds go: parts stretched in turn by extra
// (frac of an operation), a round's length, and how long count and
// maxCount rounds take; within, where not 0, where it stops.
func WhyRounds(parts int, extra fmt.Stringer, frac float64, round time.Duration, count, maxCount int, within time.Duration) string {
	limit := ""
	if within > 0 {
		limit = fmt.Sprintf("; it stops at %v, undecided if it must, rather than start a round that would not end in it", within)
	}
	return fmt.Sprintf("%s stretched in turn, %v an operation (%s of one), and the control; a round takes about %.0f s (more where a disturbed run is measured again): %d rounds about %.0f s, %d at most about %.0f s%s",
		format.Count(parts, "part"), extra, format.Percent(frac, 0), round.Seconds(), count, (time.Duration(count) * round).Seconds(),
		maxCount, (time.Duration(maxCount) * round).Seconds(), limit)
}

// MeasuredAgain says a run others disturbed is measured again.
func MeasuredAgain(what string, p results.Point, waited time.Duration, attempt, attempts int) string {
	return what + ": " + BenchMeasuredAgain(p, waited, attempt, attempts)
}

// BuildingWatched says the packages are being built with every lock watched.
func BuildingWatched(pkgs []string) string {
	return fmt.Sprintf("building %v with every lock watched", pkgs)
}

// CausalProfileFailed says a point's causal profile could not be made.
func CausalProfileFailed(p results.Point, err error) string {
	return fmt.Sprintf("causal profile of %s cpus=%d: %v", p.Mode, p.CPUs, err)
}

// JournalKept says where a run cut short left its journal and, where it
// can resume, the command that measures the rest.
func JournalKept(journal, resume string) string {
	if resume != "" {
		return fmt.Sprintf("%s keeps the run's plan: %s --resume %s measures the rest", journal, resume, journal)
	}
	return fmt.Sprintf("kept the journal %s", journal)
}

// StagingRemoved notes a report's folder cut short while written, removed.
func StagingRemoved(staging string) string {
	return fmt.Sprintf("note: removed %s, left by a report cut short", staging)
}

// PlaygroundWritten says where the playground is and what it weighs.
func PlaygroundWritten(index string, download, engine, compressed int) string {
	return fmt.Sprintf("playground: %s (%s to download: its engine %s of WebAssembly, held gzipped in %s; open it from disk or any static host)",
		index, format.Bytes(float64(download)), format.Bytes(float64(engine)), format.Bytes(float64(compressed)))
}

// Serving says where the playground is served.
func Serving(url string) string { return fmt.Sprintf("serving it at %s (Ctrl-C to stop)", url) }

// ModelWarmup says the warm-up the model takes for a system's window.
func ModelWarmup(system string, warmup, window time.Duration) string {
	return fmt.Sprintf("%s: %v of warm-up before each %v window (--warmup sets another)", system, warmup.Round(time.Microsecond), window)
}

// ModelWindow says the window the model takes for a system, about orders
// on one CPU; fewer where only so many events fit.
func ModelWindow(system string, window, warmup time.Duration, orders int, fewer bool) string {
	more := ""
	if fewer {
		more = ", as many as the events allowed fit"
	}
	return fmt.Sprintf("%s: a window of %v after %v of warm-up, about %d orders on one CPU%s (--dur and --warmup set others)",
		system, window.Round(time.Microsecond), warmup.Round(time.Microsecond), orders, more)
}

// ThisMachine names this machine of cpus CPUs as the model predicts for it;
// moveFree where its calibration has no cost of moving a line.
func ThisMachine(cpus int, moveFree bool) string {
	s := fmt.Sprintf("this machine (%d CPUs; %s)", cpus, KnownAbout)
	if moveFree {
		s += ", its calibration older than the cost of moving a cache line between cores: lines move for free (brewput calibrate measures it)"
	}
	return s
}

// ForThisMachine says a prediction is for this machine up to its cpus and
// for the machine about past them.
func ForThisMachine(cpus int, about string) string {
	return fmt.Sprintf("; for this machine on up to %s (%s), and past them for %s", format.Count(cpus, "CPU"), KnownAbout, about)
}
