// Package burn occupies a CPU for a given duration, the unit of work of a
// brewput step ("occupy one CPU for 1 ms").
//
// A burn spins until a clock has advanced by the duration, not for a loop
// count, which drifts with frequency scaling and neighbours on a shared host.
//
//   - [Wall], the default, spins on the monotonic wall clock: a cheap vDSO
//     read, so it overshoots little.
//   - [ThreadCPU] locks the goroutine to its thread and spins until the
//     thread has used d of CPU (CLOCK_THREAD_CPUTIME_ID): exact work, but
//     each read is a system call, and only on Linux.
//
// The clocks differ when the kernel deschedules a burning thread: a Wall
// burn ends on time having done less work; a ThreadCPU burn gets its d of
// CPU and takes longer.
package burn
