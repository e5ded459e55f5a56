package text

import (
	"fmt"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results/analysis"
)

// ModeFigures are a mode's throughput and latency where it is judged, as
// the tests read them: "928 lattes/s at 8.62 ms on 8 CPUs, model (go)".
func ModeFigures(m analysis.ModeLimit) string {
	return fmt.Sprintf("%s %s at %s ms on %s, %s", format.Whole(m.Throughput), m.Unit, format.Ms3(m.P50), cpus(m.CPUs), m.Source)
}

// Sentences are the verdict's words, as the tests read them: a sentence
// for each count of interest, then the studies' and the benchmarks'.
func Sentences(v analysis.Verdict) []string {
	var out []string
	for _, c := range v.Counts {
		out = append(out, CountSentence(c))
	}
	for _, d := range v.Studies {
		out = append(out, StudySentences(d)...)
	}
	for _, f := range v.Benches {
		out = append(out, BenchSentences(f)...)
	}
	return out
}
