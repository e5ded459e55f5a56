package blueprint

import (
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/results"
)

// Point converts r, the result of b.Run(opt), to a results.Point, filled
// as model.Result.Point fills a mode's, so that a blueprint's points go
// into the same tables, reports and comparisons: Source "model", the
// blueprint's name as the mode, its unit per second, and the load the run
// applied (customers or servers, rate, queue). A blueprint has no coffee
// steps, so Steps is empty.
func (b *Blueprint) Point(r model.Result, opt Options) results.Point {
	l := b.load(opt)
	p := r.Point(model.Config{
		CPUs: opt.CPUs, Customers: l.workers, Rate: l.Rate, MaxQ: l.Queue,
		Sched: opt.Sched, Costs: opt.Costs, Runtime: string(opt.Runtime), Warmup: opt.Warmup, Duration: opt.Duration, Seed: opt.Seed,
	})
	p.Mode, p.Unit = b.Name, b.Unit+"/s"
	p.Steps = results.Steps{}
	return p
}
