package host

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// ModelMaxCPUs is the most virtual CPUs brewput model simulates.
const ModelMaxCPUs = 256

// ParseCPUList reads a list of CPU counts such as "1,2,4-6", each between
// 1 and max (the machine's, or the model's limit).
func ParseCPUList(s string, max int) ([]int, error) {
	cpus, bad, ok := expand(s)
	if !ok {
		return nil, fmt.Errorf("%q is not a CPU count or range; write counts and ranges such as 1,2 or 1-4", bad)
	}
	for _, n := range cpus {
		if n < 1 {
			return nil, fmt.Errorf("%d CPUs: want at least 1", n)
		}
	}
	// The most asked for is named, not the first past the machine: "1-300"
	// is refused as 300 CPUs.
	if n := slices.Max(cpus); n > max {
		if max < ModelMaxCPUs {
			return nil, fmt.Errorf("%d CPUs: this machine has %d; brewput model predicts what more CPUs would do (up to %d)", n, max, ModelMaxCPUs)
		}
		return nil, fmt.Errorf("%d CPUs: the model simulates at most %d", n, max)
	}
	slices.Sort(cpus)
	return slices.Compact(cpus), nil
}

// expand reads a list of numbers and ranges such as "1,2,4-6", or names
// its first part that is neither (a range must not descend, nor run past
// 65,536 numbers).
func expand(s string) (out []int, bad string, ok bool) {
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, errA := strconv.Atoi(lo)
		b, errB := a, error(nil)
		if isRange {
			b, errB = strconv.Atoi(hi)
		}
		if errA != nil || errB != nil || a > b || b-a >= 1<<16 {
			return nil, part, false
		}
		for n := a; n <= b; n++ {
			out = append(out, n)
		}
	}
	return out, "", true
}

// CheckCPUs checks a lab's CPU counts: at least one, each at least 1 (a
// count above the machine's is GOMAXPROCS, allowed).
func CheckCPUs(cpus []int) error {
	if len(cpus) == 0 {
		return fmt.Errorf("cpus: want at least one CPU count")
	}
	for _, n := range cpus {
		if n < 1 {
			return fmt.Errorf("cpus %d: want at least 1 CPU", n)
		}
	}
	return nil
}

// ParseCPUIDs reads a list of CPU ids such as "0-3,6", as taskset -c and
// /sys/fs/cgroup write them: each 0 or more, in order, each once.
func ParseCPUIDs(s string) ([]int, error) {
	ids, bad, ok := expand(s)
	for _, id := range ids {
		if id < 0 || id >= 1<<16 {
			bad, ok = strconv.Itoa(id), false
		}
	}
	if !ok {
		return nil, fmt.Errorf("%q is not a CPU id or range; write ids and ranges such as 0-3,6", bad)
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
}

// Doubling is the CPU counts 1, 2, 4, … up to max, and max itself, as
// ParseCPUList reads them: "1,2,4,6" for 6.
func Doubling(max int) string {
	var parts []string
	for n := 1; n < max; n *= 2 {
		parts = append(parts, strconv.Itoa(n))
	}
	return strings.Join(append(parts, strconv.Itoa(max)), ",")
}
