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

// readCPU returns the busy time summed over all CPUs from /proc/stat's
// first line (user, nice, system, irq, softirq, steal; guest time is
// already inside user) and this process's own CPU time with that of its
// reaped children.
func readCPU() (busy, self time.Duration, ok bool) {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0, false
	}
	line, _, _ := bytes.Cut(data, []byte("\n"))
	fields := bytes.Fields(line)
	if len(fields) < 9 || string(fields[0]) != "cpu" {
		return 0, 0, false
	}
	var ticks int64
	for _, i := range []int{1, 2, 3, 6, 7, 8} { // user nice system irq softirq steal
		n, err := strconv.ParseInt(string(fields[i]), 10, 64)
		if err != nil {
			return 0, 0, false
		}
		ticks += n
	}
	busy = time.Duration(ticks) * time.Second / userHZ
	for _, who := range []int{unix.RUSAGE_SELF, unix.RUSAGE_CHILDREN} {
		var ru unix.Rusage
		if err := unix.Getrusage(who, &ru); err != nil {
			return 0, 0, false
		}
		self += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return busy, self, true
}
