//go:build !linux

package sweep

import (
	"fmt"
	"os/exec"
	"runtime"
)

// PlatformNote says, once per run, what a measurement lacks here: its
// CPUs are not pinned, and other processes' CPU use (read from Linux's
// /proc/stat) is not read, so no point is marked disturbed.
const PlatformNote = "note: on " + runtime.GOOS + ", GOMAXPROCS alone limits a point's CPUs (they are pinned on Linux only), and other processes' CPU use is not read, so no point is marked disturbed"

// AllowedCPUs is unknown where affinity cannot be read.
func AllowedCPUs() string { return "" }

// PinTo is n CPUs where affinity cannot be set: the ids say nothing, and
// a set to choose from cannot be honoured.
func PinTo(n int, within []int) ([]int, error) {
	if len(within) > 0 {
		return nil, fmt.Errorf("choosing the CPUs is not supported on %s: GOMAXPROCS alone limits a run here", runtime.GOOS)
	}
	return make([]int, n), nil
}

// StartOn starts cmd, its CPUs limited by GOMAXPROCS only.
func StartOn(cmd *exec.Cmd, cpus []int) error { return cmd.Start() }

// FormatCPUs is "" where the CPUs a process runs on are not known.
func FormatCPUs([]int) string { return "" }
