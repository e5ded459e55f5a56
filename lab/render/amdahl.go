package render

import "math"

// Amdahl is the best speedup on cpus CPUs of a program whose fraction
// serial of the work cannot run in parallel: 1/(serial + (1−serial)/cpus).
// It is 0 for fewer than 1 CPU.
func Amdahl(serial float64, cpus int) float64 {
	if cpus < 1 {
		return 0
	}
	return 1 / (serial + (1-serial)/float64(cpus))
}

// KarpFlatt is the serial fraction a speedup measured on cpus CPUs
// implies, Amdahl's law solved for it: (1/speedup − 1/cpus) / (1 −
// 1/cpus). It counts every loss (serial code, overhead, imbalance) as
// serial work, and noise can make it a little negative; NaN on fewer than
// 2 CPUs or for a speedup that is not positive.
func KarpFlatt(speedup float64, cpus int) float64 {
	if cpus < 2 || !(speedup > 0) {
		return math.NaN()
	}
	n := float64(cpus)
	return (1/speedup - 1/n) / (1 - 1/n)
}
