package lab_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/lab/labtest"
	"github.com/brewput/brewput/measure/harness"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/chartspec"
)

// config is a configuration with a field of every kind a flag binds.
type config struct {
	N     int           `flag:"n" usage:"a number"`
	Ns    []int         `flag:"ns" usage:"numbers"`
	S     string        `flag:"s" usage:"a string"`
	Ss    []string      `flag:"ss" usage:"strings"`
	B     bool          `flag:"b" usage:"a bool"`
	F     float64       `flag:"f" usage:"a float"`
	U     uint64        `flag:"u" usage:"a seed"`
	D     time.Duration `flag:"d" usage:"a duration"`
	K     []kind        `flag:"k" usage:"kinds"`
	Other int           // no flag
}

type kind string

func (c config) Validate() error {
	if c.N < 0 {
		return fmt.Errorf("n %d: want 0 or more", c.N)
	}
	return nil
}

// Complete makes Ns N alone unless --ns was given, to show it is called.
func (c *config) Complete(given func(string) bool) {
	if !given("ns") {
		c.Ns = []int{c.N}
	}
}

func run(_ context.Context, c config, cpus []int, _ func(results.LabEvent)) ([]results.Point, error) {
	return []results.Point{labtest.LabPoint(fmt.Sprint(c.N), cpus[0], 1)}, nil
}

func TestOfBindsTaggedFields(t *testing.T) {
	l := lab.New(lab.Info{Name: "t"}, config{N: 1, K: []kind{"x"}, D: time.Second}, run, chartspec.Figure{Title: "T"})
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	check := l.Bind(fs)
	if fs.Lookup("other") != nil || fs.Lookup("d").DefValue != "1s" || fs.Lookup("k").DefValue != "[x]" || fs.Lookup("n").Usage != "a number" {
		t.Errorf("flags: other %v, d default %q, k default %q", fs.Lookup("other"), fs.Lookup("d").DefValue, fs.Lookup("k").DefValue)
	}
	err := fs.Parse([]string{"--n", "3", "--s", "a", "--ss", "b,c", "--b", "--f", "2.5", "--u", "7", "--d", "2ms", "--k", "y,z"})
	if err == nil {
		err = check()
	}
	want := config{N: 3, Ns: []int{3}, S: "a", Ss: []string{"b", "c"}, B: true, F: 2.5, U: 7, D: 2 * time.Millisecond, K: []kind{"y", "z"}}
	if err != nil || !reflect.DeepEqual(l.Config, want) {
		t.Errorf("config %+v, %v; want %+v", l.Config, err, want)
	}
	if ps, err := l.Run(context.Background(), []int{3}, nil); err != nil || ps[0].Variant() != "3" || ps[0].CPUs != 3 || l.Info().Name != "t" || l.Figure().Title != "T" {
		t.Errorf("Run, Info, Figure: %v, %v", ps, err)
	}
	l = lab.New(lab.Info{Name: "t"}, config{}, run, chartspec.Figure{})
	fs = pflag.NewFlagSet("t", pflag.ContinueOnError)
	check = l.Bind(fs)
	if err := fs.Parse([]string{"--n=-1", "--ns", "1"}); err != nil || check() == nil || check().Error() != "--n -1: want 0 or more" {
		t.Errorf("--n -1: %v, %v", err, check())
	}
}

// needy has a flag that needs another.
type needy struct {
	B bool `flag:"b" usage:"a bool"`
	M int  `flag:"m" needs:"b" usage:"a number for b"`
}

func (needy) Validate() error { return nil }

// TestNeeds: a flag tagged needs:"b" is refused when given without --b,
// and taken with it.
func TestNeeds(t *testing.T) {
	for _, tc := range []struct {
		args []string
		ok   bool
	}{{nil, true}, {[]string{"--m", "2", "--b"}, true}, {[]string{"--m", "2"}, false}, {[]string{"--m", "2", "--b=false"}, false}} {
		err := labtest.Bind(lab.New(lab.Info{Name: "t"}, needy{}, func(context.Context, needy, []int, func(results.LabEvent)) ([]results.Point, error) { return nil, nil }, chartspec.Figure{}), tc.args...)
		if tc.ok != (err == nil) || !tc.ok && err.Error() != "--m: applies only with --b; add --b, or drop it" {
			t.Errorf("%q: %v", tc.args, err)
		}
	}
}

func TestSelect(t *testing.T) {
	labs := []lab.Lab{lab.New(lab.Info{Name: "a"}, config{}, run, chartspec.Figure{}), lab.New(lab.Info{Name: "b"}, config{N: -1}, run, chartspec.Figure{})}
	if got, err := lab.Select(labs, "a"); err != nil || len(got) != 1 || got[0].Info().Name != "a" {
		t.Errorf("Select(a) = %v, %v", got, err)
	}
	for list, want := range map[string]string{"all": "b: --n -1", "a, b": "b: --n -1", "c": `unknown lab "c"; accepted: all, or some of a, b`} {
		if _, err := lab.Select(labs, list); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("Select(%s) = %v, want %q", list, err, want)
		}
	}
	if f := lab.Figures(labs); len(f) != 2 || lab.Names(labs) != "a, b" {
		t.Errorf("Figures %v, Names %q", f, lab.Names(labs))
	}
}

func TestSweep(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	var told []results.LabEvent
	tell := func(ev results.LabEvent) { told = append(told, ev) }
	var seen []int
	points, err := lab.Sweep(context.Background(), config{}, []int{1, 3}, tell,
		func(n int, add lab.Add) error {
			seen = append(seen, runtime.GOMAXPROCS(0))
			add(labtest.LabPoint("v", n, 1), results.LabPoint{Vs: results.Interval{Median: 2, N: 1}})
			add(labtest.LabPoint("w", n, 1), results.LabPoint{})
			return nil
		})
	if err != nil || len(points) != 4 || fmt.Sprint(seen) != "[1 3]" || len(told) != 4 || runtime.GOMAXPROCS(0) != procs {
		t.Errorf("%d points, %v; GOMAXPROCS %v then %d; told %+v", len(points), err, seen, runtime.GOMAXPROCS(0), told)
	}
	if m := told[2].Measured; m == nil || m.Point.CPUs != 3 || m.Point.Variant() != "v" || m.Vs.Median != 2 || m.Point.Host.GoVersion == "" {
		t.Errorf("told %+v of the third point, want v on 3 CPUs with its interval and host", m)
	}
	if points[0].Host.GoVersion == "" {
		t.Error("a point has no host")
	}
	// The checks come first; a failure keeps what was added.
	for _, c := range []struct {
		c    config
		cpus []int
	}{{config{N: -1}, []int{1}}, {config{}, nil}, {config{}, []int{0}}} {
		if _, err := lab.Sweep(context.Background(), c.c, c.cpus, nil, nil); err == nil {
			t.Errorf("Sweep(%+v, %v) ran", c.c, c.cpus)
		}
	}
	// Each point keeps the window its lab measured over its own runs: the
	// disturbed one is flagged and named, the one after it is not.
	told = nil
	points, err = lab.Sweep(context.Background(), config{}, []int{1}, tell,
		func(n int, add lab.Add) error {
			p := labtest.LabPoint("v", n, 1)
			p.OthersCPUs = float64(runtime.NumCPU()) // all a 1-CPU point leaves free, and more
			add(p, results.LabPoint{})
			add(labtest.LabPoint("w", n, 1), results.LabPoint{})
			return nil
		})
	if err != nil || len(points) != 2 || !points[0].Disturbed || points[1].Disturbed || points[1].OthersCPUs != 0 ||
		len(told) != 2 || !told[0].Measured.Point.Disturbed || told[1].Measured.Point.Disturbed {
		t.Errorf("a disturbed point then a quiet one: %v, told %+v, points %+v", err, told, points)
	}
	ctx, cancel := context.WithCancel(context.Background())
	points, err = lab.Sweep(ctx, config{}, []int{1, 2}, nil, func(n int, add lab.Add) error {
		add(labtest.LabPoint("v", n, 1), results.LabPoint{})
		cancel()
		return nil
	})
	if !errors.Is(err, context.Canceled) || len(points) != 1 {
		t.Errorf("cancelled after the first count: %d points, %v", len(points), err)
	}
}

// TestSweepRetries: under WithRetry a count with a disturbed point is
// measured again, whole, and the round with the fewest disturbed kept and
// handed on, its attempts said; only the kept round reaches WithPoints.
func TestSweepRetries(t *testing.T) {
	rounds := 0
	var handed []results.Point
	ctx := lab.WithPoints(context.Background(), func(p results.Point) error { handed = append(handed, p); return nil })
	ctx = lab.WithRetry(ctx, sweep.Retry{Attempts: 3, Wait: 10 * time.Millisecond})
	var again []results.LabAgain
	tell := func(ev results.LabEvent) {
		if ev.Again != nil {
			again = append(again, *ev.Again)
		}
	}
	points, err := lab.Sweep(ctx, config{}, []int{1}, tell, func(n int, add lab.Add) error {
		rounds++
		p := labtest.LabPoint("v", n, float64(rounds))
		if rounds == 1 {
			p.OthersCPUs = float64(runtime.NumCPU()) // disturbed
		}
		add(p, results.LabPoint{})
		add(labtest.LabPoint("w", n, 1), results.LabPoint{})
		return nil
	})
	if err != nil || rounds != 2 || len(points) != 2 || points[0].Disturbed || points[0].Throughput != 2 || points[0].Attempts != 2 {
		t.Errorf("a disturbed round, then a quiet one: %v, %d rounds, points %+v", err, rounds, points)
	}
	if len(handed) != 2 || handed[0].Throughput != 2 {
		t.Errorf("handed on %+v, want the quiet round's 2 points alone", handed)
	}
	if a := again; len(a) != 1 || a[0].Disturbed != 1 || a[0].Of != 2 || a[0].CPUs != 1 || a[0].Attempt != 2 || a[0].Attempts != 3 {
		t.Errorf("told %+v, want the count measured again once, 1 of its 2 points disturbed", again)
	}
	// Never quiet: every attempt made, the least disturbed round kept.
	rounds = 0
	points, err = lab.Sweep(ctx, config{}, []int{1}, nil, func(n int, add lab.Add) error {
		rounds++
		p := labtest.LabPoint("v", n, 1)
		p.OthersCPUs = float64(runtime.NumCPU())
		add(p, results.LabPoint{})
		return nil
	})
	if err != nil || rounds != 3 || len(points) != 1 || !points[0].Disturbed || points[0].Attempts != 3 {
		t.Errorf("always disturbed: %v, %d rounds, points %+v", err, rounds, points)
	}
}

func TestRuns(t *testing.T) {
	ms := time.Millisecond
	var r lab.Runs
	start := time.Now()
	for i, d := range []time.Duration{4 * ms, 1 * ms, 3 * ms, 2 * ms} {
		r.Add(sweep.Window{Start: start.Add(time.Duration(i) * time.Second), Wall: d, Usage: harness.Usage{CPU: d / 2}})
	}
	if p := r.Point("l", "v", 1, 1, 1, "ops/s", nil); r.Window.Start != start || p.Latency.P50 != 2.5 || r.Window.CPUsUsed() != 0.5 {
		t.Errorf("runs of 1..4 ms: start %v, p50 %v ms, %v CPUs", r.Window.Start, p.Latency.P50, r.Window.CPUsUsed())
	}
	if (lab.Runs{}).Window.CPUsUsed() != 0 {
		t.Error("no runs used CPU")
	}
}
