// Package report turns results into what people look at: the three charts
// of the coffee-shop talk (see package coffee: throughput and median
// latency against CPUs, the latency distribution at the largest CPU count)
// and a self-contained HTML page
// with the machine, the parameters, the charts and every point.
//
// The model's predictions (results.SourceModel) are drawn on the same
// charts as the measurements, in the mode's colour: a measurement as
// markers on a solid line, a prediction as a dashed line, which may run
// on past the CPUs any machine had. The page keeps the two apart: only
// measured points name a machine, and the model's rows are marked.
//
// A report is a pure function of its points: rendering the same results
// twice gives byte-identical files, so a report can be re-made, merged with
// other runs or moved between machines without measuring again.
package report
