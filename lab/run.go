package lab

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/brewput/brewput/internal/profile"
	"github.com/brewput/brewput/results"
)

// RunEach runs each lab in turn on cpus, keeping what was measured when
// one fails or is interrupted, with that error.
func RunEach(ctx context.Context, labs []Lab, cpus []int, progress func(line string)) ([]results.Point, error) {
	var points []results.Point
	for _, l := range labs {
		got, err := l.Run(ctx, cpus, progress)
		points = append(points, got...)
		if err != nil {
			return points, err
		}
	}
	return points, nil
}

// Profiled runs l one CPU count at a time, each under a profile session
// whose files are DIR/NAME-Ncpu.trace, .cpu.pprof, .block.pprof and
// .mutex.pprof; the block profile's waits, and the files' path, go into
// each of the count's points. The profile covers every variant at that
// count, so the waits have totals but no per-operation figure (per_op_ms
// 0). progress, which may be nil, is told where the files are. Without a
// dir, Profiled is l.Run.
func Profiled(ctx context.Context, l Lab, cpus []int, dir string, progress func(line string)) ([]results.Point, error) {
	if dir == "" {
		return l.Run(ctx, cpus, progress)
	}
	if progress == nil {
		progress = func(string) {}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var points []results.Point
	for _, n := range cpus {
		base := filepath.Join(dir, fmt.Sprintf("%s-%dcpu", l.Info().Name, n))
		session, err := profile.Start(base)
		if err != nil {
			return points, err
		}
		got, runErr := l.Run(ctx, []int{n}, progress)
		if runErr != nil {
			session.Abort()
			return append(points, got...), runErr
		}
		files, err := session.Stop()
		if err != nil {
			return append(points, got...), err
		}
		waits, err := profile.SummarizeFile(files.Block, 0, profile.Options{})
		if err != nil {
			return append(points, got...), err
		}
		for i := range got {
			got[i].Waits, got[i].Profile = waits, base
		}
		points = append(points, got...)
		progress(fmt.Sprintf("profiles of %d %s: %s.trace, .cpu.pprof, .block.pprof, .mutex.pprof", n, map[bool]string{true: "CPU", false: "CPUs"}[n == 1], base))
	}
	return points, nil
}
