// Package text writes what brewput says in words, its sentences and the
// terminal's tables, from results and their analysis, so that every surface
// says the same. It draws nothing, and imports neither model nor explain.
package text
