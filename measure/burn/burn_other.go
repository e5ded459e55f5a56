//go:build !linux

package burn

import "time"

const threadCPUSupported = false

// burnThreadCPU is never called off Linux: Burn falls back to Wall.
func burnThreadCPU(d time.Duration) { burnWall(d) }

// threadCPUTime is never called off Linux.
func threadCPUTime() time.Duration { return 0 }
