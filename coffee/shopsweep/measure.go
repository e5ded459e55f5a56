//go:build !js

package shopsweep

import (
	"context"
	"io"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/measure/meter"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/results"
)

// Runner measures each of the shop's points in a child process.
type Runner = sweep.Runner[Spec]

// Measure measures one point of the coffee shop in this process.
func Measure(ctx context.Context, s Spec) (results.Point, error) {
	if err := s.Validate(); err != nil {
		return results.Point{}, err
	}
	shop, err := coffee.OpenVariant(s.Mode, s.Steps, s.Variant)
	if err != nil {
		return results.Point{}, err
	}
	defer shop.Close()
	meters := collect.Mapped(shop.Meters(), func(m *coffee.Meter) meter.Meter { return m })
	p, err := sweep.MeasureTarget(ctx, sweep.Target{Mode: s.Mode.String(), Unit: s.Mode.Unit(), Op: shop.Brew, Meters: meters}, s.Load)
	if err != nil {
		return results.Point{}, err
	}
	st := s.Steps
	p.Shop.Steps = results.Steps{Grind: st.Grind, Press: st.Press, Steam: st.Steam, Combine: st.Combine, Jitter: st.Jitter, Clock: st.Clock.String()}
	return p, nil
}

// ServeChild is the child's side of Runner: a Spec in, its point out.
func ServeChild(ctx context.Context, stdin io.Reader, stdout io.Writer) error {
	return sweep.ServeChild(ctx, stdin, stdout, Measure)
}
