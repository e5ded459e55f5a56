// Package burn occupies a CPU for a given duration, the unit of work of a
// brewput step ("occupy one CPU for 1 ms").
//
// A burn spins while reading a clock until that clock has advanced by the
// requested duration. There is no loop count calibrated per machine: such a
// constant drifts with frequency scaling and neighbours on a shared host, so
// the clock itself is the only reference.
//
// Two clocks are offered:
//
//   - [Wall] (the default, zero value) spins until the monotonic wall clock
//     has advanced by d. It gives exact occupancy on the wall clock, and one
//     clock read is a cheap vDSO call (tens of nanoseconds), so the burn
//     overshoots d by very little. It is the default because brewput
//     measures wall-clock behaviour (latency, throughput) and this clock is
//     both cheap and accurate.
//   - [ThreadCPU] locks the goroutine to its OS thread and spins until that
//     thread has consumed d of CPU time (CLOCK_THREAD_CPUTIME_ID). It gives
//     exact CPU work, but each clock read is a real system call, so it costs
//     more per read and is only available on Linux.
//
// When goroutines outnumber CPUs, both clocks behave the same: the Go
// scheduler does not preempt a running goroutine before about 10 ms, so a
// 1 ms burn keeps its P for its whole duration.
//
// They differ when OS threads outnumber CPUs (other processes on the host,
// or a CPU affinity narrower than GOMAXPROCS), so the kernel deschedules a
// burning thread. A Wall burn counts the time its thread was descheduled as
// burned: it finishes on time but did less work. A ThreadCPU burn keeps
// going until it really got d of CPU, so its wall duration stretches.
package burn
