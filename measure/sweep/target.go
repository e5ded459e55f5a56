//go:build !js

package sweep

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"github.com/brewput/brewput/measure/harness"
	"github.com/brewput/brewput/measure/host"
	"github.com/brewput/brewput/measure/meter"
	"github.com/brewput/brewput/measure/quiet"
	"github.com/brewput/brewput/measure/record"
	"github.com/brewput/brewput/results"
)

// Target is a system to measure at one point: its configuration's name
// (Point.Mode), the throughput's unit ("ops/s"), the operation every
// worker runs, and the meters of its shared resources.
type Target struct {
	Mode, Unit string
	Op         harness.Op
	Meters     []meter.Meter
}

// MeasureTarget measures one point of t in this process under l, with
// GOMAXPROCS set to l.CPUs meanwhile, each meter one of its machines, and
// with l.Profile where its goroutines waited.
func MeasureTarget(ctx context.Context, t Target, l Load) (results.Point, error) {
	if err := l.Validate(); err != nil {
		return results.Point{}, err
	}
	if t.Op == nil {
		return results.Point{}, fmt.Errorf("%s: no operation to measure", t.Mode)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(l.CPUs))
	runtime.GC() // start from a clean heap, not the last point's garbage
	before := make([]meter.Reading, len(t.Meters))
	after := make([]meter.Reading, len(t.Meters))
	readAll := func(into []meter.Reading) {
		for i, m := range t.Meters {
			into[i] = m.Read()
		}
	}
	// A profile's session starts and stops outside what the meters count.
	var sess *record.Session
	var files record.Files
	var profErr error
	var quiet0, quiet1 quiet.Sample // others' CPU use over the window
	start := time.Now()
	res, err := harness.Run(ctx, l.Load, t.Op, func(e harness.Edge) {
		if e == harness.WindowStart {
			if l.Profile != "" {
				sess, profErr = record.Start(l.Profile)
			}
			readAll(before)
			quiet0 = quiet.Take()
			return
		}
		quiet1 = quiet.Take()
		readAll(after)
		if sess != nil {
			files, profErr = sess.Stop()
		}
	})
	if sess != nil {
		sess.Abort() // a run cut short never reached the window's end; after Stop, nothing
	}
	if err != nil {
		return results.Point{}, err
	}
	if profErr != nil {
		return results.Point{}, fmt.Errorf("%s cpus=%d: %w", t.Mode, l.CPUs, profErr)
	}
	if err := res.CheckCPU(l.CPUs); err != nil {
		return results.Point{}, fmt.Errorf("%s cpus=%d: %w", t.Mode, l.CPUs, err)
	}
	p, err := PointOf(t.Mode, t.Unit, l, start, res)
	if err != nil {
		return p, err
	}
	w := Window{Start: start, Wall: res.Window, Usage: res.Usage}
	w.Others.Add(quiet0, quiet1)
	w.Mark(&p)
	// CPU time above the CPUs given (within CheckCPU's tolerance) is the
	// kernel's accounting at its ticks, not work.
	p.Set(results.CPUUsed, min(p.Metrics[results.CPUUsed], float64(l.CPUs)))
	for i, m := range t.Meters {
		p.Shop.Machines = append(p.Shop.Machines, MachineOf(m.Name(), m.Kind(), after[i].Sub(before[i]), res.Window))
	}
	if err := p.Check(); err != nil {
		return p, err
	}
	if l.Profile == "" {
		return p, nil
	}
	p.Profile = l.Profile
	// The harness's own waits are not the system's (a talk worker's are).
	const h = "github.com/brewput/brewput/measure/harness."
	clock := []string{h + "watch", h + "dispatch", h + "generate", h + "(*worker).aggregate"}
	p.Waits, err = record.SummarizeFile(files.Block, res.Ops, record.Options{Ignore: clock, MinShare: record.DefaultMinShare})
	return p, err
}

// PointOf is what the harness measured of mode under l, its Machines
// empty and its CPU use its Window's to mark (Window.Mark).
func PointOf(mode, unit string, l Load, start time.Time, res harness.Result) (results.Point, error) {
	p := results.Point{
		Source:     results.SourceMeasured, // Host names the machine
		Spec:       results.Spec{Mode: mode, CPUs: l.CPUs, Load: results.Load{Par: l.Workers(l.CPUs), Rate: l.Rate, Dur: l.Dur, Warmup: l.Warmup}},
		CPUSet:     AllowedCPUs(),
		Ops:        res.Ops,
		Throughput: res.Throughput(),
		Unit:       unit,
		Latency:    results.Summarize(res.Latency),
		Shop:       &results.Shop{Machines: []results.Machine{}},
		Host:       host.Detect(),
		Start:      start.UTC().Round(time.Millisecond),
	}
	p.Set(results.Errors, float64(res.Errors))
	p.Set(results.Drops, float64(res.Drops))
	if l.Harness == "talk" {
		p.Harness = "talk"
	}
	if l.Rate > 0 {
		p.MaxQ = l.MaxQ
		svc := results.Summarize(res.Service)
		p.Service = &svc
	}
	var err error
	p.Hist, err = results.EncodeHistogram(res.Latency)
	return p, err
}

// MachineOf is one shared resource's use over a window of length wall, as
// a point's machine; kind is the meter's, "" for the coffee shop's.
func MachineOf(name, kind string, d meter.Reading, wall time.Duration) results.Machine {
	mc := results.Machine{Name: name, Kind: kind, Uses: d.Uses}
	if wall > 0 {
		// A use is metered when it ends, so one begun before the window
		// counts whole: busy all the time can read above 1.
		mc.BusyFrac = min(1, d.Held.Seconds()/wall.Seconds())
		mc.WorkingFrac = min(mc.BusyFrac, d.Working.Seconds()/wall.Seconds())
	}
	if d.Uses > 0 {
		mc.MeanWaitMs = results.Ms(d.Waited) / float64(d.Uses)
	}
	return mc
}
