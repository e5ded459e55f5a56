//go:build race

// Package race tells tests whether the race detector is on, so that code
// whose lesson is a race runs only in a subprocess under it.
package race

// Enabled is true in a binary built with -race.
const Enabled = true
