// Package labtest is every lab's checks, shared by the labs' tests and
// the command layer's: a lab bound to flags, run on CPU counts, its
// invalid configurations refused, its run cancelled, its points made by hand.
package labtest

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/results"
)

// Bind parses args into l's flags as brewput lab does, and returns the
// error of parsing them or of Bind's check.
func Bind(l lab.Lab, args ...string) error {
	fs := pflag.NewFlagSet(l.Info().Name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	check := l.Bind(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	return check()
}

// Binds checks that args give l, at its defaults, the configuration want.
func Binds[C lab.Validator](t testing.TB, l *lab.Of[C], want C, args ...string) {
	t.Helper()
	if err := Bind(l, args...); err != nil || !reflect.DeepEqual(l.Config, want) {
		t.Errorf("flags %q: config %+v, %v; want %+v", args, l.Config, err, want)
	}
}

// Usage is the help of l's flag --flag.
func Usage(l lab.Lab, flag string) string {
	fs := pflag.NewFlagSet(l.Info().Name, pflag.ContinueOnError)
	l.Bind(fs)
	return fs.Lookup(flag).Usage
}

// RunLab runs l on cpus and checks what every lab's run must give:
// GOMAXPROCS as it was, want points (any number if negative), each told
// as measured, each point as LabPoints checks, and l's figure drawn from
// them, reading only the lab's metrics. It returns the points and the
// events told of them.
func RunLab(t testing.TB, l lab.Lab, cpus []int, want int, unit string, metrics []results.Metric) (points []results.Point, told []results.LabPoint) {
	t.Helper()
	procs := runtime.GOMAXPROCS(0)
	points, err := l.Run(context.Background(), cpus, func(ev results.LabEvent) {
		if ev.Measured != nil {
			told = append(told, *ev.Measured)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := runtime.GOMAXPROCS(0); got != procs {
		t.Errorf("GOMAXPROCS %d after Run, was %d", got, procs)
	}
	if len(told) != len(points) || want >= 0 && len(points) != want {
		t.Fatalf("%d points and %d told, want %d of each", len(points), len(told), want)
	}
	LabPoints(t, l.Info().Name, unit, metrics, points)
	f := l.Figure()
	if _, ok := f.Plot(points); !ok {
		t.Errorf("figure %q draws nothing of the points: %s", f.Title, f.Empty)
	}
	for _, m := range f.Metrics() {
		if !slices.Contains(metrics, m) {
			t.Errorf("figure %q reads metric %q, none of the lab's %v", f.Title, m, metrics)
		}
		if !slices.ContainsFunc(points, func(p results.Point) bool { _, ok := p.Metrics[m]; return ok }) {
			t.Errorf("figure %q reads metric %q, which no point has", f.Title, m)
		}
	}
	if f.Title == "" || f.Lesson == "" || f.Empty == "" {
		t.Errorf("figure %+v lacks a title, a lesson or what it says when empty", f)
	}
	return points, told
}

// LabPoints fails t for each point that is not a measurement of the lab
// named: a variant, only the metrics named, "lab/variant" as its mode,
// unit as its unit (any where ""), no shop part, a host, a start; and that
// encodes as JSON.
func LabPoints(t testing.TB, name, unit string, metrics []results.Metric, points []results.Point) {
	t.Helper()
	for _, p := range points {
		if p.Kind != results.KindLab || p.Source != results.SourceMeasured || p.LabName() != name || p.Variant() == "" ||
			p.Mode != name+"/"+p.Variant() || p.CPUs < 1 || p.Unit == "" || unit != "" && p.Unit != unit || p.Shop != nil ||
			p.Host.GoVersion == "" || p.Start.IsZero() {
			t.Errorf("%s: malformed point %+v", p.Variant(), p)
		}
		for _, k := range p.Own() {
			if !slices.Contains(metrics, k) {
				t.Errorf("%s: metric %q is none of the lab's %v", p.Variant(), k, metrics)
			}
		}
	}
	if _, err := json.Marshal(points); err != nil {
		t.Errorf("points do not encode as JSON: %v", err)
	}
}

// With is l with the configuration c.
func With[C lab.Validator](l *lab.Of[C], c C) *lab.Of[C] {
	l.Config = c
	return l
}

// Case is an edit making a lab's configuration invalid, and the flag its
// Validate error must start with.
type Case[C any] struct {
	Flag string
	Edit func(c *C)
}

// Invalid checks a lab's input checks: def is valid; each case's edit is
// refused with one line starting with its flag; run refuses an empty CPU
// list and one holding 0.
func Invalid[C lab.Validator](t testing.TB, def func() C, run func(context.Context, C, []int, func(results.LabEvent)) ([]results.Point, error), cases []Case[C]) {
	t.Helper()
	if err := def().Validate(); err != nil {
		t.Fatalf("default config: %v", err)
	}
	for _, tc := range cases {
		c := def()
		tc.Edit(&c)
		// The CLI puts "--" before the flag an error starts with.
		err := c.Validate()
		if err == nil || !strings.HasPrefix(err.Error(), tc.Flag+" ") && !strings.HasPrefix(err.Error(), tc.Flag+":") {
			t.Errorf("%s: Validate() = %v, want an error starting with %q", tc.Flag, err, tc.Flag)
		} else if strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error on more than one line: %q", tc.Flag, err)
		}
	}
	for _, cpus := range [][]int{nil, {2, 0}} {
		if _, err := run(context.Background(), def(), cpus, nil); err == nil || !strings.HasPrefix(err.Error(), "cpus") {
			t.Errorf("Run with cpus %v: %v, want an error about cpus", cpus, err)
		}
	}
}

// CancelAfter runs l on cpus, cancelled once a progress line, as say says
// it, holds after, and checks that it returns the context's error and
// want points.
func CancelAfter(t testing.TB, l lab.Lab, cpus []int, say func(results.LabEvent) string, after string, want int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	points, err := l.Run(ctx, cpus, func(ev results.LabEvent) {
		if strings.Contains(say(ev), after) {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || len(points) != want {
		t.Errorf("cancelled after %q: %d points, %v; want %d points and context.Canceled", after, len(points), err, want)
	}
}

// LabPoint is a measured point of the lab "t": variant on cpus CPUs at tput
// ops/s, with metrics in name, value pairs ("speedup", 1.5, …).
func LabPoint(variant string, cpus int, tput float64, metrics ...any) results.Point {
	m := map[results.Metric]float64{}
	for i := 0; i < len(metrics); i += 2 {
		m[results.Metric(metrics[i].(string))] = metrics[i+1].(float64)
	}
	return results.Point{Kind: results.KindLab, Source: results.SourceMeasured, Lab: &results.Lab{Name: "t", Variant: variant}, Metrics: m,
		Spec: results.Spec{Mode: "t/" + variant, CPUs: cpus}, Throughput: tput, Unit: "ops/s"}
}

// Lines are the points told, each as say says it (report/text's LabEvent).
func Lines(told []results.LabPoint, say func(results.LabEvent) string) []string {
	lines := make([]string, len(told))
	for i := range told {
		lines[i] = say(results.LabEvent{Measured: &told[i]})
	}
	return lines
}
