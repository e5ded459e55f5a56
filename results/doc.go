// Package results is the contract between measuring and presenting: the
// Point a run measures or the model predicts — its kind, its Spec, its
// numbers, its Trust and its kind's part — and its encodings as JSON
// Lines (of schema 2, which reads schema 1's files too), CSV, Go benchmark
// lines and an aligned table. A results file carries everything a later
// report, comparison or merge needs, each point's full latency histogram
// included, so that nothing measured has to be measured again.
package results
