package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// clockTick is the unit of /proc/stat's counters (USER_HZ), 100 on every
// architecture Linux runs Go on.
const clockTick = time.Second / 100

// read takes /proc/stat's aggregate "cpu" line and its per-CPU lines, and
// getrusage for this process and its children that have been waited for.
func read() (reading, error) {
	var r reading
	f, err := os.Open("/proc/stat")
	if err != nil {
		return r, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	if !sc.Scan() {
		return r, fmt.Errorf("/proc/stat: empty")
	}
	// cpu user nice system idle iowait irq softirq steal [guest guest_nice]:
	// guest time is counted inside user already; idle and iowait are not
	// busy.
	fields := strings.Fields(sc.Text())
	if len(fields) < 9 || fields[0] != "cpu" {
		return r, fmt.Errorf("/proc/stat: unexpected first line %q", sc.Text())
	}
	ticks := func(i int) (time.Duration, error) {
		n, err := strconv.ParseInt(fields[i], 10, 64)
		return time.Duration(n) * clockTick, err
	}
	for _, i := range []int{1, 2, 3, 6, 7, 8} {
		d, err := ticks(i)
		if err != nil {
			return r, fmt.Errorf("/proc/stat: %v", err)
		}
		r.busy += d
		if i == 8 {
			r.steal = d
		}
	}
	for sc.Scan() && strings.HasPrefix(sc.Text(), "cpu") {
		r.cpus++
	}
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if err := syscall.Getrusage(who, &ru); err != nil {
			return r, fmt.Errorf("getrusage: %v", err)
		}
		r.own += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	r.at = time.Now()
	return r, nil
}
