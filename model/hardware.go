package model

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/brewput/brewput/model/sim"
)

// Hardware is a machine a prediction is for: its shape (sockets, cores,
// hardware threads) and what moving a cache line between its cores costs,
// with the range of that cost a band spans. Known says the costs were
// measured on it (brewput calibrate, on this machine); otherwise the
// range is what published machines of that size show.
type Hardware struct {
	Name     string
	Shape    sim.Machine
	Transfer sim.Transfer // the point's
	Lo, Hi   sim.Transfer // the band's
	// AllCore is how fast a core runs while every core runs, against
	// one alone (sim.Costs.AllCore): the point's, and the band's edges.
	AllCore, AllCoreLo, AllCoreHi float64
	// Threaded says its CPUs may be hardware threads, two to a core,
	// which the band's slow edge also spans (ThreadedShape): a machine
	// whose shape is not known may be a cloud's, whose vCPUs are threads.
	Threaded bool
	// Packed says the operating system may keep its Ps on one socket
	// before the next (sim.Machine.Packed), which its band also spans: a
	// named machine of several sockets.
	Packed bool
	Known  bool
	// About says where its shape and costs come from, for the output.
	About string
}

// Published core-to-core latencies (a cache line bounced by compare-and-
// swap between two cores; AnandTech's and Chips and Cheese's tests of
// server and desktop processors, 2020–2023) run from about 15–20 ns
// between cores sharing an L3 slice (AMD's CCX) through 30–50 ns on a
// ring and 40–100 ns on a mesh or between chiplets, to 100–200 ns between
// sockets, and under 15 ns between the two threads of a core. A machine
// whose costs are not known spans these.
var unknownTransfer = struct{ lo, mid, hi sim.Transfer }{
	lo:  sim.Transfer{Sibling: 5 * time.Nanosecond, Socket: 20 * time.Nanosecond, Remote: 100 * time.Nanosecond, Stay: stayFast},
	mid: sim.Transfer{Sibling: 9 * time.Nanosecond, Socket: 40 * time.Nanosecond, Remote: 140 * time.Nanosecond, Stay: stayMid},
	hi:  sim.Transfer{Sibling: 15 * time.Nanosecond, Socket: 80 * time.Nanosecond, Remote: 200 * time.Nanosecond, Stay: staySlow},
}

// How long a word that cores add to stays at a core it comes to, as a
// fraction of the move that brought it (sim.Transfer.Stay), which no
// machine's calibration measures: the machines measured kept one from
// hardly at all to about as long as it took to come (this project's
// 2-vCPU machine, the 16-vCPU lendings, a Graviton2; docs/model.md). A
// band spans the two, the fast edge staying the whole move; a point
// takes the middle.
const stayFast, stayMid, staySlow = 1, 0.5, 0

// stayAbout says what a band spans of how long a word stays.
const stayAbout = "; a word its cores add to staying at a core from none to the whole of the move that brought it (the point half)"

// MeasuredHardware is a machine whose shape and cost of moving a line
// were measured (brewput calibrate's transfer), not how long a word that
// cores add to stays at a core, whose band spans that (Range).
func MeasuredHardware(name string, shape sim.Machine, t sim.Transfer, about string) Hardware {
	t.Stay = stayMid
	return Hardware{Name: name, Shape: shape, Transfer: t, Known: true, About: about}
}

// Published server processors keep 75–100 % of their one-core clock with
// every core busy (Intel's and AMD's turbo tables; processors without
// turbo, such as AWS's Graviton, keep all of it), before what sharing
// caches and memory costs.
const allCoreLo, allCoreMid, allCoreHi = 0.75, 0.88, 1.0

// allCoreAbout says what a band spans of a machine's all-core speed.
const allCoreAbout = "75–100 % of one core's speed with every core busy, the slow edge from two busy cores on: what published machines show"

// unknownAbout says what an unknown machine's band spans.
const unknownAbout = "moving a cache line between cores 20–80 ns, between sockets 100–200 ns, and " + allCoreAbout + stayAbout

// KnownAbout says what a band spans on a machine whose costs are known:
// its all-core speed, not measured.
const KnownAbout = "how fast its cores run with every one busy not measured: the band spans 75–100 % of one alone's speed, the slow edge from the second busy core on, as published machines show" + stayAbout

// threadedAbout says what an unknown machine's band spans besides: its
// CPUs may be hardware threads (a cloud's vCPUs are), and two threads of
// a core do about 1.25 times one thread's work (sim's siblingSpeed).
const threadedAbout = "; its CPUs perhaps hardware threads, two to a core, as a cloud's vCPUs are"

// UnknownHardware is a machine of cpus CPUs whose costs are not known:
// one socket of single-threaded cores (two sockets past 64), its band
// spanning the transfer costs published machines show.
func UnknownHardware(cpus int) Hardware {
	shape := sim.Machine{Sockets: 1, CoresPerSocket: max(1, cpus), ThreadsPerCore: 1}
	if cpus > 64 {
		shape = sim.Machine{Sockets: 2, CoresPerSocket: (cpus + 1) / 2, ThreadsPerCore: 1}
	}
	hw := Hardware{Name: "unknown", Shape: shape, Transfer: unknownTransfer.mid, Lo: unknownTransfer.lo, Hi: unknownTransfer.hi,
		AllCore: allCoreMid, AllCoreLo: allCoreLo, AllCoreHi: allCoreHi,
		About: fmt.Sprintf("an unknown machine of %d CPUs (%s)", cpus, unknownAbout)}
	if cpus > 1 {
		hw.Threaded = true
		hw.About = fmt.Sprintf("an unknown machine of %d CPUs (%s%s)", cpus, unknownAbout, threadedAbout)
	}
	return hw
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

// namedHardware are the machines brewput knows by name: the shapes of
// machines published measurements were made on, their transfer costs
// not known (the band spans an unknown machine's).
var namedHardware = []namedMachine{
	{name: "xeon-e5620x2", shape: sim.Machine{Sockets: 2, CoresPerSocket: 4, ThreadsPerCore: 2}, about: "2 × Intel Xeon E5620 (Westmere-EP, 2010), 16 threads"},
	{name: "c5.24xlarge", shape: sim.Machine{Sockets: 2, CoresPerSocket: 24, ThreadsPerCore: 2}, about: "AWS c5.24xlarge, 2 × 24 Intel cores, 96 threads",
		transfer:      sim.Transfer{Sibling: 7600 * time.Nanosecond / 1000, Socket: 47 * time.Nanosecond, Remote: 134 * time.Nanosecond},
		transferAbout: "moving a cache line between a core's threads 7.6 ns, its cores 47 ns and its sockets 134 ns, as nviennot/core-to-core-latency measured its Xeon Platinum 8275CL on a c5.metal, ±20 %"},
	{name: "c6g.metal", shape: sim.Machine{Sockets: 1, CoresPerSocket: 64, ThreadsPerCore: 1}, about: "AWS c6g.metal, one 64-core Graviton2",
		transfer:      sim.Transfer{Socket: 47 * time.Nanosecond},
		transferAbout: "moving a cache line between its cores 47 ns, as nviennot/core-to-core-latency measured a Graviton2 on a c6gd.metal, ±20 %"},
	{name: "e2-highcpu-32", shape: sim.Machine{Sockets: 1, CoresPerSocket: 16, ThreadsPerCore: 2}, about: "GCP e2-highcpu-32, 32 vCPUs of 16 Haswell cores", onDemand: true},
	{name: "i7-13700h", shape: sim.Machine{Sockets: 1, CoresPerSocket: 10, ThreadsPerCore: 2}, about: "Intel i7-13700H, 20 threads (6 cores with two threads and 8 without, taken as 10 with two)"},
}

// namedMachine is a machine brewput knows by name.
type namedMachine struct {
	name  string
	shape sim.Machine
	about string
	// onDemand says its vCPUs are threads its host runs on whichever of
	// its hardware threads is free as they have work, not on cores of
	// their own (GCP's E2 machines: "vCPUs are implemented as threads
	// that are scheduled to run on demand like any other thread on a
	// host", Compute Engine's "Cost and performance optimizations for the
	// E2 machine series"): two busy vCPUs may share a core whatever the
	// guest's topology says, which its band's slow edge spans (Threaded).
	onDemand bool
	// transfer, where not zero, is what moving a line between its cores
	// costs as published, and transferAbout says where from: its band
	// spans it ±20 %, not an unknown machine's range.
	transfer      sim.Transfer
	transferAbout string
}

// packedAbout says what the band of a machine of several sockets also
// spans.
const packedAbout = "; its threads spread over its sockets or kept on one first, as Linux may place a few that wake each other"

// onDemandAbout says what the band of a machine whose vCPUs run on
// demand also spans.
const onDemandAbout = "; its vCPUs run on demand on the host's hardware threads, so perhaps two to a core"

// HardwareNames lists the machines LookupHardware knows.
func HardwareNames() []string {
	var out []string
	for _, h := range namedHardware {
		out = append(out, h.name)
	}
	return out
}

// Range is what a band spans for h: where its costs are known (this
// machine's), how fast its cores run with every one busy, which brewput
// does not measure, else its transfer costs and all-core speeds from the
// fast edge to the slow, and hardware threads where it may have them.
func (h Hardware) Range() *MachineRange {
	if h.Known {
		return &MachineRange{FastAll: 1, SlowAll: allCoreLo, FastStay: stayFast, SlowStay: staySlow, OwnTransfer: true}
	}
	return &MachineRange{Fast: h.Lo, Slow: h.Hi, FastAll: h.AllCoreHi, SlowAll: h.AllCoreLo, Threaded: h.Threaded, Packed: h.Packed}
}

// LookupHardware is the machine of that name: a named one, or "unknown"
// of cpus CPUs.
func LookupHardware(name string, cpus int) (Hardware, error) {
	if name == "unknown" {
		return UnknownHardware(cpus), nil
	}
	i := slices.IndexFunc(namedHardware, func(h namedMachine) bool { return h.name == name })
	if i < 0 {
		return Hardware{}, fmt.Errorf("machine %q: want this, unknown or one of %s", name, strings.Join(HardwareNames(), ", "))
	}
	h := namedHardware[i]
	u := UnknownHardware(cpus)
	u.Name, u.Shape, u.Threaded, u.Packed = h.name, h.shape, h.onDemand, h.shape.Sockets > 1
	spans := unknownAbout
	if h.transfer != (sim.Transfer{}) {
		scale := func(t sim.Transfer, f, stay float64) sim.Transfer {
			return sim.Transfer{Sibling: time.Duration(float64(t.Sibling) * f), Socket: time.Duration(float64(t.Socket) * f),
				Remote: time.Duration(float64(t.Remote) * f), Stay: stay}
		}
		u.Transfer, u.Lo, u.Hi = scale(h.transfer, 1, stayMid), scale(h.transfer, 0.8, stayFast), scale(h.transfer, 1.25, staySlow)
		spans = h.transferAbout + "; " + allCoreAbout + stayAbout
	}
	if u.Threaded {
		spans += onDemandAbout
	}
	if u.Packed {
		spans += packedAbout
	}
	u.About = h.about + " (" + spans + ")"
	return u, nil
}
