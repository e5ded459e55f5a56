// Package analysis explains a study's results: what limits each point (its
// bottleneck, from the point's own counters) and how each mode scales (the
// Universal Scalability Law fitted to its throughput). It reads results
// and adds to them; it measures and simulates nothing itself.
package analysis
