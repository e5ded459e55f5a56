package model

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/results"
)

// Simulate is the one way to simulate: it simulates cfgs, as many at once
// as there are CPUs, and hands each one's point, or why it failed, to each
// in order. A configuration asked twice is simulated once, and a Range
// adds its band's edges. It returns the points handed so far, stopped by
// an error from each, ctx's or, each nil, the first failure.
func Simulate(ctx context.Context, cfgs []Config, each func(i int, p results.Point, err error) error) ([]results.Point, error) {
	jobs, plans, done := planJobs(cfgs)
	var stop atomic.Bool
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		inParallel(len(jobs), func(j int) {
			if jb := jobs[j]; !stop.Load() {
				jb.res, jb.err = simulateOne(jb.cfg, ctx.Done())
			}
			close(jobs[j].done)
		})
	}()
	defer func() { stop.Store(true); <-finished }()
	var points []results.Point
	for i, c := range cfgs {
		r, err := gather(jobs, plans, i, c)
		if ctx.Err() != nil {
			return points, ctx.Err()
		}
		var p results.Point
		if err == nil {
			p = r.point(c)
		}
		if each != nil {
			err = each(i, p, err)
		}
		if err != nil {
			return points, err
		}
		points = append(points, p)
		for _, j := range done[i] {
			<-jobs[j].done
			jobs[j].res = result{}
		}
	}
	return points, nil
}

// job is one simulation of Simulate's, done once closed.
type job struct {
	cfg  Config
	res  result
	err  error
	done chan struct{}
}

// plan is what a configuration of Simulate's takes: its run, the run a
// probe is compared with (base, or -1), and its band's edges.
type plan struct {
	run, base int
	edges     []int
}

// planJobs is the jobs cfgs need, each once, full runs first for probes
// to find; each configuration's plan; and, by configuration, the jobs it
// is the last to need, whose results are let go once it is handed: a long
// profile keeps no results.
func planJobs(cfgs []Config) ([]*job, []plan, [][]int) {
	var jobs []*job
	keyed := map[Config]int{}
	add := func(c Config) int {
		k := c.key()
		if j, ok := keyed[k]; ok {
			return j
		}
		keyed[k] = len(jobs)
		jobs = append(jobs, &job{cfg: c, done: make(chan struct{})})
		return len(jobs) - 1
	}
	plans := make([]plan, len(cfgs))
	for i, c := range cfgs {
		if !c.Probe {
			plans[i] = plan{run: add(c), base: -1}
			for _, e := range c.Edges() {
				plans[i].edges = append(plans[i].edges, add(e))
			}
		}
	}
	base := -1
	for i, c := range cfgs {
		if !c.Probe {
			base = i
			continue
		}
		full := c
		full.Probe = false
		j, ok := keyed[full.key()]
		if !ok {
			j = add(c)
		}
		plans[i] = plan{run: j, base: base}
	}
	last := make([]int, len(jobs))
	for i, p := range plans {
		last[p.run] = i
		if p.base >= 0 {
			last[plans[p.base].run] = i
		}
		for _, e := range p.edges {
			last[e] = i
		}
	}
	done := make([][]int, len(cfgs))
	for j, i := range last {
		done[i] = append(done[i], j)
	}
	return jobs, plans, done
}

// gather is configuration i's result, c, once its jobs are done: carried
// if a probe, with its band.
func gather(jobs []*job, plans []plan, i int, c Config) (result, error) {
	p := plans[i]
	jb := jobs[p.run]
	<-jb.done
	r, err := jb.res, jb.err
	if p.base >= 0 {
		b := jobs[plans[p.base].run]
		<-b.done
		r = b.res.carry(r)
	}
	var edges []result
	for _, e := range p.edges {
		<-jobs[e].done
		if err == nil {
			err = jobs[e].err
		}
		edges = append(edges, r.carry(jobs[e].res))
	}
	if p.edges != nil {
		r.Band = bandOf(r, edges)
		if widen := c.Range.Widen; widen != nil {
			widen(r.Band, c.CPUs, r.Bounds)
		}
	}
	return r, err
}

// key tells c's simulation from another's. On one P under the go policy
// no cache line moves between cores and no other core runs, so the
// machine's shape and its costs for both cannot change a run: a band's
// edges that vary only those are simulated once there.
func (c Config) key() Config {
	c = c.Resolve()
	c.Range = nil
	if c.CPUs == 1 && c.sched() != "fifo" {
		if !c.Costs.Transfer.IsZero() {
			c.Costs.Transfer = sim.Transfer{Socket: 1}
		}
		c.Costs.AllCore, c.Costs.AllCoreFirst, c.Machine = 0, false, sim.Machine{}
	}
	return c
}

// inParallel calls f(0) … f(n-1), as many at once as there are CPUs.
func inParallel(n int, f func(int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.NumCPU(), n) {
		wg.Go(func() {
			for i := range next {
				f(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}
