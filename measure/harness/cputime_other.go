//go:build !unix

package harness

import "time"

// ProcessCPU is not available on this platform; utilization reads as zero.
func ProcessCPU() time.Duration { return 0 }
