package blueprint

import (
	"fmt"

	"github.com/brewput/brewput/model"
)

// Footprint estimates what simulating the blueprint at opt takes, from its
// file and opt alone, before anything is built (see model.Footprint): its
// customers or servers, its pipelines' workers on every line, the
// processes its parallel branches start for each order under way, its
// queue and the latencies it records.
func (b *Blueprint) Footprint(opt Options) model.Footprint {
	l := b.load(opt)
	customers := float64(l.workers)
	workers := 0.0
	for _, pp := range b.pipes {
		for _, st := range pp.stages {
			workers += float64(st.workersAt(opt)) * float64(pp.lines)
		}
	}
	branches := 0.0
	if b.flow != nil {
		branches = float64(extraBranches(b.flow))
	}
	cfg := model.Config{CPUs: max(opt.CPUs, 1), Customers: l.workers, Rate: l.Rate, MaxQ: l.Queue,
		Warmup: opt.Warmup, Duration: opt.Duration}
	thr := l.Rate
	if b.flow != nil && b.check() == nil {
		if bd := b.bounds(opt, l); thr == 0 && bd.ThroughputMax > 0 {
			thr = bd.ThroughputMax
		}
	}
	return model.Estimate(cfg, model.Sizes{
		Parts: []model.Part{
			{What: fmt.Sprintf("%d %s", l.workers, map[bool]string{true: "servers", false: "customers"}[l.Rate > 0]), Procs: customers},
			{What: fmt.Sprintf("%.0f pipeline workers", workers), Procs: workers},
			{What: fmt.Sprintf("%.0f parallel branches under way", customers*branches), Procs: customers * branches},
		},
		Drinks: thr,
	})
}

// extraBranches is the most processes beyond its own that an order's
// steps start at once: a parallel's branches but the first, within it too.
func extraBranches(n node) int {
	switch n := n.(type) {
	case *group:
		most := 0
		for _, it := range n.items {
			most = max(most, extraBranches(it))
		}
		return most
	case *parallel:
		sum := len(n.branches) - 1
		for _, br := range n.branches {
			sum += extraBranches(br)
		}
		return sum
	}
	return 0
}
