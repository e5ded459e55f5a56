// Package compare answers "is B better than A?", configuration by
// configuration, as benchstat does: each side's repetitions (--count) are
// samples summarized by their median and its 95 % interval, and a
// Mann-Whitney U test says whether a difference is significant; "too few
// runs to tell" is an answer too. Predictions are compared only with
// predictions (Key). Compare returns a Comparison, written by WriteTable
// for people and WriteJSON for programs.
package compare
