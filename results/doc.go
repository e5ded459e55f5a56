// Package results is the contract between measuring and presenting: the
// Point a run produces (or the virtual-time model predicts; see
// Point.Source), and its encodings as JSON Lines, CSV, an aligned
// table and back. A results file carries everything a later report,
// comparison or merge needs, including each point's full latency histogram,
// so that nothing measured has to be measured again to be looked at anew.
package results
