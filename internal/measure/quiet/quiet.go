// Package quiet answers whether the machine was left to this process: how
// much CPU other processes and the hypervisor took while it measured
// (Split), and waiting until they take little (Wait).
package quiet

import (
	"context"
	"time"

	"github.com/brewput/brewput/results"
)

// Sample is a reading of the machine's CPU accounting at one instant.
type Sample struct {
	at time.Time
	counters
	valid bool
}

// counters are what readCPU reads.
type counters struct {
	busy  time.Duration // CPU time all processes and the hypervisor used, summed over CPUs
	steal time.Duration // of which the hypervisor gave to other machines
	self  time.Duration // CPU time this process and its waited-for children used
	cpus  int           // the machine's CPUs
	// onBusy and onSteal are busy and steal over the on CPUs of the set a
	// sample was taken for alone: the CPUs a measurement ran on.
	onBusy, onSteal time.Duration
	on              int
}

// CPUs is a set of CPU ids (up to 1024), as an affinity mask holds them.
type CPUs [16]uint64

// Set adds CPU id to s.
func (s *CPUs) Set(id int) {
	if id >= 0 && id < len(s)*64 {
		s[id/64] |= 1 << (id % 64)
	}
}

// Has reports whether CPU id is in s.
func (s *CPUs) Has(id int) bool {
	return id >= 0 && id < len(s)*64 && s[id/64]&(1<<(id%64)) != 0
}

// Of is the set of ids.
func Of(ids []int) CPUs {
	var s CPUs
	for _, id := range ids {
		s.Set(id)
	}
	return s
}

// Take reads the machine's CPU accounting now, and apart that of the CPUs
// this process may run on (its affinity: a pinned point's own); where the
// system does not expose it (not Linux), the sample is invalid and Others
// reports 0.
func Take() Sample {
	own := ownCPUs()
	return TakeOn(&own)
}

// TakeOn is Take with the CPUs of on as the measurement's own: those a
// pinned child runs on.
func TakeOn(on *CPUs) Sample {
	t0 := time.Now()
	c, ok := readCPU(on)
	// The readings fell somewhere between t0 and now.
	return Sample{at: t0.Add(time.Since(t0) / 2), counters: c, valid: ok}
}

// Others returns how many CPUs' worth of time other processes and the
// hypervisor took between two samples: 0.5 is half a CPU. The kernel
// counts 10 ms ticks, so over a few hundred milliseconds it is good to a
// tenth of a CPU.
func Others(before, after Sample) float64 {
	others, steal := Split(before, after)
	return others + steal
}

// Split is Others in its two parts, other processes' and the time the
// hypervisor gave to other machines (steal): Tally's over one window.
func Split(before, after Sample) (others, steal float64) {
	var t Tally
	t.Add(before, after)
	return t.Split()
}

// Tally sums windows apart, such as the runs of one variant taken in
// turns with another's: a point's figure then covers its own time and
// nobody else's. The kernel counts 10 ms ticks, so one window of a few
// milliseconds reads as nothing or as whole CPUs; summed, they average out.
type Tally struct {
	wall              time.Duration
	busy, steal, self time.Duration
	cpus              int
	onBusy, onSteal   time.Duration
	on                int
}

// Add adds the window from before to after; an invalid sample, or a
// window of no time, adds nothing.
func (t *Tally) Add(before, after Sample) {
	wall := after.at.Sub(before.at)
	if !before.valid || !after.valid || wall <= 0 {
		return
	}
	t.wall += wall
	t.busy += after.busy - before.busy
	t.steal += after.steal - before.steal
	t.self += after.self - before.self
	t.cpus = max(t.cpus, after.cpus)
	t.onBusy += after.onBusy - before.onBusy
	t.onSteal += after.onSteal - before.onSteal
	t.on = max(t.on, after.on)
}

// Merge adds o's windows to t's.
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

// Split is how many CPUs' worth of time other processes, and the
// hypervisor (steal), took over t's windows. This process's own use is
// read exactly and the machine's in ticks, so a tick more can read as
// more than the machine has: each part is clamped to what the machine's
// CPUs leave once this process's use (and, for others, the steal) is
// taken out.
func (t Tally) Split() (others, steal float64) { return t.Beside(0) }

// Beside is Split for a measurement that used the CPUs used by its own
// reckoning (its CPU time over its wall time, which are read a moment
// inside the tally's window and can differ by a tick's worth): the parts
// are clamped to what the machine's CPUs leave beside the greater of the
// two, so that its CPUs and the others' never add up to more than the
// machine has.
func (t Tally) Beside(used float64) (others, steal float64) {
	if t.wall <= 0 {
		return 0, 0
	}
	secs := t.wall.Seconds()
	free := max(float64(max(t.cpus, 1))-max(t.self.Seconds()/secs, used), 0)
	steal = min(max(t.steal.Seconds()/secs, 0), free)
	others = min(max((t.busy-t.steal-t.self).Seconds()/secs, 0), free-steal)
	return others, steal
}

// On is Beside over the measurement's own CPUs alone (those its samples
// were taken for, see TakeOn): how many CPUs' worth of time other
// processes, and the hypervisor, took of them, and how many they are (0
// where none was read). The measurement's own use is taken to run on its
// own CPUs, as a pinned one's does.
func (t Tally) On(used float64) (others, steal float64, cpus int) {
	if t.wall <= 0 || t.on == 0 {
		return 0, 0, 0
	}
	secs := t.wall.Seconds()
	free := max(float64(t.on)-max(t.self.Seconds()/secs, used), 0)
	steal = min(max(t.onSteal.Seconds()/secs, 0), free)
	others = min(max((t.onBusy-t.onSteal-t.self).Seconds()/secs, 0), free-steal)
	return others, steal, t.on
}

// SplitOn is On over one window.
func SplitOn(before, after Sample, used float64) (others, steal float64, cpus int) {
	var t Tally
	t.Add(before, after)
	return t.On(used)
}

// Since is Others from before to now.
func Since(before Sample) float64 { return Others(before, Take()) }

// Wait probes, probe at a time, until others take less than below CPUs
// or wait has passed, and returns the last probe's reading and how long it
// waited; early, with ctx's error, if ctx ends.
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

// Mark fills p's share of the CPU others took from t, of the machine and
// of p's own CPUs (those t's samples were taken for), p's CPUUsed its own
// use, and marks p disturbed where results.Disturbs says so.
func (t Tally) Mark(p *results.Point) {
	used := p.Metrics[results.CPUUsed]
	p.OthersCPUs, p.StealCPUs = t.Beside(used)
	p.OnCPUs = nil
	if others, steal, cpus := t.On(used); cpus > 0 {
		p.OnCPUs = &results.OnCPUs{CPUs: cpus, OthersCPUs: others, StealCPUs: steal}
	}
	p.Disturbed = p.IsDisturbed()
}
