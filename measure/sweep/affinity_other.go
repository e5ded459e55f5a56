//go:build !linux

package sweep

import "os/exec"

// AllowedCPUs is unknown where affinity cannot be read.
func AllowedCPUs() string { return "" }

// StartPinned starts cmd without restricting its CPUs, which only Linux
// supports here; GOMAXPROCS still limits it.
func StartPinned(cmd *exec.Cmd, n int) error { return cmd.Start() }
