// Package text writes what brewput says in words — the sentences of its
// answers and the terminal's tables — from the results and their
// analysis, so that the terminal, the page and the JSON say the same
// thing. It draws nothing, and imports neither the model nor the
// explanation layer.
package text
