//go:build !unix && !windows

package harness

// ReadUsage is not available on this platform; utilization reads as zero.
func ReadUsage() Usage { return Usage{} }
