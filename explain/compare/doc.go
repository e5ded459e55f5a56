// Package compare answers "is B better than A?": it tells, configuration by
// configuration, how two sets of
// results differ, the way benchstat does for Go benchmarks: the repetitions
// of a configuration (run --count) are samples; each side's samples are
// summarized by their median and its confidence interval; and a
// Mann-Whitney U test says whether a difference is significant or could be
// noise. "No significant difference" is an answer too, and so is "too few
// runs to tell", which is what one run of each side always gets.
//
// The model's predictions are compared only with predictions, and
// measurements only with measurements: see Key.
//
// Compare does the statistics and returns a Comparison, which WriteTable
// presents to people and WriteJSON to programs.
package compare
