// Package study measures a user's own concurrent design as brewput
// measures the coffee shop: a Study is named variants, each an operation
// with optional setup and teardown and its shared resources' meters
// (package meter). brewput study PKG builds and runs a program whose main
// calls Main(s); the commands (measure each variant on 1, 2, … CPUs in a
// child restricted to them; report, compare, fit, why, predict) are
// brewput's, the program answering them from Main:
package study

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/measure/meter"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/results"
)

// Study is a comparison of variants of one design.
type Study struct {
	// Name names the study in its results (Point.Study.Name), report and
	// command line, e.g. "cache".
	Name string
	// Summary says in a line what is compared, for --help and list.
	Summary string
	// Unit names one operation, plural ("lookups"); throughput is Unit per
	// second, "ops" where empty.
	Unit string
	// Variants are the designs compared, at least one.
	Variants []Variant
}

// Variant is one design: an operation every worker of the load repeats.
type Variant struct {
	// Name names the variant in results and on the command line: no spaces or
	// slashes, e.g. "mutex-read".
	Name string
	// Summary says in a line what the variant is.
	Summary string
	// Setup, if set, runs once before the point (warm-up included) in the
	// process that measures it: make and fill what Op works on.
	Setup func(ctx context.Context) error
	// Op is one operation, called by many goroutines at once; a returned
	// error is counted, not fatal.
	Op func(ctx context.Context) error
	// Teardown, if set, runs once after the point, even where measuring failed.
	Teardown func(ctx context.Context) error
	// Meters, if set, returns the variant's meters after Setup: each becomes a
	// machine of the point.
	Meters func() []meter.Meter
}

// unit is the throughput's unit.
func (s Study) unit() string { return cmp.Or(s.Unit, "ops") + "/s" }

// Validate reports what is wrong with s before anything is measured.
func (s Study) Validate() error {
	if err := checkName(s.Name); err != nil {
		return fmt.Errorf("study name %w", err)
	}
	if strings.ContainsFunc(s.Unit, unicode.IsSpace) || strings.Contains(s.Unit, "/") {
		return fmt.Errorf("study %s: unit %q: want a word such as lookups, without spaces or slashes", s.Name, s.Unit)
	}
	if len(s.Variants) == 0 {
		return fmt.Errorf("study %s: no variants; want at least one", s.Name)
	}
	for i, v := range s.Variants {
		if err := checkName(v.Name); err != nil {
			return fmt.Errorf("study %s: variant %d: name %w", s.Name, i+1, err)
		}
		if slices.ContainsFunc(s.Variants[:i], func(o Variant) bool { return o.Name == v.Name }) {
			return fmt.Errorf("study %s: two variants are named %q", s.Name, v.Name)
		}
		if v.Op == nil {
			return fmt.Errorf("study %s: variant %s has no Op", s.Name, v.Name)
		}
	}
	return nil
}

// checkName checks a study's or a variant's name.
func checkName(name string) error {
	switch {
	case name == "":
		return errors.New("is empty")
	case strings.ContainsFunc(name, unicode.IsSpace) || strings.ContainsAny(name, "/=,"):
		return fmt.Errorf("%q: want no spaces, slashes, commas or '=', such as mutex-read", name)
	}
	return nil
}

// Variant returns the variant named name.
func (s Study) Variant(name string) (Variant, error) {
	if i := slices.IndexFunc(s.Variants, func(v Variant) bool { return v.Name == name }); i >= 0 {
		return s.Variants[i], nil
	}
	return Variant{}, fmt.Errorf("study %s has no variant %q; it has %s", s.Name, name, strings.Join(collect.Mapped(s.Variants, func(v Variant) string { return v.Name }), ", "))
}

// Measure measures one variant under l in this process (GOMAXPROCS set to
// l.CPUs, affinity as it is): Setup, the load, Teardown. The point's Study
// is s.Name, its Mode the variant's, its machines the variant's meters.
func (s Study) Measure(ctx context.Context, variant string, l sweep.Load) (p results.Point, err error) {
	return s.measure(ctx, variant, l, nil)
}

// Stretch arms a variant's meters for why's experiments (meter.Stretch):
// the meters of Group by Extra a use or Frac of a handoff, or with Outside
// every operation by Extra of work outside the meters; nothing, for the
// variant as it is beside them.
type Stretch struct {
	Group   string        `json:"group,omitempty"`
	Extra   time.Duration `json:"extra,omitempty"`
	Frac    float64       `json:"frac,omitempty"`
	Outside bool          `json:"outside,omitempty"`
}

// measure is Measure with the meters armed and stretched as st says,
// where st is not nil.
func (s Study) measure(ctx context.Context, variant string, l sweep.Load, st *Stretch) (p results.Point, err error) {
	if err := s.Validate(); err != nil {
		return p, err
	}
	v, err := s.Variant(variant)
	if err != nil {
		return p, err
	}
	if err := l.Validate(); err != nil {
		return p, err
	}
	if v.Setup != nil {
		if err := v.Setup(ctx); err != nil {
			return p, fmt.Errorf("%s: setup: %w", v.Name, err)
		}
	}
	if v.Teardown != nil {
		defer func() {
			if terr := v.Teardown(ctx); terr != nil && err == nil {
				err = fmt.Errorf("%s: teardown: %w", v.Name, terr)
			}
		}()
	}
	var meters []meter.Meter
	if v.Meters != nil {
		meters = v.Meters()
	}
	op := func() error { return v.Op(ctx) }
	if st != nil {
		armed, err := meter.NewStretch()
		if err != nil {
			return p, err
		}
		for _, m := range meters {
			sm, ok := m.(meter.Stretcher)
			if !ok {
				continue
			}
			arm := armed
			if st.Group != "" && results.MeterGroup(m.Name()) == st.Group {
				arm.Extra, arm.Frac = st.Extra, st.Frac
			}
			if err := arm.Check(); err != nil {
				return p, err
			}
			sm.Stretch(arm)
		}
		if st.Outside {
			op = func() error {
				err := v.Op(ctx)
				armed.Spin(st.Extra)
				return err
			}
		}
	}
	p, err = sweep.MeasureTarget(ctx, sweep.Target{Mode: v.Name, Unit: s.unit(), Op: op, Meters: meters}, l)
	p.AsStudy(s.Name)
	return p, err
}
