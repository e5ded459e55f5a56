package quiet

import (
	"bytes"
	"os"
	"strconv"
	"time"

	"golang.org/x/sys/unix"
)

// userHZ is the unit of /proc/stat: USER_HZ, 100 on every architecture Go
// runs Linux on.
const userHZ = 100

// readCPU reads /proc/stat's busy time summed over CPUs (user, nice,
// system, irq, softirq, steal), the steal apart, the CPUs, and this
// process's own CPU time with its reaped children's.
func readCPU() (c counters, ok bool) {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		return c, false
	}
	line, rest, _ := bytes.Cut(data, []byte("\n"))
	fields := bytes.Fields(line)
	if len(fields) < 9 || string(fields[0]) != "cpu" {
		return c, false
	}
	var ticks [9]int64
	for _, i := range []int{1, 2, 3, 6, 7, 8} { // user nice system irq softirq steal
		n, err := strconv.ParseInt(string(fields[i]), 10, 64)
		if err != nil {
			return c, false
		}
		ticks[i] = n
	}
	tick := func(n int64) time.Duration { return time.Duration(n) * time.Second / userHZ }
	c.busy = tick(ticks[1] + ticks[2] + ticks[3] + ticks[6] + ticks[7] + ticks[8])
	c.steal = tick(ticks[8])
	for len(rest) > 0 {
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		if !bytes.HasPrefix(line, []byte("cpu")) {
			break
		}
		c.cpus++
	}
	for _, who := range []int{unix.RUSAGE_SELF, unix.RUSAGE_CHILDREN} {
		var ru unix.Rusage
		if err := unix.Getrusage(who, &ru); err != nil {
			return c, false
		}
		c.self += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return c, true
}
