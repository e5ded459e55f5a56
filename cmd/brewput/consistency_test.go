package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/model/calibrate"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/results"
)

// consistencyModes are every mode of the shop, the families with their
// usual variants.
const consistencyModes = "ideal,locking,finelocking,parsteam,americano,espresso,multi-2,multi-3,linearpipe-0,linearpipe-1,splitpipe-1,multipipe-2,americanopipe-1,espressopipe-1"

// TestConsistency holds brewput model's answers to the invariants that
// make its surfaces agree, over every mode × CPU count × policy and the
// YAML examples, closed and open loops: no throughput above the point's
// bound that its row does not explain, no open loop out of its steady
// state that its row does not say is, no median below the least latency; the JSON's bottleneck fields say what
// its words say (a joint limit joint in every field, the gain the best
// experiment's, every change recommended an experiment that helped); a
// single limit named is one whose relief helped; and no fit claims a
// peak, ceiling or plateau above the bound.
func TestConsistency(t *testing.T) {
	emptyConfig(t)
	calFile := fixedCalibration(t)
	cpus := "1,2,3,4,6,8,12,16"
	// Under --burn wall a step a preemption held up ends on the clock
	// with less of it burned, as the harness's do, and throughput may pass
	// the CPU bound: the sweeps burn CPU time, and one run below checks
	// that wall steps say so where they pass it.
	runs := [][]string{
		{"--modes", consistencyModes, "--cpus", cpus, "--sched", "fifo"},
		{"--modes", consistencyModes, "--cpus", cpus, "--calibration", calFile, "--burn", "cpu"},
		{"--modes", "finelocking,multi-2,linearpipe-1", "--cpus", cpus, "--calibration", calFile, "--burn", "cpu", "--runtime", "go1.9"},
	}
	examples, err := filepath.Glob("../../examples/*.yaml")
	if err != nil || len(examples) == 0 {
		t.Fatalf("the YAML examples: %v, %v", examples, err)
	}
	for _, f := range examples {
		runs = append(runs, []string{"--model", f, "--cpus", "1,2,4,8", "--sched", "fifo"}, []string{"--model", f, "--cpus", "1,2,4,8", "--calibration", calFile})
	}
	// Open loops, over and under their bounds, and steps that end on the
	// clock: where a number passes its bound, or a queue still grows, the
	// row says so.
	runs = append(runs,
		[]string{"--modes", "locking,finelocking,linearpipe-1", "--cpus", "1,2,4", "--rate", "300", "--calibration", calFile},
		[]string{"--modes", "locking,finelocking,linearpipe-1", "--cpus", "1,2,4", "--rate", "600", "--calibration", calFile},
		[]string{"--modes", "locking,finelocking,linearpipe-1", "--cpus", "1,2,4", "--rate", "600", "--sched", "fifo", "--jitter", "300us"},
		[]string{"--modes", consistencyModes, "--cpus", "1,2,4", "--calibration", calFile, "--burn", "wall"})
	for _, args := range runs {
		args = append(args, "--band=false")
		points := modelPoints(t, args...)
		if len(points) == 0 {
			t.Fatalf("brewput model %s: no points", strings.Join(args, " "))
		}
		for _, p := range points {
			where := fmt.Sprintf("brewput model %s: %s on %d CPUs (%s)", strings.Join(args, " "), p.Mode, p.CPUs, p.Sched)
			checkBounds(t, where, p)
			checkBottleneck(t, where, p)
		}
		checkFits(t, strings.Join(args, " "), points)
	}
}

// The window's edges may count a drink more or less per customer:
// within 1 % of a bound is within it.
const boundSlack = 0.01

func checkBounds(t *testing.T, where string, p results.Point) {
	t.Helper()
	b := p.Bounds
	if b == nil {
		t.Errorf("%s: no bounds", where)
		return
	}
	notes := results.Notes(p)
	if b.ThroughputMax > 0 && p.Throughput > b.ThroughputMax*(1+boundSlack) && !strings.Contains(notes, "above") {
		t.Errorf("%s: throughput %.1f above its bound %.1f (%s), and its row does not say so (notes %q)", where, p.Throughput, b.ThroughputMax, b.Limit, notes)
	}
	if p.Rate > 0 && (b.Arrived == 0 || !results.QueueSteady(b.Growth, b.Arrived) && !strings.Contains(notes, "not steady")) {
		t.Errorf("%s: an open loop whose queue grew by %d of %d arrivals, and its row does not say so (notes %q)", where, b.Growth, b.Arrived, notes)
	}
	if b.LatencyMinMs > 0 && p.Latency.P50 < b.LatencyMinMs*(1-boundSlack) {
		t.Errorf("%s: median latency %.3f ms below the least a drink takes, %.3f ms", where, p.Latency.P50, b.LatencyMinMs)
	}
}

func checkBottleneck(t *testing.T, where string, p results.Point) {
	t.Helper()
	bn := p.Bottleneck
	if bn == nil {
		t.Errorf("%s: no bottleneck", where)
		return
	}
	named := bn.Resources
	if len(named) == 0 {
		named = []string{bn.Resource}
	}
	if got := strings.Join(named, "+"); got != bn.Resource {
		t.Errorf("%s: bottleneck.resource %q, its resources %q", where, bn.Resource, named)
	}
	if bn.Named != "" && !strings.Contains(strings.ToLower(bn.Text), strings.ToLower(bn.Named)) {
		t.Errorf("%s: the words %q do not name %q", where, bn.Text, bn.Named)
	}
	tried := slices.Clone(bn.Profile)
	if bn.Combined != nil {
		tried = append(tried, *bn.Combined)
	}
	best := 0.0
	for _, e := range bn.Profile {
		best = max(best, e.Gain)
	}
	// Where nothing was found to help (the arrivals of an open loop that
	// keeps up, or none), no relief's gain is the limit's.
	nothing := len(named) == 1 && (named[0] == "arrivals" || named[0] == "none")
	switch {
	case nothing && bn.Gain != 0:
		t.Errorf("%s: bottleneck.gain %.4f where it names %s, which no relief relieves", where, bn.Gain, named[0])
	case !nothing && len(bn.Profile) > 0 && bn.Gain != best && (bn.Combined == nil || bn.Gain != bn.Combined.Gain):
		t.Errorf("%s: bottleneck.gain %.4f is neither the best experiment's, %.4f, nor the combined change's", where, bn.Gain, best)
	}
	for _, r := range bn.Recommend {
		if !slices.ContainsFunc(tried, func(e results.Experiment) bool { return e.Change == r && e.Gain > 0.01 }) {
			t.Errorf("%s: recommends %q, which is no experiment that gained more than 1 %%", where, r)
		}
	}
	if len(named) == 1 && !slices.Contains([]string{"none", "unknown", "arrivals"}, named[0]) && len(bn.Profile) > 0 {
		if !slices.ContainsFunc(tried, func(e results.Experiment) bool { return slices.Contains(e.Resources, named[0]) && e.Gain > 0.01 }) {
			t.Errorf("%s: names %s alone as the limit, and no relief of it gained more than 1 %%", where, named[0])
		}
	}
}

// checkFits holds brewput fit of points to their bounds.
func checkFits(t *testing.T, run string, points []results.Point) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "points.json")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := results.WriteJSON(f, points); err != nil {
		t.Fatal(err)
	}
	f.Close()
	code, stdout, stderr := brewput(t.Context(), t, noChild(), "fit", file, "--format", "json")
	if code != exitOK {
		if strings.Contains(stderr, "no series") || strings.Contains(stderr, "fewer than") {
			return // too few CPU counts to fit: nothing claimed
		}
		t.Fatalf("brewput fit of brewput model %s: exit %d\n%s", run, code, stderr)
	}
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var fit struct {
			Mode           string
			Bound          float64
			PeakThroughput *float64 `json:"peak_throughput"`
			Ceiling        *float64
			FlatAt         *float64 `json:"flat_at"`
		}
		if err := json.Unmarshal([]byte(line), &fit); err != nil {
			t.Fatalf("brewput fit --format json: %v\n%s", err, line)
		}
		if fit.Bound <= 0 {
			continue
		}
		for name, v := range map[string]*float64{"peak": fit.PeakThroughput, "ceiling": fit.Ceiling, "plateau": fit.FlatAt} {
			if v != nil && *v > fit.Bound*(1+boundSlack) {
				t.Errorf("brewput fit of brewput model %s: %s's %s %.1f above its bound %.1f", run, fit.Mode, name, *v, fit.Bound)
			}
		}
	}
}

// fixedCalibration saves a calibration of fixed costs, a machine's in
// shape, and returns its path: a test's go-policy answers then depend on
// no machine.
func fixedCalibration(t *testing.T) string {
	t.Helper()
	cal := calibrate.Calibration{Samples: 5, Costs: sim.Costs{Switch: 200, Wake: 20 * time.Microsecond, SpinWake: 15 * time.Microsecond,
		SpinWindow: 30 * time.Microsecond, MutexHandoff: 300, ChanHandoff: time.Microsecond, BufChanHandoff: time.Microsecond, RunnextGrace: 60 * time.Microsecond}}
	file := filepath.Join(t.TempDir(), "cal.json")
	if err := calibrate.Save(file, cal); err != nil {
		t.Fatal(err)
	}
	return file
}
