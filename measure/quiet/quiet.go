// Package quiet answers whether the machine was left to this process: how
// much CPU other processes and the hypervisor took while it measured
// (Tally, Since), and waiting until they take little (Wait).
package quiet

import (
	"context"
	"time"

	"github.com/brewput/brewput/results"
)

// Sample is the machine's CPU accounting at one instant.
type Sample struct {
	at time.Time
	counters
	valid bool
}

type counters struct {
	busy            time.Duration // CPU time all processes and the hypervisor used, summed over CPUs
	steal           time.Duration // of which the hypervisor gave to other machines
	self            time.Duration // CPU time this process and its waited-for children used
	cpus            int           // the machine's CPUs
	onBusy, onSteal time.Duration // busy and steal over the on CPUs, the measurement's
	on              int
}

// CPUs is a set of CPU ids (up to 1024), as an affinity mask.
type CPUs [16]uint64

func (s *CPUs) Set(id int) {
	if id >= 0 && id < len(s)*64 {
		s[id/64] |= 1 << (id % 64)
	}
}

func (s *CPUs) Has(id int) bool {
	return id >= 0 && id < len(s)*64 && s[id/64]&(1<<(id%64)) != 0
}

func Of(ids []int) CPUs {
	var s CPUs
	for _, id := range ids {
		s.Set(id)
	}
	return s
}

// Take reads the machine's CPU accounting now, and apart that of this
// process's CPUs; off Linux the sample is invalid and adds nothing.
func Take() Sample { return TakeOn(nil) }

// TakeOn is Take with on as the measurement's CPUs (a pinned child's);
// nil is this process's.
func TakeOn(on *CPUs) Sample {
	if on == nil {
		own := ownCPUs()
		on = &own
	}
	t0 := time.Now()
	c, ok := readCPU(on)
	// The readings fell somewhere between t0 and now.
	return Sample{at: t0.Add(time.Since(t0) / 2), counters: c, valid: ok}
}

// Tally sums windows apart, such as a variant's runs taken in turns with
// another's, so that a point's figure covers its own time; a few
// milliseconds read as nothing or whole CPUs in ticks, but average out.
type Tally struct {
	wall time.Duration
	counters
}

// Add adds the window from before to after; an invalid or empty one adds
// nothing.
func (t *Tally) Add(before, after Sample) {
	wall := after.at.Sub(before.at)
	if !before.valid || !after.valid || wall <= 0 {
		return
	}
	t.Merge(Tally{wall, counters{busy: after.busy - before.busy, steal: after.steal - before.steal, self: after.self - before.self,
		cpus: after.cpus, onBusy: after.onBusy - before.onBusy, onSteal: after.onSteal - before.onSteal, on: after.on}})
}

func (t *Tally) Merge(o Tally) {
	t.wall += o.wall
	t.busy += o.busy
	t.steal += o.steal
	t.self += o.self
	t.cpus = max(t.cpus, o.cpus)
	t.onBusy += o.onBusy
	t.onSteal += o.onSteal
	t.on = max(t.on, o.on)
}

// Beside is how many CPUs' worth of time other processes and steal took
// over t's windows, beside the measurement's use of used CPUs.
func (t Tally) Beside(used float64) (others, steal float64) {
	if t.wall <= 0 {
		return 0, 0
	}
	return t.clamped(max(t.cpus, 1), t.busy, t.steal, used)
}

// clamped is how many CPUs' worth busy less steal, and steal, are beside
// this process's use of cpus CPUs. This process's use is exact and the
// machine's in ticks, so each is clamped to what the CPUs leave beside
// the greater of the two (and, for others, the steal).
func (t Tally) clamped(cpus int, busy, stolen time.Duration, used float64) (others, steal float64) {
	secs := t.wall.Seconds()
	free := max(float64(cpus)-max(t.self.Seconds()/secs, used), 0)
	steal = min(max(stolen.Seconds()/secs, 0), free)
	others = min(max((busy-stolen-t.self).Seconds()/secs, 0), free-steal)
	return others, steal
}

// On is Beside over the measurement's own CPUs (TakeOn's), and how many
// they are (0 where none was read).
func (t Tally) On(used float64) (others, steal float64, cpus int) {
	if t.wall <= 0 || t.on == 0 {
		return 0, 0, 0
	}
	others, steal = t.clamped(t.on, t.onBusy, t.onSteal, used)
	return others, steal, t.on
}

// Since is how many CPUs' worth of time other processes and the
// hypervisor took from before to now; the kernel's 10 ms ticks make it
// good to a tenth of a CPU over a few hundred milliseconds.
func Since(before Sample) float64 {
	var t Tally
	t.Add(before, Take())
	others, steal := t.Beside(0)
	return others + steal
}

// Wait probes until others take less than below CPUs or wait has passed,
// returning the last reading and the time waited; ctx's error if it ends.
func Wait(ctx context.Context, wait, probe time.Duration, below float64) (others float64, waited time.Duration, err error) {
	start := time.Now()
	for {
		before := Take()
		select {
		case <-ctx.Done():
			return 0, time.Since(start), ctx.Err()
		case <-time.After(probe):
		}
		others = Since(before)
		if others < below || time.Since(start) >= wait {
			return others, time.Since(start), nil
		}
	}
}

// Mark fills p's share of CPU others took, of the machine and of its own
// CPUs, and marks p disturbed where results.Disturbs says so.
func (t Tally) Mark(p *results.Point) {
	used := p.Metrics[results.CPUUsed]
	p.OthersCPUs, p.StealCPUs = t.Beside(used)
	p.OnCPUs = nil
	if others, steal, cpus := t.On(used); cpus > 0 {
		p.OnCPUs = &results.OnCPUs{CPUs: cpus, OthersCPUs: others, StealCPUs: steal}
	}
	p.Disturbed = p.IsDisturbed()
}
