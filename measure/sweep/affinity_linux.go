package sweep

import (
	"fmt"
	"os/exec"
	"runtime"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// AllowedCPUs describes the CPUs this process may run on, e.g. "0-1".
func AllowedCPUs() string {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return ""
	}
	var ids []int
	for i := 0; i < len(set)*64; i++ {
		if set.IsSet(i) {
			ids = append(ids, i)
		}
	}
	return formatCPUs(ids)
}

// StartPinned starts cmd restricted to the first n of this process's CPUs,
// killed (SIGKILL) if this process dies first. A child inherits the
// affinity of the thread that forks it: the fork happens on a locked
// thread narrowed first, which exits with its goroutine rather than go
// back to the runtime narrowed. The kernel kills the child when the
// thread that forked it ends, so that thread waits for the child to end
// (leaving it for cmd.Wait to reap) before it exits.
func StartPinned(cmd *exec.Cmd, n int) error {
	var all unix.CPUSet
	if err := unix.SchedGetaffinity(0, &all); err != nil {
		return fmt.Errorf("read CPU affinity: %w", err)
	}
	var set unix.CPUSet
	for i, picked := 0, 0; i < len(all)*64 && picked < n; i++ {
		if all.IsSet(i) {
			set.Set(i)
			picked++
		}
	}
	if set.Count() < n {
		return fmt.Errorf("%d CPUs asked, only %d available to this process", n, set.Count())
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		if err := unix.SchedSetaffinity(0, &set); err != nil {
			errc <- fmt.Errorf("set CPU affinity: %w", err)
			return
		}
		err := cmd.Start()
		errc <- err
		if err == nil {
			var info unix.Siginfo
			for {
				err := unix.Waitid(unix.P_PID, cmd.Process.Pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
				if err != unix.EINTR {
					break
				}
			}
		}
	}()
	return <-errc
}

// formatCPUs writes CPU ids as ranges: [0 1 2 5] is "0-2,5".
func formatCPUs(ids []int) string {
	var parts []string
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 {
			j++
		}
		if i == j {
			parts = append(parts, fmt.Sprint(ids[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", ids[i], ids[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}
