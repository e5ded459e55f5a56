package model

import (
	"time"

	"github.com/brewput/brewput/model/sim"
)

// Hardware is a machine a prediction is for: its shape and what moving a
// cache line between its cores costs, with the range a band spans. Known
// says the costs were measured on it (brewput calibrate); otherwise the
// range is what published machines of that size show.
type Hardware struct {
	Name     string
	Shape    sim.Machine
	Transfer sim.Transfer // the point's
	Lo, Hi   sim.Transfer // the band's
	// AllCore is how fast a core runs while every core runs, against
	// one alone (sim.Costs.AllCore): the point's, and the band's edges.
	AllCore, AllCoreLo, AllCoreHi float64
	// Threaded and Packed are as MachineRange's.
	Threaded, Packed, Known bool
	// About says where its shape and costs come from, for the output
	// (report/text's UnknownMachine and KnownMachine say an unknown's and
	// this machine's).
	About string
}

// Published core-to-core latencies (AnandTech's and Chips and Cheese's
// tests, 2020–2023), which a machine whose costs are not known spans.
var unknownTransfer = struct{ lo, mid, hi sim.Transfer }{
	lo:  sim.Transfer{Sibling: 5 * time.Nanosecond, Socket: 20 * time.Nanosecond, Remote: 100 * time.Nanosecond, Stay: stayFast},
	mid: sim.Transfer{Sibling: 9 * time.Nanosecond, Socket: 40 * time.Nanosecond, Remote: 140 * time.Nanosecond, Stay: stayMid},
	hi:  sim.Transfer{Sibling: 15 * time.Nanosecond, Socket: 80 * time.Nanosecond, Remote: 200 * time.Nanosecond, Stay: staySlow},
}

// How long a word that cores add to stays at a core (sim.Transfer.Stay),
// which no calibration measures: machines kept one from hardly at all to
// the whole move (docs/model.md), which a band spans; a point takes half.
const stayFast, stayMid, staySlow = 1, 0.5, 0

// MeasuredHardware is a machine whose shape and cost of moving a line
// were measured (brewput calibrate's transfer).
func MeasuredHardware(name string, shape sim.Machine, t sim.Transfer, about string) Hardware {
	t.Stay = stayMid
	return Hardware{Name: name, Shape: shape, Transfer: t, Known: true, About: about}
}

// Published server processors keep 75–100 % of their one-core clock with
// every core busy (Intel's and AMD's turbo tables).
const allCoreLo, allCoreMid, allCoreHi = 0.75, 0.88, 1.0

// UnknownHardware is a machine of cpus CPUs whose costs are not known:
// one socket of single-threaded cores (two sockets past 64), its band
// spanning the transfer costs published machines show; its About is the
// caller's (report/text's UnknownMachine).
func UnknownHardware(cpus int) Hardware {
	shape := sim.Machine{Sockets: 1, CoresPerSocket: max(1, cpus), ThreadsPerCore: 1}
	if cpus > 64 {
		shape = sim.Machine{Sockets: 2, CoresPerSocket: (cpus + 1) / 2, ThreadsPerCore: 1}
	}
	return Hardware{Name: "unknown", Shape: shape, Transfer: unknownTransfer.mid, Lo: unknownTransfer.lo, Hi: unknownTransfer.hi,
		AllCore: allCoreMid, AllCoreLo: allCoreLo, AllCoreHi: allCoreHi, Threaded: cpus > 1}
}

// ThreadedShape is a machine of cpus CPUs that are hardware threads, two
// to a core: one socket, two past 64 CPUs, as UnknownHardware's.
func ThreadedShape(cpus int) sim.Machine {
	cores := (max(1, cpus) + 1) / 2
	if cpus > 64 {
		return sim.Machine{Sockets: 2, CoresPerSocket: (cores + 1) / 2, ThreadsPerCore: 2}
	}
	return sim.Machine{Sockets: 1, CoresPerSocket: cores, ThreadsPerCore: 2}
}

// Range is what a band spans for h: where its costs are known, its
// all-core speed alone, else its transfer costs too, and hardware threads
// where it may have them.
func (h Hardware) Range() *MachineRange {
	if h.Known {
		return &MachineRange{FastAll: 1, SlowAll: allCoreLo, FastStay: stayFast, SlowStay: staySlow, OwnTransfer: true}
	}
	return &MachineRange{Fast: h.Lo, Slow: h.Hi, FastAll: h.AllCoreHi, SlowAll: h.AllCoreLo, Threaded: h.Threaded, Packed: h.Packed}
}
