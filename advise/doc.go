// Package advise answers "what would help?": it tries, in the model, the
// structural changes the talk discusses (another copy of the bottleneck,
// a buffer between pipeline stages, a shorter or split critical section,
// more CPUs, more customers) and ranks them by predicted throughput and
// latency gain against what they cost.
package advise
