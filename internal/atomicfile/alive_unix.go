//go:build unix

package atomicfile

import (
	"errors"
	"syscall"
)

// alive reports whether process pid runs (or may: one this process may not
// signal runs).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
