package sweep

import (
	"fmt"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// PlatformNote is empty on Linux, where a child is pinned to its CPUs and
// what other processes took of them is read.
const PlatformNote = ""

// AllowedCPUs describes the CPUs this process may run on, e.g. "0-1".
func AllowedCPUs() string { return FormatCPUs(allowed()) }

// allowed lists the ids of the CPUs this process may run on, in order.
func allowed() []int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil
	}
	var ids []int
	for i := 0; i < len(set)*64; i++ {
		if set.IsSet(i) {
			ids = append(ids, i)
		}
	}
	return ids
}

// PinTo is the CPUs a child on n CPUs runs on: the first n of within (ids
// this process may run on), or of all it may where within is empty.
func PinTo(n int, within []int) ([]int, error) {
	all := allowed()
	if len(within) == 0 {
		within = all
	}
	for _, id := range within {
		if !slices.Contains(all, id) {
			return nil, fmt.Errorf("CPU %d: this process may run on %s only", id, FormatCPUs(all))
		}
	}
	if len(within) < n {
		return nil, fmt.Errorf("%d CPUs asked, only %d to choose from (%s)", n, len(within), FormatCPUs(within))
	}
	return within[:n], nil
}

// StartOn starts cmd restricted to the CPUs cpus, killed (SIGKILL) if this
// process dies first. A child inherits the affinity of the thread that
// forks it: a locked thread narrowed first, which exits with its goroutine
// rather than go back to the runtime narrowed, but only once the child
// ends (left for cmd.Wait to reap): Pdeathsig fires when that thread ends.
func StartOn(cmd *exec.Cmd, cpus []int) error {
	var set unix.CPUSet
	for _, id := range cpus {
		set.Set(id)
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

// FormatCPUs writes CPU ids as ranges: [0 1 2 5] is "0-2,5".
func FormatCPUs(ids []int) string {
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
