//go:build unix

package sweep

import (
	"os/exec"
	"syscall"
)

// OwnGroup starts cmd in a process group of its own: a ^C at the terminal
// reaches brewput, which stops the child itself.
func OwnGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }
