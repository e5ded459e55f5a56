package results

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Schema 1 is the results format before points said their kind: a flat
// JSON object per point whose kind shows in the fields set (a lab's name,
// a Go benchmark's part, a study's name; else the shop), the calibration's
// costs in one line of prose, and CSV whose header grew by eras
// (csvV1Eras). Its files read into schema 2's points here; testdata/v1
// holds samples of each.

// pointV1 is a point as schema 1 wrote it.
type pointV1 struct {
	Source            string             `json:"source"`
	Lab               string             `json:"lab,omitempty"`
	Variant           string             `json:"variant,omitempty"`
	Metrics           map[Metric]float64 `json:"metrics,omitempty"`
	Mode              string             `json:"mode"`
	CPUs              int                `json:"cpus"`
	CPUSet            string             `json:"cpuset,omitempty"`
	Par               int                `json:"par"`
	Rate              float64            `json:"rate"`
	MaxQ              int                `json:"maxq"`
	DurS              float64            `json:"dur_s"`
	WarmupS           float64            `json:"warmup_s"`
	Rep               int                `json:"rep,omitempty"`
	Harness           string             `json:"harness,omitempty"`
	Sched             string             `json:"sched,omitempty"`
	Seed              uint64             `json:"seed,omitempty"`
	Runtime           string             `json:"runtime,omitempty"`
	Burn              string             `json:"burn,omitempty"`
	Band              *Band              `json:"band,omitempty"`
	Calibration       *calibrationV1     `json:"calibration,omitempty"`
	BackgroundCPUs    float64            `json:"background_cpus,omitempty"`
	BackgroundBurstMs float64            `json:"background_burst_ms,omitempty"`
	Ops               int64              `json:"ops"`
	Errors            int64              `json:"errors"`
	Drops             int64              `json:"drops"`
	Throughput        float64            `json:"throughput"`
	Unit              string             `json:"unit"`
	CPUUsed           float64            `json:"cpu_used"`
	Util              float64            `json:"util"`
	OthersCPUs        float64            `json:"others_cpus,omitempty"`
	StealCPUs         float64            `json:"steal_cpus,omitempty"`
	Disturbed         bool               `json:"disturbed,omitempty"`
	Attempts          int                `json:"attempts,omitempty"`
	Latency           Latency            `json:"latency_ms"`
	Service           *Latency           `json:"service_ms,omitempty"`
	Bounds            *Bounds            `json:"bounds,omitempty"`
	Bottleneck        *Bottleneck        `json:"bottleneck,omitempty"`
	Waits             []Wait             `json:"waits,omitempty"`
	Profile           string             `json:"profile,omitempty"`
	Bench             *Benchmark         `json:"bench,omitempty"`
	Study             string             `json:"study,omitempty"`
	Machines          []Machine          `json:"machines"`
	Steps             stepsV1            `json:"steps"`
	Host              Host               `json:"host"`
	Start             time.Time          `json:"start"`
	Hist              string             `json:"hist,omitempty"`
}

// stepsV1 are the shop's steps as schema 1 wrote them, the combine step
// as the latte's.
type stepsV1 struct {
	GrindMs  float64 `json:"grind_ms"`
	PressMs  float64 `json:"press_ms"`
	SteamMs  float64 `json:"steam_ms"`
	LatteMs  float64 `json:"latte_ms"`
	JitterMs float64 `json:"jitter_ms"`
	Clock    string  `json:"clock"`
}

// calibrationV1 is a Calibration whose costs are a line of prose.
type calibrationV1 struct {
	Host         string    `json:"host"`
	Date         time.Time `json:"date"`
	Others       float64   `json:"others_cpus"`
	Forced       bool      `json:"forced,omitempty"`
	Costs        string    `json:"costs"`
	InferredFrom []string  `json:"inferred_from,omitempty"`
	Points       int       `json:"points,omitempty"`
}

// kindV1 is the kind of a schema 1 point, from the fields it set.
func kindV1(lab string, bench bool, study string) Kind {
	switch {
	case lab != "":
		return KindLab
	case bench:
		return KindBench
	case study != "":
		return KindStudy
	}
	return KindShop
}

// migrateV1 reads a schema 1 point's JSON object.
func migrateV1(data []byte) (Point, error) {
	var v pointV1
	if err := json.Unmarshal(data, &v); err != nil {
		return Point{}, err
	}
	p := Point{Kind: kindV1(v.Lab, v.Bench != nil, v.Study), Source: v.Source,
		Spec: Spec{Mode: v.Mode, CPUs: v.CPUs,
			Load: Load{Par: v.Par, Rate: v.Rate, MaxQ: v.MaxQ, Warmup: FromSeconds(v.WarmupS), Dur: FromSeconds(v.DurS), Harness: v.Harness},
			Policy: Policy{Sched: v.Sched, Seed: v.Seed, Runtime: v.Runtime, Burn: v.Burn,
				Background: Background{CPUs: v.BackgroundCPUs, Burst: FromMs(v.BackgroundBurstMs)}}},
		Rep: v.Rep, CPUSet: v.CPUSet, Ops: v.Ops, Errors: v.Errors, Drops: v.Drops, Throughput: v.Throughput, Unit: v.Unit,
		CPUUsed: v.CPUUsed, Util: v.Util, Latency: v.Latency, Service: v.Service, Hist: v.Hist, Host: v.Host, Start: v.Start,
		Bounds: v.Bounds, Band: v.Band, Bottleneck: v.Bottleneck, Waits: v.Waits, Profile: v.Profile,
		Trust: Trust{Disturbed: v.Disturbed, OthersCPUs: v.OthersCPUs, StealCPUs: v.StealCPUs, Attempts: v.Attempts}}
	if c := v.Calibration; c != nil {
		costs, given, err := costsV1(c.Costs)
		if err != nil {
			return Point{}, err
		}
		p.Calibration = &Calibration{Host: c.Host, Date: c.Date, Others: c.Others, Forced: c.Forced, Costs: costs, Given: given,
			InferredFrom: c.InferredFrom, Points: c.Points}
	}
	s := v.Steps
	p.setPart(v.Machines, Steps{Grind: FromMs(s.GrindMs), Press: FromMs(s.PressMs), Steam: FromMs(s.SteamMs), Combine: FromMs(s.LatteMs), Jitter: FromMs(s.JitterMs), Clock: s.Clock},
		&Lab{Name: v.Lab, Variant: v.Variant, Metrics: v.Metrics}, v.Study, v.Bench)
	p.Assess()
	return p, nil
}

// setPart gives p the part of its kind, from the fields a flat point (of
// schema 1, or a CSV row) holds for every kind.
func (p *Point) setPart(machines []Machine, steps Steps, lab *Lab, study string, bench *Benchmark) {
	switch p.Kind {
	case KindShop:
		p.Shop = &Shop{Machines: machines, Steps: steps}
	case KindLab:
		p.Lab = lab
	case KindStudy:
		p.Study = &Study{Name: study, Meters: machines}
	case KindBench:
		p.Bench = bench
	}
}

// costsV1 reads the costs of a schema 1 calibration, "wake 84µs [80µs,
// 90µs], switch 145ns; given as flags: switch 145ns".
func costsV1(line string) ([]Cost, []string, error) {
	main, given, _ := strings.Cut(line, "; given as flags: ")
	var costs []Cost
	var flags []string
	bad := func(part string) error { return fmt.Errorf("calibration costs %q: %q is not a cost", line, part) }
	for _, e := range splitOutside(main) {
		head, interval := e, ""
		if i := strings.Index(e, " ["); i >= 0 && strings.HasSuffix(e, "]") {
			head, interval = e[:i], e[i+2:len(e)-1]
		}
		j := strings.LastIndexByte(head, ' ')
		if j < 1 {
			return nil, nil, bad(e)
		}
		c := Cost{Name: head[:j]}
		var err error
		if c.Median, err = time.ParseDuration(head[j+1:]); err != nil {
			return nil, nil, bad(e)
		}
		c.Lo, c.Hi = c.Median, c.Median
		if lo, hi, cut := strings.Cut(interval, ", "); cut || interval != "" {
			var e1, e2 error
			c.Lo, e1 = time.ParseDuration(lo)
			c.Hi, e2 = time.ParseDuration(hi)
			if e1 != nil || e2 != nil {
				return nil, nil, bad(e)
			}
		}
		costs = append(costs, c)
	}
	for _, g := range splitOutside(given) {
		j := strings.LastIndexByte(g, ' ')
		if j < 1 {
			return nil, nil, bad(g)
		}
		flags = append(flags, g[:j])
	}
	return costs, flags, nil
}

// splitOutside splits a list at ", " outside brackets.
func splitOutside(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ", ") {
		if n := len(out); n > 0 && strings.Count(out[n-1], "[") > strings.Count(out[n-1], "]") {
			out[n-1] += ", " + part
			continue
		}
		if part != "" {
			out = append(out, part)
		}
	}
	return out
}

// csvV1Eras are the columns of schema 1's CSV in the order versions added
// them: a file has the first eras, up to its version's.
func csvV1Eras() [][]string {
	legacy := []string{"source", "mode", "cpus", "cpuset", "par", "rate", "maxq", "dur_s", "warmup_s", "rep",
		"ops", "errors", "drops", "throughput", "unit", "cpu_used", "util"}
	legacy = append(append(append(legacy, latencyColumns("latency_ms")...), latencyColumns("service_ms")...), "machines",
		"steps.grind_ms", "steps.press_ms", "steps.steam_ms", "steps.latte_ms", "steps.jitter_ms", "steps.clock",
		"host.name", "host.cpu_model", "host.cores", "host.go_version", "host.os", "host.arch", "start")
	return [][]string{legacy,
		{"sched", "seed", "bounds.cpu", "bounds.structural", "bounds.throughput_max", "bounds.latency_min_ms", "bounds.resource", "bounds.limit", "bounds.little"},
		{"lab", "variant", "metrics"},
		{"harness", "runtime", "thr_lo", "thr_hi", "p50_lo", "p50_hi",
			"calibration.host", "calibration.date", "calibration.others_cpus", "calibration.forced", "calibration.costs"},
		{"study", "bench.name", "bench.pkg", "bench.iters", "bench.values"},
		{"others_cpus", "steal_cpus", "disturbed", "attempts"},
		{"calibration.inferred_from", "calibration.points"},
		{"bounds.arrived", "bounds.growth"},
	}
}

// csvV1Headers are the headers of schema 1's CSV, each era's, the
// earliest first.
func csvV1Headers() [][]string {
	var hs [][]string
	var h []string
	for _, era := range csvV1Eras() {
		h = append(slices.Clip(h), era...)
		hs = append(hs, h)
	}
	return hs
}

// csvV1Names are the names schema 2's CSV gives schema 1's columns.
func csvV1Names() map[string]string { return map[string]string{"steps.latte_ms": "steps.combine_ms"} }
