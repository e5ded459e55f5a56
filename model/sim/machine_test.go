package sim

import (
	"testing"
	"time"
)

// TestMachinePlace: busy threads spread over the sockets in turn, and
// over whole cores before a core's second thread.
func TestMachinePlace(t *testing.T) {
	m := Machine{Sockets: 2, CoresPerSocket: 2, ThreadsPerCore: 2}
	d := distances(m, Transfer{Sibling: 1, Socket: 2, Remote: 3}, 8)
	// P0 socket 0 core 0, P1 socket 1 core 0, P2 socket 0 core 1, P3
	// socket 1 core 1, then P4–P7 their second threads.
	for _, c := range []struct {
		a, b int
		want time.Duration
	}{{0, 1, 3}, {0, 2, 2}, {0, 4, 1}, {1, 5, 1}, {2, 6, 1}, {4, 6, 2}, {4, 5, 3}} {
		if got := d[c.a][c.b]; got != c.want {
			t.Errorf("P%d to P%d: %v, want %v", c.a, c.b, got, c.want)
		}
	}
	if sib := siblings(m, 8); sib[0] != 4 || sib[3] != 7 || sib[4] != 0 {
		t.Errorf("siblings %v; want P0–P4, P3–P7", sib)
	}
	if m.Threads() != 8 || (Machine{}).Threads() != 0 {
		t.Errorf("threads %d and %d; want 8 and 0 (as many as Ps)", m.Threads(), Machine{}.Threads())
	}
}

// TestMachinePacked: packed, busy threads fill one socket's cores before
// the next socket's, and only then a core's second thread.
func TestMachinePacked(t *testing.T) {
	m := Machine{Sockets: 2, CoresPerSocket: 2, ThreadsPerCore: 2, Packed: true}
	d := distances(m, Transfer{Sibling: 1, Socket: 2, Remote: 3}, 8)
	// P0 and P1 socket 0's two cores, P2 and P3 socket 1's, then P4–P7
	// their second threads.
	for _, c := range []struct {
		a, b int
		want time.Duration
	}{{0, 1, 2}, {0, 2, 3}, {2, 3, 2}, {0, 4, 1}, {1, 5, 1}, {3, 7, 1}, {4, 5, 2}, {4, 6, 3}} {
		if got := d[c.a][c.b]; got != c.want {
			t.Errorf("P%d to P%d: %v, want %v", c.a, c.b, got, c.want)
		}
	}
	if sib := siblings(m, 8); sib[0] != 4 || sib[3] != 7 || sib[5] != 1 {
		t.Errorf("siblings %v; want P0–P4, P1–P5, P3–P7", sib)
	}
}

// TestMachineSharedCore: work steps on the two threads of one core run
// slower while both run, and on a machine whose cores slow down as more
// run; time steps do not.
func TestMachineSharedCore(t *testing.T) {
	end := func(work bool, m Machine, all float64) time.Duration {
		s := New(1)
		cpus := NewGoCPUs(s, 2, Costs{AllCore: all})
		cpus.SetMachine(m)
		cpus.SetWorkSteps(work)
		var last time.Duration
		for range 2 {
			s.Go(func(p *Proc) {
				cpus.Burn(p, ms)
				last = max(last, p.Now())
			})
		}
		s.Run(10 * ms)
		return last
	}
	smt := Machine{Sockets: 1, CoresPerSocket: 1, ThreadsPerCore: 2}
	speed := siblingSpeed
	shared := time.Duration(float64(ms) / speed)
	wide := Machine{Sockets: 1, CoresPerSocket: 2, ThreadsPerCore: 1}
	for _, c := range []struct {
		name string
		work bool
		m    Machine
		all  float64
		want time.Duration
	}{
		{"one core's two threads, work", true, smt, 0, shared},
		{"one core's two threads, time", false, smt, 0, ms},
		{"two cores, all-core speed 0.8, work", true, wide, 0.8, 1250 * time.Microsecond},
		{"two cores, all-core speed 0.8, time", false, wide, 0.8, ms},
	} {
		// The first burn starts alone, the second beside it.
		if got := end(c.work, c.m, c.all); got != c.want {
			t.Errorf("%s: the later burn ends at %v, want %v", c.name, got, c.want)
		}
	}
}
