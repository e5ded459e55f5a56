package sweep

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/harness"
	"github.com/brewput/brewput/host"
	"github.com/brewput/brewput/internal/quiet"
	"github.com/brewput/brewput/profile"
	"github.com/brewput/brewput/results"
)

// Measure runs one point in this process, with GOMAXPROCS set to s.CPUs for
// the duration (and restored after). It does not restrict the process's CPU
// affinity; Runner does, by measuring each point in a child process.
//
// With s.Profile set, it traces and profiles the measured window into the
// files package profile names after s.Profile, and the point says where
// its goroutines waited (Waits) and where the files are (Profile); a
// profile that cannot be written fails the point.
func Measure(ctx context.Context, s Spec) (results.Point, error) {
	if err := s.Validate(); err != nil {
		return results.Point{}, err
	}
	shop, err := coffee.OpenVariant(s.Mode, s.Steps, s.Variant)
	if err != nil {
		return results.Point{}, err
	}
	defer shop.Close()

	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(s.CPUs))
	runtime.GC() // start from a clean heap, not the last point's garbage

	meters := shop.Meters()
	before := make([]coffee.Reading, len(meters))
	after := make([]coffee.Reading, len(meters))
	readAll := func(into []coffee.Reading) {
		for i, m := range meters {
			into[i] = m.Read()
		}
	}
	// With a profile, the session covers the window: it starts before the
	// meters are read and stops after, so that starting and stopping the
	// profilers falls outside what the meters count.
	var sess *profile.Session
	var files profile.Files
	var profErr error
	// Other processes' CPU use over the window: a point they took CPU
	// from says so.
	var quiet0, quiet1 quiet.Sample
	start := time.Now()
	run := harness.Run
	if s.Harness == "talk" {
		run = harness.RunTalk
	}
	res, err := run(ctx, harness.Config{
		Workers:  s.workers(),
		Rate:     s.Rate,
		MaxQueue: s.MaxQ,
		Warmup:   s.Warmup,
		Duration: s.Dur,
		OnWindow: func(e harness.Edge) {
			if e == harness.WindowStart {
				if s.Profile != "" {
					sess, profErr = profile.Start(s.Profile)
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
		},
	}, shop.Brew)
	if sess != nil {
		sess.Abort() // a run cut short never reached the window's end; after Stop, nothing
	}
	if err != nil {
		return results.Point{}, err
	}
	if profErr != nil {
		return results.Point{}, fmt.Errorf("%s cpus=%d: %w", s.Mode, s.CPUs, profErr)
	}
	if err := res.CheckCPU(s.CPUs); err != nil {
		return results.Point{}, fmt.Errorf("%s cpus=%d: %w", s.Mode, s.CPUs, err)
	}
	p, err := point(s, start, res, meters, before, after)
	p.OthersCPUs, p.StealCPUs = quiet.Split(quiet0, quiet1)
	p.Disturbed = p.IsDisturbed()
	if err == nil {
		err = p.Check()
	}
	if err != nil || s.Profile == "" {
		return p, err
	}
	p.Profile = s.Profile
	p.Waits, err = profile.SummarizeFile(files.Block, res.Ops, profile.Options{Ignore: harnessClock(), MinShare: profile.DefaultMinShare})
	return p, err
}

// harnessClock names the harness's own waits: the clock that waits out
// the window, in an open loop the dispatcher that waits for each
// arrival's time, and in the talk's harness the generator and the
// aggregator. They are the measurement's, not the shop's. (A talk
// worker's waits on the two channels stay in, named by their site in
// harness/talk.go: the worker runs the shop's calls too, and those waits
// are what the talk's harness costs its customers.)
func harnessClock() []string {
	return []string{"github.com/brewput/brewput/harness.watch", "github.com/brewput/brewput/harness.dispatch",
		"github.com/brewput/brewput/harness.generate", "github.com/brewput/brewput/harness.(*worker).aggregate"}
}

// point assembles what was measured into the results contract.
func point(s Spec, start time.Time, res harness.Result, meters []*coffee.Meter, before, after []coffee.Reading) (results.Point, error) {
	h := host.Detect()
	p := results.Point{
		Source:     results.SourceMeasured, // Host names the machine
		Mode:       s.Mode.String(),
		CPUs:       s.CPUs,
		CPUSet:     allowedCPUs(),
		Par:        s.workers(),
		Rate:       s.Rate,
		DurS:       s.Dur.Seconds(),
		WarmupS:    s.Warmup.Seconds(),
		Ops:        res.Ops,
		Errors:     res.Errors,
		Drops:      res.Drops,
		Throughput: res.Throughput(),
		Unit:       s.Mode.Unit(),
		// Within CheckCPU's tolerance, CPU time above the CPUs given is the
		// kernel's accounting (a running thread's time is brought up to
		// date at its ticks), not work: no point uses more than its CPUs.
		CPUUsed: min(res.CPUsUsed(), float64(s.CPUs)),
		Util:    min(res.CPUsUsed()/float64(s.CPUs), 1),
		Latency: results.Summarize(res.Latency),
		Shop: &results.Shop{
			Machines: []results.Machine{},
			Steps: results.Steps{
				GrindMs:  results.Ms(s.Steps.Grind),
				PressMs:  results.Ms(s.Steps.Press),
				SteamMs:  results.Ms(s.Steps.Steam),
				LatteMs:  results.Ms(s.Steps.Combine),
				JitterMs: results.Ms(s.Steps.Jitter),
				Clock:    s.Steps.Clock.String(),
			},
		},
		Host:  h,
		Start: start.UTC().Round(time.Millisecond),
	}
	if s.Harness == "talk" {
		p.Harness = "talk"
	}
	if s.Rate > 0 {
		p.MaxQ = s.MaxQ
		svc := results.Summarize(res.Service)
		p.Service = &svc
	}
	for i, m := range meters {
		d := after[i].Sub(before[i])
		mc := results.Machine{Name: m.Name(), Uses: d.Uses}
		if res.CPUWall > 0 {
			// A use is metered when it ends, so one that began before the
			// window counts whole: a resource busy all the time can read a
			// use's worth above 1, which is never real.
			mc.BusyFrac = min(1, d.Held.Seconds()/res.CPUWall.Seconds())
			mc.WorkingFrac = min(mc.BusyFrac, d.Working.Seconds()/res.CPUWall.Seconds())
		}
		if d.Uses > 0 {
			mc.MeanWaitMs = results.Ms(d.Wait) / float64(d.Uses)
		}
		p.Machines = append(p.Machines, mc)
	}
	var err error
	p.Hist, err = results.EncodeHistogram(res.Latency)
	return p, err
}
