//go:build unix

package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
)

// alive reports whether process pid runs (or may: one this process may not
// signal runs). A zombie, killed and not yet reaped, does not.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	if err != nil {
		return errors.Is(err, syscall.EPERM)
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true // no /proc to say otherwise
	}
	// "pid (comm) state …": the state follows the last parenthesis.
	s := string(stat)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && strings.HasPrefix(s[i+1:], " Z") {
		return false
	}
	return true
}
