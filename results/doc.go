// Package results is the contract between measuring and presenting: the
// Point a run measures or the model predicts, and its files, which carry
// all a later report needs.
package results
