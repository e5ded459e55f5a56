//go:build unix

package outfile

import (
	"errors"
	"os"
	"syscall"
)

// noFollow makes opening a lock file that is a symbolic link fail.
const noFollow = syscall.O_NOFOLLOW

// lock takes an exclusive lock on f without waiting; false where another
// open file holds it. The kernel releases it when f is closed or the
// process ends.
func lock(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}

// gone says whether no process has the pid (a holder that signed it).
func gone(pid int) bool {
	return pid > 0 && errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
