package causal

import (
	"time"

	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/comparison"
	"github.com/brewput/brewput/results/stats"
)

// Reliefs is a shop point measured on real CPUs as it is and with each
// relief the model tried, beside the model's predictions.
type Reliefs struct {
	// System names the point: "finelocking on 2 CPUs".
	System string
	// Sched is the model's policy ("" for fifo), Model its point as it is
	// with its verdict, Calibration where its costs came from, if known.
	Sched, Calibration string
	Model              results.Point
	// Predicted is the model's throughput of the point as it is.
	Predicted float64
	Unit      string
	// Runs counts the point's runs as it is, Disturbed the disturbed ones.
	Runs, Disturbed int
	Reliefs         []Relief
}

// Relief is one relief: the model's change and gain, and what was measured.
type Relief struct {
	Change    results.Experiment
	ModelGain float64
	// Skip says why it was not measured.
	Skip string
	// Runs counts its runs, OwnDisturbed those disturbed; Disturbed counts
	// the point's as it is too, where it was compared.
	Runs, Disturbed, OwnDisturbed int
	// Compared says its throughput was compared with the point's as it
	// is: Old and New are theirs, Gain the change of the median with Lo
	// and Hi its range, P the test's p-value, Metric the comparison,
	// Better that it is significantly higher, by DeltaPct %.
	Compared      bool
	Old, New      stats.Summary
	Gain, Lo, Hi  float64
	P, DeltaPct   float64
	Metric        comparison.Metric
	Better        bool
	Judged, Agree bool
}

// Rounds is what a why check is about to measure: the point as it is and
// Reliefs reliefs, Count times each, Runs runs in all, taking About;
// Within is its time limit (0: none).
type Rounds struct {
	Mode                 string
	Reliefs, Count, Runs int
	About, Within        time.Duration
}
