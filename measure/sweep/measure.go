//go:build !js

package sweep

import (
	"context"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/measure/meter"
	"github.com/brewput/brewput/results"
)

// Measure runs one point of the coffee shop in this process, with
// GOMAXPROCS set to s.CPUs for the duration (and restored after): see
// MeasureTarget, which it calls with the shop's mode, its brew as the
// operation and its machines' meters. It does not restrict the process's
// CPU affinity; Runner does, by measuring each point in a child process.
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
	var meters []meter.Meter
	for _, m := range shop.Meters() {
		meters = append(meters, m)
	}
	p, err := MeasureTarget(ctx, Target{Mode: s.Mode.String(), Unit: s.Mode.Unit(), Op: shop.Brew, Meters: meters}, s.Load)
	if err != nil {
		return results.Point{}, err
	}
	p.Steps = results.Steps{
		GrindMs:  results.Ms(s.Steps.Grind),
		PressMs:  results.Ms(s.Steps.Press),
		SteamMs:  results.Ms(s.Steps.Steam),
		LatteMs:  results.Ms(s.Steps.Combine),
		JitterMs: results.Ms(s.Steps.Jitter),
		Clock:    s.Steps.Clock.String(),
	}
	return p, nil
}

// harnessClock names the harness's own waits: the clock that waits out
// the window, in an open loop the dispatcher that waits for each
// arrival's time, and in the talk's harness the generator and the
// aggregator. They are the measurement's, not the shop's (nor a study's). (A talk
// worker's waits on the two channels stay in, named by their site in
// harness/talk.go: the worker runs the shop's calls too, and those waits
// are what the talk's harness costs its customers.)
func harnessClock() []string {
	return []string{"github.com/brewput/brewput/measure/harness.watch", "github.com/brewput/brewput/measure/harness.dispatch",
		"github.com/brewput/brewput/measure/harness.generate", "github.com/brewput/brewput/measure/harness.(*worker).aggregate"}
}
