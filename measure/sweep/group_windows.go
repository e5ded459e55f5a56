package sweep

import (
	"os/exec"
	"syscall"
)

// OwnGroup starts cmd in a console process group of its own, which
// Windows keeps Ctrl+C from: it reaches brewput, which stops the child
// itself (Process.Kill, through exec.CommandContext).
func OwnGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}
