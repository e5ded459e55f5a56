package blueprint

import (
	"fmt"

	"github.com/brewput/brewput/model"
)

// Sizes are what simulating b at cfg holds (model.Config.Footprint).
func (b *Blueprint) Sizes(cfg model.Config) model.Sizes {
	l, _ := b.LoadAt(cfg)
	customers := float64(l.Par)
	workers := 0.0
	for _, pp := range b.pipes {
		for _, st := range pp.stages {
			workers += float64(b.workers(st)) * float64(pp.lines)
		}
	}
	branches := 0.0
	if b.flow != nil {
		branches = float64(extraBranches(b.flow))
	}
	thr := l.Rate
	if bd, err := cfg.Bounds(); err == nil && thr == 0 && bd.ThroughputMax > 0 {
		thr = bd.ThroughputMax
	}
	return model.Sizes{
		Parts: []model.Part{
			{What: fmt.Sprintf("%d %s", l.Par, map[bool]string{true: "servers", false: "customers"}[l.Rate > 0]), Procs: customers},
			{What: fmt.Sprintf("%.0f pipeline workers", workers), Procs: workers},
			{What: fmt.Sprintf("%.0f parallel branches under way", customers*branches), Procs: customers * branches},
		},
		Drinks: thr,
	}
}

// extraBranches is the most processes an order starts beyond its own.
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
