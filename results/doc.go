// Package results is the contract between measuring and presenting: the
// Point a run measures or the model predicts, and its files (JSON Lines,
// CSV, Go benchmark lines, tables), which carry all a later report needs,
// so that nothing measured has to be measured again.
package results
