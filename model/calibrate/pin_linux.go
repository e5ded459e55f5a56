package calibrate

import "golang.org/x/sys/unix"

// twoCPUs is two CPUs the calling thread may run on, the first two; the
// same one twice where it has one.
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
// leaves it as it is), and returns what puts its CPUs back as they were.
func pinThread(cpu int) (undo func()) {
	var was unix.CPUSet
	if cpu < 0 || unix.SchedGetaffinity(0, &was) != nil {
		return func() {}
	}
	var set unix.CPUSet
	set.Set(cpu)
	if unix.SchedSetaffinity(0, &set) != nil {
		return func() {} // unpinned, the two threads still run apart
	}
	return func() { _ = unix.SchedSetaffinity(0, &was) }
}
