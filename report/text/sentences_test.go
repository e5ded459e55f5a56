package text

import "github.com/brewput/brewput/results/analysis"

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
