// Package report renders points and their analysis (results/analysis)
// into what people look at: a self-contained HTML page with the answer,
// the map of what limits what, the schedules, the charts (also as SVG and
// PNG beside it), each mode's detail, the labs and the Go benchmarks; and
// the terminal's summary. It computes no reading of its own, so rendering
// the same points and analysis twice gives byte-identical files.
package report
