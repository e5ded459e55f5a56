package infer

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/validation/internal/talk"
)

// Run is one measured run, and the configuration that simulates it.
type Run struct {
	Config     model.Config
	Throughput float64
	P50        time.Duration
	// Others is the CPUs other processes took from the talk's run, as its
	// ideal shows them (CPUs less ideal's util); 0 where not known.
	Others float64
}

// Point is one configuration measured once or more.
type Point struct {
	Name string // "locking on 2 CPUs, 2 customers"
	File string // the file it came from
	Runs []Run
	key  string
}

// CPUs is the point's CPU count.
func (p Point) CPUs() int { return p.Runs[0].Config.CPUs }

// Points are the measured points read, and what could not be used.
type Points struct {
	Files   []string
	Points  []Point
	Refused []string
	// Host is the machine every point names, where they all name one.
	Host results.Host
}

// Runs counts the runs of all the points.
func (ps Points) Runs() int {
	n := 0
	for _, p := range ps.Points {
		n += len(p.Runs)
	}
	return n
}

// CPUs are the points' CPU counts, fewest first.
func (ps Points) CPUs() []int {
	var out []int
	for _, p := range ps.Points {
		if !slices.Contains(out, p.CPUs()) {
			out = append(out, p.CPUs())
		}
	}
	slices.Sort(out)
	return out
}

// Select keeps the points on cpus, and says how many it left out.
func (ps *Points) Select(cpus []int) (left int) {
	if len(cpus) == 0 {
		return 0
	}
	kept := ps.Points[:0]
	for _, p := range ps.Points {
		if slices.Contains(cpus, p.CPUs()) {
			kept = append(kept, p)
		} else {
			left++
		}
	}
	ps.Points = kept
	return left
}

// talkHeader is how the talk simulator's CSV tables begin.
const talkHeader = "run,mode,par,maxprocs,"

// Read reads the measured points of results files or the talk's tables;
// a point it cannot use is Refused.
func Read(paths ...string) (Points, error) {
	var ps Points
	byKey := map[string]int{}
	var hosts []results.Host
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			return ps, err
		}
		var runs []keyedRun
		var refused []string
		if bytes.HasPrefix(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), []byte(talkHeader)) {
			runs, refused, err = readTalk(bytes.NewReader(data))
			hosts = append(hosts, results.Host{})
		} else {
			var f *results.File
			if f, err = results.Read(data); err == nil {
				runs, refused = fromResults(f.Points)
				for _, r := range runs {
					hosts = append(hosts, r.host)
				}
			}
		}
		if err != nil {
			return ps, fmt.Errorf("%s: %w", path, err)
		}
		ps.Files = append(ps.Files, path)
		for _, why := range refused {
			ps.Refused = append(ps.Refused, path+": "+why)
		}
		for _, r := range runs {
			i, ok := byKey[r.key]
			if !ok {
				i = len(ps.Points)
				byKey[r.key] = i
				ps.Points = append(ps.Points, Point{Name: name(r.Config), File: path, key: r.key})
			}
			ps.Points[i].Runs = append(ps.Points[i].Runs, r.Run)
		}
	}
	if len(hosts) > 0 && hosts[0].Name != "" && !slices.ContainsFunc(hosts, func(h results.Host) bool { return h.Name != hosts[0].Name }) {
		ps.Host = hosts[0]
	}
	return ps, nil
}

// keyedRun is a run with its point's key and its machine.
type keyedRun struct {
	Run
	key  string
	host results.Host
}

// name names a configuration for the points' list.
func name(c model.Config) string {
	s := fmt.Sprintf("%s on %s", c.Mode, format.Count(c.CPUs, "CPU"))
	customers := c.Resolve().Par
	if c.Rate > 0 {
		return s + fmt.Sprintf(", %g orders/s to %d servers", c.Rate, customers)
	}
	if c.Harness == "talk" {
		return s + fmt.Sprintf(", %d workers", customers)
	}
	return s + fmt.Sprintf(", %d customers", customers)
}

// key is what makes runs one configuration: everything but the window.
func key(c model.Config, steps bool) string {
	k := fmt.Sprintf("%v|%d|%d|%g|%d|%s|%s", c.Mode, c.CPUs, c.Par, c.Rate, c.MaxQ, c.Harness, c.Policy.Burn)
	if steps {
		st := c.Steps
		k += fmt.Sprintf("|%v|%v|%v|%v|%v", st.Grind, st.Press, st.Steam, st.Combine, st.Jitter)
	}
	return k
}

// fromResults turns measurements of the shop's modes into runs.
func fromResults(points []results.Point) (runs []keyedRun, refused []string) {
	for _, p := range points {
		what := fmt.Sprintf("%s on %d CPUs", p.Mode, p.CPUs)
		why := ""
		cfg, ok := model.ConfigOf(p)
		switch {
		case p.IsModel():
			why = "a prediction of the model, not a measurement"
		case !ok:
			why = "not a point of the shop's modes (a lab's, a study's, a benchmark's or a YAML system's): the model does not simulate it"
		case p.IsDisturbed():
			why = "other processes took CPU from it while it was measured"
		case p.Ops == 0 || !(p.Throughput > 0) || !(p.Latency.P50 > 0):
			why = "it measured nothing (no operations)"
		case p.Metrics[results.Errors] > 0:
			why = fmt.Sprintf("%.0f operations failed", p.Metrics[results.Errors])
		}
		if why == "" {
			cfg.Policy.Seed = 1
			if err := cfg.Validate(); err != nil {
				why = "the model cannot simulate it: " + err.Error()
			}
		}
		if why != "" {
			refused = append(refused, what+": "+why)
			continue
		}
		runs = append(runs, keyedRun{Run: Run{Config: cfg, Throughput: p.Throughput, P50: time.Duration(p.Latency.P50 * float64(time.Millisecond))}, key: key(cfg, true), host: p.Host})
	}
	return runs, refused
}

// readTalk reads a table of the talk simulator's runs, each under its
// harness and protocol with CPU-time steps: talk.Step of ideal in the same
// run where the table has it (its loop count was fixed, so its 1 ms steps
// ran as fast as the CPU did). Open-loop rows are refused.
func readTalk(r io.Reader) (runs []keyedRun, refused []string, err error) {
	recs, err := csv.NewReader(r).ReadAll()
	if err != nil {
		return nil, nil, err
	}
	col := map[string]int{}
	for i, name := range recs[0] {
		col[name] = i
	}
	for _, need := range []string{"run", "mode", "par", "maxprocs", "maxq", "dur", "interval", "ops", "thru", "p25", "p50", "p75"} {
		if _, ok := col[need]; !ok {
			return nil, nil, fmt.Errorf("the talk's table has no column %q", need)
		}
	}
	type row struct {
		line           int
		run, par, cpus int
		mode, what     string
		dur            time.Duration
		thru           float64
		p25, p50, p75  float64
		util           float64 // CPUs, where the table has it
		why            string
	}
	var rows []row
	for i, rec := range recs[1:] {
		line := i + 2
		r := row{line: line, mode: rec[col["mode"]]}
		bad := func(name string) { r.why = fmt.Sprintf("line %d: %s %q is not a number", line, name, rec[col[name]]) }
		num := func(name string) float64 {
			v, err := strconv.ParseFloat(rec[col[name]], 64)
			if err != nil && r.why == "" {
				bad(name)
			}
			return v
		}
		r.run, r.par, r.cpus = int(num("run")), int(num("par")), int(num("maxprocs"))
		r.thru, r.p25, r.p50, r.p75 = num("thru"), num("p25"), num("p50"), num("p75")
		if c, ok := col["util"]; ok && r.why == "" {
			var err error
			if r.util, err = talk.Util(rec[c]); err != nil {
				r.why = fmt.Sprintf("line %d: %v", line, err)
			}
		}
		maxq, ops := num("maxq"), num("ops")
		r.what = fmt.Sprintf("line %d (run %d, %s on %d CPUs, %d workers)", line, r.run, r.mode, r.cpus, r.par)
		d, derr := time.ParseDuration(rec[col["dur"]])
		interval, ierr := time.ParseDuration(rec[col["interval"]])
		r.dur = d
		switch {
		case r.why != "":
		case derr != nil || d <= 0:
			r.why = fmt.Sprintf("line %d: dur %q is not a positive duration", line, rec[col["dur"]])
		case ierr != nil || interval != 0 || maxq != 0:
			r.why = r.what + ": an open loop (interval, maxq): the talk's open loop is not brewput's"
		case r.cpus < 1 || r.par < 1:
			r.why = r.what + ": no CPUs or no workers"
		case ops == 0 || !(r.thru > 0) || !(r.p50 > 0):
			r.why = r.what + ": it measured nothing"
		case math.IsInf(r.thru, 1) || math.IsInf(r.p50, 1) || r.p50 < 1e-6 || r.cpus > results.MaxCPUs || r.par > 1e6:
			r.why = fmt.Sprintf("%s: thru %v, p50 %v ms: want a finite throughput, a median of a nanosecond or more, and at most %d CPUs and a million workers", r.what, r.thru, r.p50, results.MaxCPUs)
		}
		if r.why == "" {
			if _, err := coffee.ParseMode(r.mode); err != nil {
				r.why = r.what + ": " + err.Error()
			}
		}
		rows = append(rows, r)
	}
	ideal := map[[3]int]coffee.Steps{} // run, cpus, par
	others := map[[3]int]float64{}
	for _, r := range rows {
		if r.mode == "ideal" && r.why == "" {
			ideal[[3]int{r.run, r.cpus, r.par}] = talk.Step(r.p25, r.p50, r.p75)
			if r.util > 0 {
				others[[3]int{r.run, r.cpus, r.par}] = talk.Others(r.cpus, r.util)
			}
		}
	}
	for _, r := range rows {
		if r.why != "" {
			refused = append(refused, r.why)
			continue
		}
		steps, ok := ideal[[3]int{r.run, r.cpus, r.par}]
		if !ok {
			steps = coffee.DefaultSteps()
		}
		cfg := model.Config{Spec: results.Spec{Mode: r.mode, CPUs: r.cpus, Load: results.Load{Par: r.par, Harness: "talk", Dur: r.dur},
			Policy: results.Policy{Burn: "cpu", Seed: 1}}, Drain: true, Steps: steps}
		if err := cfg.Validate(); err != nil {
			refused = append(refused, r.what+": the model cannot simulate it: "+err.Error())
			continue
		}
		runs = append(runs, keyedRun{Run: Run{Config: cfg, Throughput: r.thru, P50: time.Duration(r.p50 * float64(time.Millisecond)),
			Others: others[[3]int{r.run, r.cpus, r.par}]}, key: "talk|" + key(cfg, false)})
	}
	return runs, refused, nil
}
