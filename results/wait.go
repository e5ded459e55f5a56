package results

// Wait is one place where a point's goroutines waited, from its block
// profile: a lock, a channel operation, a select.
type Wait struct {
	// Kind is what was waited on: "mutex", "chan receive", "chan send",
	// "select", "cond", "waitgroup" or "other".
	Kind string `json:"kind"`
	// Site is the function and file:line, with the call's source text.
	Site string `json:"site"`
	// Count is the waits recorded, TotalMs their time over the window,
	// PerOpMs that per operation.
	Count   int64   `json:"count"`
	TotalMs float64 `json:"total_ms"`
	PerOpMs float64 `json:"per_op_ms"`
}
