package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/brewput/brewput/internal/base/race"
	"github.com/brewput/brewput/model/calibrate"
	"github.com/brewput/brewput/model/sim"
	"github.com/brewput/brewput/report/text"
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
	if race.Enabled {
		// Under the detector the simulations take several minutes (205 s
		// of the race run's 30 at load 2-6); they are the model's, whose
		// goroutines package model's tests run under it.
		t.Skip("the model's surfaces checked without the race detector: go test ./cmd/brewput/internal/driver")
	}
	// Every run is given its calibration (or the fifo policy, which
	// needs none), so none reads the user's config folder: beside the
	// other tests.
	t.Parallel()
	calFile := fixedCalibration(t)
	cpus := "1,2,3,4,6,8,12,16"
	// Under --burn wall a step a preemption held up ends on the clock
	// with less of it burned, as the harness's do, and throughput may pass
	// the CPU bound: the sweeps burn CPU time, and one run below checks
	// that wall steps say so where they pass it.
	runs := [][]string{
		{"--modes", consistencyModes, "--cpus", cpus, "--sched", "fifo"},
		{"--modes", consistencyModes, "--cpus", cpus, "--calibration", calFile, "--burn", "cpu"},
	}
	examples, err := filepath.Glob("../../../../examples/*.yaml")
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

// A fit's peak, ceiling or plateau within 1 % of a bound is within it: a
// fit is a curve through points, not a count.
const boundSlack = 0.01

func checkBounds(t *testing.T, where string, p results.Point) {
	t.Helper()
	b := p.Bounds
	if b == nil {
		t.Errorf("%s: no bounds", where)
		return
	}
	for _, miss := range unexplained(p) {
		t.Errorf("%s: %s", where, miss)
	}
	notes := text.Notes(p)
	if p.Rate > 0 && (b.Arrived == 0 || !results.QueueSteady(b.Growth, b.Arrived) && !strings.Contains(notes, "not steady")) {
		t.Errorf("%s: an open loop whose queue grew by %d of %d arrivals, and its row does not say so (notes %q)", where, b.Growth, b.Arrived, notes)
	}
}

// unexplained lists p's numbers past a bound that p states — throughput
// or its band's high edge above ThroughputMax, throughput above an open
// loop's rate, a latency below LatencyMinMs — whose reason is not beside
// them: an Above in p's trust (in p's JSON object) naming the bound and
// the number, with words that the row's notes hold. Only floating-point
// noise is forgiven: a window's edge is a reason to say, not a slack.
func unexplained(p results.Point) []string {
	const noise = 1 + 1e-9
	notes := text.Notes(p)
	explained := func(bound, of string) bool {
		return slices.ContainsFunc(p.Above, func(a results.Above) bool {
			return a.Bound == bound && slices.Contains(strings.Split(a.Of, ", "), of) && strings.Contains(notes, text.AboveText(p, a))
		})
	}
	var out []string
	b := p.Bounds
	if b != nil && b.ThroughputMax > 0 && b.SetBy != "arrivals" {
		if p.Throughput > noise*b.ThroughputMax && !explained(results.BoundThroughput, "throughput") {
			out = append(out, fmt.Sprintf("throughput %v above its bound %v (%s), no reason beside it (above %+v, notes %q)", p.Throughput, b.ThroughputMax, b.SetBy, p.Above, notes))
		}
		if p.Band != nil && p.Band.Throughput[1] > noise*b.ThroughputMax && !explained(results.BoundThroughput, "band") {
			out = append(out, fmt.Sprintf("band's high edge %v above its bound %v (%s), no reason beside it (above %+v, notes %q)", p.Band.Throughput[1], b.ThroughputMax, b.SetBy, p.Above, notes))
		}
	}
	if p.Rate > 0 && p.Throughput > noise*p.Rate && !explained(results.BoundArrivals, "throughput") {
		out = append(out, fmt.Sprintf("throughput %v above its arrival rate %v, no reason beside it (above %+v, notes %q)", p.Throughput, p.Rate, p.Above, notes))
	}
	if b != nil && b.LatencyMinMs > 0 && p.Ops > 0 {
		l := p.Latency
		for name, v := range map[string]float64{"min": l.Min, "p05": l.P05, "p25": l.P25, "p50": l.P50, "mean": l.Mean, "p75": l.P75, "p95": l.P95, "p99": l.P99} {
			if v > 0 && noise*v < b.LatencyMinMs && !explained(results.BoundLatency, name) {
				out = append(out, fmt.Sprintf("%s latency %v ms below the least, %v ms, no reason beside it (above %+v, notes %q)", name, v, b.LatencyMinMs, p.Above, notes))
			}
		}
	}
	return out
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
	tried := slices.Clone(bn.Experiments)
	if bn.Combined != nil {
		tried = append(tried, *bn.Combined)
	}
	best := 0.0
	for _, e := range bn.Experiments {
		best = max(best, e.Gain)
	}
	// Where nothing was found to help (the arrivals of an open loop that
	// keeps up, or none), no relief's gain is the limit's.
	nothing := len(named) == 1 && (named[0] == "arrivals" || named[0] == "none")
	switch {
	case nothing && bn.Gain != 0:
		t.Errorf("%s: bottleneck.gain %.4f where it names %s, which no relief relieves", where, bn.Gain, named[0])
	case !nothing && len(bn.Experiments) > 0 && bn.Gain != best && (bn.Combined == nil || bn.Gain != bn.Combined.Gain):
		t.Errorf("%s: bottleneck.gain %.4f is neither the best experiment's, %.4f, nor the combined change's", where, bn.Gain, best)
	}
	for _, i := range bn.Tier {
		if i < 0 || i >= len(bn.Experiments) || bn.Experiments[i].Gain <= 0.01 {
			t.Errorf("%s: recommends experiment %d of %d, which is none that gained more than 1 %%", where, i, len(bn.Experiments))
		}
	}
	if len(named) == 1 && !slices.Contains([]string{"none", "unknown", "arrivals"}, named[0]) && len(bn.Experiments) > 0 {
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
	file := filepath.Join(t.TempDir(), "cal.json")
	if err := saveFixedCalibration(file); err != nil {
		t.Fatal(err)
	}
	return file
}

// saveFixedCalibration writes fixedCalibration's costs to file.
func saveFixedCalibration(file string) error {
	cal := calibrate.Calibration{Samples: 5, Costs: sim.Costs{Switch: 200, Wake: 20 * time.Microsecond, SpinWake: 15 * time.Microsecond,
		SpinWindow: 30 * time.Microsecond, MutexHandoff: 300, ChanHandoff: time.Microsecond, BufChanHandoff: time.Microsecond, RunnextGrace: 60 * time.Microsecond}}
	return calibrate.Save(file, cal)
}

// TestConsistencyRecordedBounds reads outputs recorded with brewput before
// every number past a bound said why — issue 41's: parsteam on 1 and 2 CPUs
// under the go policy with steps on the clock (throughput 255 and a band to
// 503 over bounds of 250 and 500, p05 below the 4 ms least), a YAML system
// counting 334 in a window its oven bounds at 333.3 a second, Poisson
// arrivals served faster than their rate, and the cache study's prediction
// at 8.07M over 8.06M — and holds each number past its bound to a reason in
// its own JSON object and table row, as they are read, written and shown
// now.
func TestConsistencyRecordedBounds(t *testing.T) {
	t.Parallel()
	passing := 0
	for _, name := range []string{"parsteam-go.json", "bakery-fifo.json", "cafe-poisson-fifo.json", "cache-predict.json"} {
		f, err := os.Open(filepath.Join("testdata", "consistency", name))
		if err != nil {
			t.Fatal(err)
		}
		points, err := results.ReadJSON(f)
		f.Close()
		if err != nil || len(points) == 0 {
			t.Fatalf("%s: %d points, %v", name, len(points), err)
		}
		var js, table strings.Builder
		if err := results.WriteJSON(&js, points); err != nil {
			t.Fatal(err)
		}
		if err := text.WriteTable(&table, points); err != nil {
			t.Fatal(err)
		}
		// The JSON object of each point, as brewput writes it now.
		objects := strings.Split(strings.TrimSpace(js.String()), "\n")[1:]
		for i, p := range points {
			where := fmt.Sprintf("%s: %s on %d CPUs", name, p.Mode, p.CPUs)
			for _, miss := range unexplained(p) {
				t.Errorf("%s: %s", where, miss)
			}
			var obj struct {
				Trust struct {
					Above []map[string]string `json:"above"`
				} `json:"trust"`
			}
			if err := json.Unmarshal([]byte(objects[i]), &obj); err != nil {
				t.Fatal(err)
			}
			if len(obj.Trust.Above) != len(p.Above) {
				t.Errorf("%s: its JSON object holds %d reasons, the point %d", where, len(obj.Trust.Above), len(p.Above))
			}
			for j, a := range obj.Trust.Above {
				if a["bound"] == "" || a["why"] == "" || a["of"] == "" || j >= len(p.Above) ||
					p.Above[j] != (results.Above{Bound: a["bound"], Why: a["why"], Of: a["of"]}) {
					t.Errorf("%s: a reason in its JSON object says %v: want the bound, why and the number, as the point has them", where, a)
					continue
				}
				said := text.AboveText(p, p.Above[j])
				if !slices.ContainsFunc(tableRows(table.String()), func(row string) bool {
					return strings.Contains(row, " "+p.Mode+" ") && strings.Contains(row, said)
				}) {
					t.Errorf("%s: no row of the table holds %q:\n%s", where, said, table.String())
				}
			}
			passing += len(p.Above)
		}
	}
	// The recordings hold numbers past their bounds: a test that found
	// none would hold nothing.
	if passing < 8 {
		t.Errorf("%d numbers past a bound in the recordings, want at least 8", passing)
	}
}

// TestConsistencyRecordedBusyCalibration: a calibration recorded beside two
// busy loops (other processes used 1.99 CPUs; kept with --force by an
// older brewput, so carrying no quiet one) is set aside wherever it is
// given, and that said — the answer's line on the costs, the table's
// caption, each point's JSON, advise's, the report's answer — and,
// measured so where none is kept, is not saved as the default. Points
// recorded with it by a brewput that used it still say it is not to be
// trusted.
func TestConsistencyRecordedBusyCalibration(t *testing.T) {
	config := emptyConfig(t)
	file := filepath.Join("testdata", "consistency", "busy-calibration.json")
	aside := "set aside: the calibration kept with --force from a busy machine (other processes used 1.99 CPUs), no quiet one being kept"
	costs := "Runtime costs: " + calibrate.ReferenceHost + "'s; this machine's were measured busy."
	answer, _ := runModel(t, "--modes", "finelocking", "--cpus", "2", "--dur", "100ms", "--calibration", file)
	if n := strings.Count(oneLine(answer), costs); n != 1 {
		t.Errorf("the answer says %q %d times, want once:\n%s", costs, n, answer)
	}
	stdout, _ := runModel(t, "--modes", "finelocking", "--cpus", "2", "--dur", "100ms", "--calibration", file, "--format", "table")
	// The caption is a sentence wrapped to the terminal, its further
	// lines indented, and says the costs once (no footer repeats them).
	if caption := captionOf(stdout); !strings.Contains(caption, aside) {
		t.Errorf("the table's caption %q does not say %q", caption, aside)
	}
	if n := strings.Count(oneLine(stdout), "wakes a sleeping goroutine"); n != 1 {
		t.Errorf("the costs said %d times, want once:\n%s", n, stdout)
	}
	points := modelPoints(t, "--modes", "finelocking", "--cpus", "2", "--dur", "100ms", "--calibration", file)
	for _, p := range points {
		if c := p.Calibration; c == nil || c.SetAside == nil || !c.SetAside.Forced || c.Busy() || !strings.Contains(text.CalibrationFor(*c), aside) {
			t.Errorf("%s on %d CPUs: calibration %+v, want the reference's, the forced one set aside", p.Mode, p.CPUs, p.Calibration)
		}
	}
	advice, _ := succeeds(t, noChild(), "advise", "--mode", "finelocking", "--cpus", "2", "--dur", "100ms", "--calibration", file)
	if answer, _, _ := strings.Cut(advice, "\n\n"); strings.Count(oneLine(answer), costs) != 1 {
		t.Errorf("advise's answer %q does not say %q, once", answer, costs)
	}
	// The report of those points: its answer says it.
	out := filepath.Join(t.TempDir(), "busy.json")
	succeeds(t, noChild(), "model", "--modes", "finelocking", "--cpus", "1,2", "--dur", "100ms", "--calibration", file, "--out", out)
	if report, _ := succeeds(t, noChild(), "report", out, "--out", t.TempDir()); strings.Count(oneLine(report), costs) != 1 {
		t.Errorf("brewput report's answer does not say %q, once:\n%s", costs, report)
	}
	// Points an older brewput predicted with the busy costs themselves
	// still say they are not to be trusted.
	cal, err := calibrate.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	old := cal.Ref()
	busy := "on a busy machine (other processes used 1.99 CPUs): not to be trusted, kept with --force"
	if !old.Busy() || !strings.Contains(text.CalibrationFor(old), busy) {
		t.Errorf("recorded with the busy costs, it says %q; want %q", text.CalibrationFor(old), busy)
	}
	// The same costs as a first run measures them where none is kept: not
	// kept, set aside, and said so.
	cal.Forced = false
	measure := func(context.Context, func(results.CalibrationEvent)) (calibrate.Calibration, error) { return cal, nil }
	stdout, stderr := withMeasurement(t, measure, "model", "--modes", "finelocking", "--cpus", "2", "--dur", "100ms", "--format", "table")
	if first := captionOf(stdout); !strings.Contains(first, "set aside: the calibration measured for this run on a busy machine (other processes used 1.99 CPUs)") {
		t.Errorf("the caption %q does not say the costs measured on a busy machine were set aside", first)
	}
	if !strings.Contains(stderr, "not kept") {
		t.Errorf("stderr does not say the calibration was not kept:\n%s", stderr)
	}
	assertEmptyDir(t, config, "the calibration was measured on a busy machine")
}

func captionOf(stdout string) string {
	caption, _, _ := strings.Cut(stdout, "\n  mode ")
	return strings.ReplaceAll(caption, "\n  ", " ")
}

// tableRows are a table's lines, a row's note lines (under it, indented
// past its columns) joined to it.
func tableRows(table string) []string {
	var rows []string
	for _, line := range strings.Split(table, "\n") {
		if strings.HasPrefix(line, "      ") && len(rows) > 0 {
			rows[len(rows)-1] += " " + strings.TrimSpace(line)
			continue
		}
		rows = append(rows, line)
	}
	return rows
}
