// Package verdict answers "what did the points find?": for the CPU counts
// where the picture changes, which modes make the most and what limits
// each (Of, read from the Grid of modes by CPU counts); the studies', Go
// benchmark families' and labs' answers; and the rows of the compact
// tables. It returns results/analysis data; report/text writes the words.
package verdict
