package infer

import (
	"math"
	"time"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/calibrate"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/results"
)

// Calibration is costs inferred from measured points: Costs, each one's
// range in Lo and Hi, and how they were inferred. Samples is 0, Host the
// points' machine where they name one.
type Calibration struct {
	calibrate.Calibration
	Inferred *Inference
}

// Inference is how a calibration's costs were inferred from measured points.
type Inference struct {
	// From names the files; Points and Runs are the configurations and
	// runs used, on CPUs.
	From   []string
	Points int
	Runs   int
	CPUs   []int
	// Inferred names by flag the costs the points constrain; Kept those
	// they do not, which keep Base's values and its span
	// (calibrate.Calibration.Span).
	Inferred []string
	Kept     []string
	Fixed    []string // held at Options.Fixed's values
	Base     results.Calibration
	// Tolerance is how much farther outside its runs' band (relative) than
	// the best fit a consistent set of costs may put a point's throughput
	// or median latency, at least; a point whose runs spread wider has
	// that spread as its own (PointFit's tolerances).
	Tolerance float64
	// Sets are costs consistent with the points, which a band simulates
	// (model.Range.Sets): each constrained cost in turn at either edge of
	// its range; the sets the search tried that are consistent and hold a
	// constrained cost at its least or its most (search.ridge); and every
	// kept one at Base's low, then high, edges.
	Sets []sim.Costs
	// Beyond, where the points span two CPU counts or more, is the
	// model's own error past them, which a band past them carries.
	Beyond      *Beyond
	Fit         []PointFit
	Refused     []string // what it could not use, and why
	Evaluations int      // the sets of costs it simulated every point with
}

// Beyond is how far the model missed the points on To CPUs with the
// costs inferred from those on From CPUs and fewer: the mechanisms it
// leaves out, which no set of costs makes up for. Throughput and P50 are
// the errors Share (4 in 5) of the points are within; a band on more CPUs
// than the points' most is widened by them for each step of To/From past
// it (widen).
type Beyond struct {
	From, To        int
	Throughput, P50 float64
	Fit             []PointFit
}

// widen widens band on cpus, never past the bounds (model.Range.Widen),
// each side by the error per step times the steps past To (log cpus/To
// over log To/From).
func (b Beyond) widen(band *model.Band, cpus int, bnd model.Bounds) {
	step := float64(b.To) / float64(b.From)
	if cpus <= b.To || step <= 1 {
		return
	}
	steps := math.Log(float64(cpus)/float64(b.To)) / math.Log(step)
	thr, p50 := b.Throughput*steps, b.P50*steps
	if thr == 0 && p50 == 0 {
		return
	}
	band.ThroughputLo /= 1 + thr
	band.ThroughputHi *= 1 + thr
	if bnd.ThroughputMax > 0 {
		band.ThroughputHi = max(band.ThroughputLo, min(band.ThroughputHi, bnd.ThroughputMax))
	}
	band.P50Lo = time.Duration(float64(band.P50Lo) / (1 + p50))
	band.P50Hi = time.Duration(float64(band.P50Hi) * (1 + p50))
	band.P50Lo = min(band.P50Hi, max(band.P50Lo, bnd.LatencyMin))
}

// PointFit is how far the inferred costs' prediction of a point's
// throughput and median latency lies outside its runs' band, relative to
// the nearer edge (0 inside), and in an inference's fit how much farther
// a consistent set of costs may put it: Inference.Tolerance, or the
// relative width of its runs' band where wider.
type PointFit struct {
	Point                             string
	Throughput, P50                   float64
	ThroughputTolerance, P50Tolerance float64
}

// Range is the uncertainty of c's costs for a band: the sets of costs
// consistent with the points (Inference.Sets) and, past them, the model's
// own error (Inference.Beyond); nil where there is none.
func (c Calibration) Range() *model.Range {
	in := c.Inferred
	if in == nil || len(in.Sets) == 0 {
		return c.Calibration.Range()
	}
	r := &model.Range{Lo: c.Lo, Hi: c.Hi, Sets: in.Sets}
	if b := in.Beyond; b != nil {
		r.Widen = b.widen
	}
	return r
}
