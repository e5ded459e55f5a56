package calibrate

import "golang.org/x/sys/unix"

// twoCPUs is two CPUs this process may run on, the first two it is
// allowed; the same one twice where it has one.
func twoCPUs() [2]int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return [2]int{-1, -1}
	}
	var out []int
	for cpu := 0; cpu < 1024 && len(out) < 2; cpu++ {
		if set.IsSet(cpu) {
			out = append(out, cpu)
		}
	}
	if len(out) == 0 {
		return [2]int{-1, -1}
	}
	if len(out) == 1 {
		out = append(out, out[0])
	}
	return [2]int{out[0], out[1]}
}

// pinThread binds the calling thread, locked to its goroutine, to cpu (-1:
// leaves it as it is).
func pinThread(cpu int) {
	if cpu < 0 {
		return
	}
	var set unix.CPUSet
	set.Set(cpu)
	_ = unix.SchedSetaffinity(0, &set) // best effort: unpinned, the two threads still run apart
}

// unpinThread lets the calling thread run on every CPU the process may.
func unpinThread() {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(unix.Getpid(), &set); err == nil {
		_ = unix.SchedSetaffinity(0, &set)
	}
}
