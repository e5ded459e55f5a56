package limits_test

import (
	"testing"
	"time"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/sim"
)

// BenchmarkDefaultStudy is brewput model's work for the main job's
// default study on 1 to 8 CPUs: the nine modes' 72 points, each with its
// causal profile, under the go policy (fixed costs: this machine's
// calibration). The target is under 10 s an op on 2 cores:
//
//	go test ./causal -run '^$' -bench DefaultStudy -benchtime 3x
func BenchmarkDefaultStudy(b *testing.B) {
	us := time.Microsecond
	costs := sim.Costs{Switch: 280 * time.Nanosecond, Wake: 132 * us, SpinWake: 1200 * time.Nanosecond, SpinWindow: 80 * us,
		MutexHandoff: 3 * us, ChanHandoff: 3700 * time.Nanosecond, BufChanHandoff: 3600 * time.Nanosecond}
	var cfgs []model.Config
	for _, mode := range []string{"ideal", "locking", "finelocking", "parsteam", "multi-2", "linearpipe-0", "linearpipe-1", "linearpipe-10", "multipipe-2"} {
		for n := 1; n <= 8; n++ {
			cfg := model.DefaultConfig(n)
			cfg.Mode, cfg.Costs = mode, costs
			cfgs = append(cfgs, cfg)
		}
	}
	for b.Loop() {
		if _, err := predict(cfgs); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(cfgs)), "points")
}
