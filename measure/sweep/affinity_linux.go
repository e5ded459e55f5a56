package sweep

import (
	"fmt"
	"os/exec"
	"runtime"
	"strings"

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

// StartPinned starts cmd restricted to the first n of this process's CPUs.
// A child inherits the affinity of the thread that forks it: the fork
// happens on a locked thread narrowed first, which exits with its
// goroutine rather than go back to the runtime narrowed.
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
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		if err := unix.SchedSetaffinity(0, &set); err != nil {
			errc <- fmt.Errorf("set CPU affinity: %w", err)
			return
		}
		errc <- cmd.Start()
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
