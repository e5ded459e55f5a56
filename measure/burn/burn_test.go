package burn

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// median returns the middle element of xs (sorting a copy).
func median(xs []time.Duration) time.Duration {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

func clocks(t testing.TB) []Clock {
	if threadCPUSupported {
		return []Clock{Wall, ThreadCPU}
	}
	t.Log("thread CPU clock not supported here; testing wall only")
	return []Clock{Wall}
}

// TestBurnMedian checks bounds that hold even on a loaded machine: a burn
// never ends before d on its own clock, and one read of the clock past d
// is all it overshoots unless descheduled. The median absorbs the bursts
// that were descheduled.
func TestBurnMedian(t *testing.T) {
	const (
		d      = time.Millisecond
		bursts = 30
		limit  = 3 * time.Millisecond
	)
	for _, c := range clocks(t) {
		t.Run(c.String(), func(t *testing.T) {
			if c == ThreadCPU {
				// Keep the thread so the CPU clock reads below match Burn's.
				lockOSThread(t)
			}
			wall := make([]time.Duration, bursts)
			cpu := make([]time.Duration, bursts)
			for i := range bursts {
				wall[i], cpu[i] = timedBurn(c, d)
			}
			mw, mc := median(wall), median(cpu)
			t.Logf("median wall %v", mw)
			// A thread cannot consume more CPU than wall time elapses, so
			// both clocks take at least d of wall time.
			if mw < d {
				t.Errorf("median wall duration %v < %v", mw, d)
			}
			switch c {
			case Wall:
				if mw >= limit {
					t.Errorf("median wall duration %v >= %v", mw, limit)
				}
			case ThreadCPU:
				// The wall duration stretches under contention; the CPU
				// time consumed does not.
				t.Logf("median thread CPU %v", mc)
				if mc < d || mc >= limit {
					t.Errorf("median thread CPU %v not in [%v, %v)", mc, d, limit)
				}
			}
		})
	}
}

func TestBurnNonPositive(t *testing.T) {
	for _, c := range clocks(t) {
		for _, d := range []time.Duration{0, -1, -time.Second} {
			// The minimum over a few tries ignores a preemption.
			best := time.Duration(1<<63 - 1)
			for range 10 {
				start := time.Now()
				c.Burn(d)
				best = min(best, time.Since(start))
			}
			if best > 50*time.Microsecond {
				t.Errorf("%v.Burn(%v) took %v, want immediate return", c, d, best)
			}
		}
	}
}

func TestParseClock(t *testing.T) {
	for _, c := range clocks(t) {
		got, err := ParseClock(c.String())
		if err != nil || got != c {
			t.Errorf("ParseClock(%q) = %v, %v; want %v, nil", c.String(), got, err, c)
		}
	}
	if !threadCPUSupported {
		if _, err := ParseClock("cpu"); err == nil {
			t.Error(`ParseClock("cpu") succeeded on a system without thread CPU clocks`)
		}
	}
	for _, s := range []string{"", "x", "Wall", "CPU", "thread"} {
		_, err := ParseClock(s)
		want := fmt.Sprintf("unknown burn clock %q; accepted: wall, cpu", s)
		if err == nil || err.Error() != want {
			t.Errorf("ParseClock(%q) error = %v; want %q", s, err, want)
		}
	}
	if s := Clock(7).String(); s != "Clock(7)" {
		t.Errorf("Clock(7).String() = %q", s)
	}
}

func ExampleClock_Burn() {
	d := time.Millisecond
	start := time.Now()
	Wall.Burn(d)
	fmt.Println("elapsed >= d:", time.Since(start) >= d)
	// Output: elapsed >= d: true
}
