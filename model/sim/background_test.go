package sim

import (
	"testing"
	"time"
)

// burnFor has each of n goroutines burn 1 ms at a time on c for a total of
// one second, and returns when the last one finished.
func burnFor(s *Sim, c *CPUs, n int) time.Duration {
	var last time.Duration
	for range n {
		s.Go(func(p *Proc) {
			for range 1000 {
				c.Burn(p, ms)
			}
			last = max(last, p.Now())
		})
	}
	s.Run(10 * time.Second)
	return last
}

// TestBackgroundTakesOnlyBusyMachines: other processes' work costs a
// program that keeps every CPU busy about their share of the CPUs, and
// nothing to one that leaves a CPU free, where the work goes instead.
func TestBackgroundTakesOnlyBusyMachines(t *testing.T) {
	bg := Background{CPUs: 0.2, Burst: ms}
	for _, tc := range []struct {
		name           string
		goroutines     int
		least, longest time.Duration
	}{
		// One goroutine on two CPUs: the bursts run on the free one.
		{"a CPU free", 1, time.Second, time.Second},
		// Two on two: 0.2 of 2 CPUs is 10 % of each CPU's time, so the
		// program's second stretches by 0.1/0.9, about 111 ms of bursts
		// (Poisson, sd about 11): 1.06 to 1.16 s is over three standard
		// deviations either side.
		{"every CPU busy", 2, 1060 * ms, 1160 * ms},
	} {
		s := New(1)
		c := NewGoCPUs(s, 2, Costs{})
		c.SetBackground(bg)
		got := burnFor(s, c, tc.goroutines)
		s.Stop()
		if got < tc.least || got > tc.longest {
			t.Errorf("%s: the last goroutine finished at %v, want %v to %v", tc.name, got, tc.least, tc.longest)
		}
		if busy := c.Busy(); busy != time.Duration(tc.goroutines)*time.Second {
			t.Errorf("%s: the program's CPU time is %v, want %v: the bursts are the other processes'", tc.name, busy, time.Duration(tc.goroutines)*time.Second)
		}
	}
}

// TestBackgroundIgnoredByFifo: the fifo policy is the machine to itself.
func TestBackgroundIgnoredByFifo(t *testing.T) {
	s := New(1)
	c := NewCPUs(s, 2)
	c.SetBackground(Background{CPUs: 1, Burst: ms})
	defer s.Stop()
	if got := burnFor(s, c, 2); got != time.Second {
		t.Errorf("fifo with background: finished at %v, want 1s", got)
	}
}
