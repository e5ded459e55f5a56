package results

// Wait is one place where a point's goroutines waited, from its block
// profile: a lock, a channel operation, a select.
type Wait struct {
	// Kind is what was waited on: "mutex", "chan receive", "chan send",
	// "select", "cond", "waitgroup" or "other".
	Kind string `json:"kind"`
	// Site is where in brewput's (or the user's) code the wait happened,
	// as a function and file:line, with the call's source text when known.
	Site string `json:"site"`
	// Count is the number of waits recorded, TotalMs their total time in
	// ms over the measured window, PerOpMs that total per operation
	// (latte) completed in the window.
	Count   int64   `json:"count"`
	TotalMs float64 `json:"total_ms"`
	PerOpMs float64 `json:"per_op_ms"`
}
