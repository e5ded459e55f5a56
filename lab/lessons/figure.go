package lessons

import (
	"math"

	"github.com/brewput/brewput/explain/compare"
	"github.com/brewput/brewput/results/lesson"
)

// summarize makes the figure of samples, with benchmath's interval as
// package compare gives it.
func summarize(values []float64) lesson.Figure {
	if len(values) == 0 {
		return lesson.Figure{Median: math.NaN(), Lo: math.Inf(-1), Hi: math.Inf(1)}
	}
	s := compare.SummarizeValues(values)
	return lesson.Figure{Median: s.Median, Lo: s.Lo, Hi: s.Hi, N: len(values), Values: values}
}

// exact is the figure of a deterministic value: the model's.
func exact(v float64) lesson.Figure {
	return lesson.Figure{Median: v, Lo: v, Hi: v, N: 1, Values: []float64{v}}
}
