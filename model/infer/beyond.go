package infer

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/brewput/brewput/internal/format"
	"github.com/brewput/brewput/model/calibrate"
	"github.com/brewput/brewput/model/sim"
)

// Share is the part of the points one step past the fitted CPU counts
// that Beyond's errors hold: 4 in 5.
const Share = 0.8

// beyond is the model's own error one step past the CPU counts it was
// inferred on: how far outside their runs' band the band of the costs
// inferred from the points on all but the most CPUs (its estimate and its
// sets of costs) puts the points on the most. What no set of costs there
// makes up for is a mechanism the model leaves out, and that error is
// what the band of a prediction past the points is widened by. nil where
// ps are on one CPU count.
func beyond(ctx context.Context, ps Points, opt Options) (*calibrate.Beyond, error) {
	cpus := ps.CPUs()
	if len(cpus) < 2 {
		return nil, nil
	}
	from, to := cpus[len(cpus)-2], cpus[len(cpus)-1]
	fewer, most := ps, ps
	fewer.Points, most.Points = slices.Clone(ps.Points), slices.Clone(ps.Points)
	fewer.Select(cpus[:len(cpus)-1])
	most.Select([]int{to})
	if tell := opt.Tell; tell != nil {
		tell(fmt.Sprintf("the model's error past its points: inferring again from the %d points on %s CPUs, to predict the %d on %d",
			len(fewer.Points), format.Ints(cpus[:len(cpus)-1], ", "), len(most.Points), to))
	}
	sub := opt
	sub.Tell = nil
	cal, err := infer(ctx, fewer, sub)
	if err != nil {
		return nil, err
	}
	// Each point's band under those costs: their estimate and every set
	// of costs their band simulates, as model.Range.Sets.
	s := &search{ctx: ctx, ps: most, opt: opt, seen: map[sim.Costs][]float64{}}
	lo := [2][]float64{}
	hi := [2][]float64{}
	for k, c := range append([]sim.Costs{cal.Costs}, cal.Inferred.Sets...) {
		thr, p50 := s.predict(c)
		if s.err != nil {
			return nil, s.err
		}
		for m, xs := range [2][]float64{thr, p50} {
			if k == 0 {
				lo[m], hi[m] = slices.Clone(xs), slices.Clone(xs)
			}
			for i, x := range xs {
				lo[m][i], hi[m][i] = min(lo[m][i], x), max(hi[m][i], x)
			}
		}
	}
	b := &calibrate.Beyond{From: from, To: to}
	var thr, p50 []float64
	for i, p := range most.Points {
		mthr, mp50 := measured(p)
		dt, dp := apart(lo[0][i], hi[0][i], mthr), apart(lo[1][i], hi[1][i], mp50)
		b.Fit = append(b.Fit, calibrate.PointFit{Point: p.Name, Throughput: round4(dt), P50: round4(dp)})
		thr, p50 = append(thr, dt), append(p50, dp)
	}
	b.Throughput, b.P50 = round4(nearestRank(thr, Share)), round4(nearestRank(p50, Share))
	return b, nil
}

// apart is how far the band from lo to hi lies from ms's band, relative
// to ms's nearer edge: 0 where they overlap.
func apart(lo, hi float64, ms []float64) float64 {
	mlo, mhi := slices.Min(ms), slices.Max(ms)
	switch {
	case hi < mlo:
		return (mlo - hi) / mlo
	case lo > mhi:
		return (lo - mhi) / mhi
	}
	return 0
}

// nearestRank is the least of xs that q of them are at most.
func nearestRank(xs []float64, q float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	return s[max(0, int(math.Ceil(q*float64(len(s))))-1)]
}
