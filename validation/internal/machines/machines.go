// Package machines are the machines published measurements were made on,
// by name, as the model predicts for them: their shapes, and where their
// processor's core-to-core latency was published, what moving a cache line
// costs there. brewput itself predicts for this machine or an unknown one;
// these are validation's, to hold the model against what was published.
package machines

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/sim"
)

// machine is a machine known by name.
type machine struct {
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
	// costs as published: its band spans it ±20 %, not an unknown
	// machine's range.
	transfer sim.Transfer
}

var named = []machine{
	{name: "xeon-e5620x2", shape: sim.Machine{Sockets: 2, CoresPerSocket: 4, ThreadsPerCore: 2}, about: "2 × Intel Xeon E5620 (Westmere-EP, 2010), 16 threads"},
	// nviennot/core-to-core-latency's Xeon Platinum 8275CL on a c5.metal.
	{name: "c5.24xlarge", shape: sim.Machine{Sockets: 2, CoresPerSocket: 24, ThreadsPerCore: 2}, about: "AWS c5.24xlarge, 2 × 24 Intel cores, 96 threads",
		transfer: sim.Transfer{Sibling: 7600 * time.Nanosecond / 1000, Socket: 47 * time.Nanosecond, Remote: 134 * time.Nanosecond}},
	// nviennot/core-to-core-latency's Graviton2 on a c6gd.metal.
	{name: "c6g.metal", shape: sim.Machine{Sockets: 1, CoresPerSocket: 64, ThreadsPerCore: 1}, about: "AWS c6g.metal, one 64-core Graviton2",
		transfer: sim.Transfer{Socket: 47 * time.Nanosecond}},
	{name: "e2-highcpu-32", shape: sim.Machine{Sockets: 1, CoresPerSocket: 16, ThreadsPerCore: 2}, about: "GCP e2-highcpu-32, 32 vCPUs of 16 Haswell cores", onDemand: true},
	{name: "i7-13700h", shape: sim.Machine{Sockets: 1, CoresPerSocket: 10, ThreadsPerCore: 2}, about: "Intel i7-13700H, 20 threads (6 cores with two threads and 8 without, taken as 10 with two)"},
}

// Names lists the machines Lookup knows besides "unknown".
func Names() []string {
	var out []string
	for _, m := range named {
		out = append(out, m.name)
	}
	return out
}

// Lookup is the machine of that name, its band that of an unknown machine
// of cpus CPUs but for what is known of it: its shape, its published
// transfer costs ±20 %, its vCPUs perhaps two to a core where its host
// runs them on demand, its threads perhaps kept on one socket first where
// it has several. "unknown" is model.UnknownHardware.
func Lookup(name string, cpus int) (model.Hardware, error) {
	u := model.UnknownHardware(cpus)
	if name == "unknown" {
		return u, nil
	}
	i := slices.IndexFunc(named, func(m machine) bool { return m.name == name })
	if i < 0 {
		return model.Hardware{}, fmt.Errorf("machine %q: want unknown or one of %s", name, strings.Join(Names(), ", "))
	}
	m := named[i]
	u.Name, u.Shape, u.Threaded, u.Packed, u.About = m.name, m.shape, m.onDemand, m.shape.Sockets > 1, m.about
	if m.transfer != (sim.Transfer{}) {
		// An unknown machine's stays: the point's, and the band's edges'.
		scale := func(f, stay float64) sim.Transfer {
			t := m.transfer
			return sim.Transfer{Sibling: time.Duration(float64(t.Sibling) * f), Socket: time.Duration(float64(t.Socket) * f),
				Remote: time.Duration(float64(t.Remote) * f), Stay: stay}
		}
		u.Transfer, u.Lo, u.Hi = scale(1, u.Transfer.Stay), scale(0.8, u.Lo.Stay), scale(1.25, u.Hi.Stay)
	}
	return u, nil
}
