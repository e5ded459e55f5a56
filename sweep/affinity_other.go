//go:build !linux

package sweep

import "os/exec"

// allowedCPUs is unknown where affinity cannot be read.
func allowedCPUs() string { return "" }

// startPinned starts cmd without restricting its CPUs, which only Linux
// supports here; GOMAXPROCS still limits it.
func startPinned(cmd *exec.Cmd, n int) error { return cmd.Start() }
