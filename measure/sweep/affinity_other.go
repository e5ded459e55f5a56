//go:build !linux

package sweep

import "os/exec"

// AllowedCPUs is unknown where affinity cannot be read.
func AllowedCPUs() string { return "" }

// StartPinned starts cmd, its CPUs limited by GOMAXPROCS only.
func StartPinned(cmd *exec.Cmd, n int) error { return cmd.Start() }
