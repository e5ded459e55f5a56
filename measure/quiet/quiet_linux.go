package quiet

import (
	"bytes"
	"time"

	"golang.org/x/sys/unix"
)

// userHZ is the unit of /proc/stat: USER_HZ, 100 on every architecture Go
// runs Linux on.
const userHZ = 100

// readCPU reads /proc/stat's busy time and steal summed over CPUs, the
// CPUs, the same two over the CPUs of on alone (a point's own), and this
// process's CPU time with its reaped children's. It parses a buffer on the
// stack in place: a lab reads around each run, whose allocations count.
func readCPU(on *CPUs) (c counters, ok bool) {
	var buf [32 << 10]byte
	fd, err := unix.Open("/proc/stat", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return c, false
	}
	n := 0
	for n < len(buf) {
		k, err := unix.Read(fd, buf[n:])
		if err != nil || k <= 0 {
			break
		}
		n += k
	}
	unix.Close(fd)
	data := buf[:n]
	line, rest, _ := bytes.Cut(data, []byte("\n"))
	busy, steal, ok := cpuLine(line, "cpu")
	if !ok {
		return c, false
	}
	c.busy, c.steal = busy, steal
	for len(rest) > 0 {
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		if !bytes.HasPrefix(line, []byte("cpu")) {
			break
		}
		c.cpus++
		field, _ := nextField(line)
		id, ok := parseTicks(field[len("cpu"):])
		if !ok || !on.Has(int(id)) {
			continue
		}
		busy, steal, ok := cpuLine(line, "")
		if !ok {
			return c, false
		}
		c.onBusy += busy
		c.onSteal += steal
		c.on++
	}
	if len(rest) == 0 && n == len(buf) {
		return c, false // the CPUs' lines did not fit: a count would be short
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

// cpuLine reads one of /proc/stat's CPU lines, named name (any "cpu…"
// where name is ""): its busy time (user, nice, system, irq, softirq,
// steal) and its steal.
func cpuLine(line []byte, name string) (busy, steal time.Duration, ok bool) {
	var ticks [9]int64
	for i := range ticks {
		var field []byte
		field, line = nextField(line)
		if i == 0 {
			if name != "" && string(field) != name {
				return 0, 0, false
			}
			continue
		}
		v, ok := parseTicks(field)
		if !ok {
			return 0, 0, false
		}
		ticks[i] = v
	}
	tick := func(n int64) time.Duration { return time.Duration(n) * time.Second / userHZ }
	return tick(ticks[1] + ticks[2] + ticks[3] + ticks[6] + ticks[7] + ticks[8]), tick(ticks[8]), true
}

// ownCPUs is the set of CPUs this process may run on; all where it cannot
// be read.
func ownCPUs() CPUs {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		var all CPUs
		for i := range all {
			all[i] = ^uint64(0)
		}
		return all
	}
	var own CPUs
	for i := 0; i < len(own)*64; i++ {
		if set.IsSet(i) {
			own.Set(i)
		}
	}
	return own
}

// nextField is the first space-separated field of line and what follows.
func nextField(line []byte) (field, rest []byte) {
	line = bytes.TrimLeft(line, " ")
	i := bytes.IndexByte(line, ' ')
	if i < 0 {
		return line, nil
	}
	return line[:i], line[i:]
}

// parseTicks reads a decimal count of ticks.
func parseTicks(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var v int64
	for _, d := range b {
		if d < '0' || d > '9' {
			return 0, false
		}
		v = 10*v + int64(d-'0')
	}
	return v, true
}
