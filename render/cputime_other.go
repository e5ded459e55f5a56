//go:build !unix

package render

import "time"

// processCPU is not available on this platform; utilization reads as zero.
func processCPU() time.Duration { return 0 }
