package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Schema 1 is the results format before points said their kind: flat
// objects whose kind shows in the fields set, costs in prose, and CSV
// whose header grew by eras (csvV1Eras). testdata/v1 holds samples.

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

// migrateV1 rewrites a schema 1 point's object, decoded with UseNumber,
// as schema 2's; a field it does not know stays where it was.
func migrateV1(o map[string]any) error {
	take := func(keys ...string) map[string]any {
		m := map[string]any{}
		for _, k := range keys {
			if v, ok := o[k]; ok {
				m[k] = v
				delete(o, k)
			}
		}
		return m
	}
	str := func(m map[string]any, k string) string { s, _ := m[k].(string); return s }
	kind := kindV1(str(o, "lab"), o["bench"] != nil, str(o, "study"))
	o["kind"] = kind.String()
	if pol := take("sched", "seed", "runtime", "burn", "background_cpus", "background_burst_ms"); len(pol) > 0 {
		o["policy"] = pol
	}
	trust := take("disturbed", "others_cpus", "steal_cpus", "attempts", "calibration")
	if cal, ok := trust["calibration"].(map[string]any); ok {
		costs, given, err := costsV1(str(cal, "costs"))
		if err != nil {
			return err
		}
		cal["costs"], cal["given"] = costs, given
	}
	o["trust"] = trust
	lab, study, shop := take("lab", "variant", "metrics"), take("study"), take("machines", "steps")
	if st, ok := shop["steps"].(map[string]any); ok {
		st["combine_ms"] = st["latte_ms"]
		delete(st, "latte_ms")
	}
	switch kind {
	case KindShop:
		o["shop"] = shop
	case KindLab:
		o["lab"] = map[string]any{"name": lab["lab"], "variant": lab["variant"], "metrics": lab["metrics"]}
	case KindStudy:
		o["study"] = map[string]any{"name": study["study"], "meters": shop["machines"]}
	}
	return nil
}

// decodeV1 is a schema 1 point, its trust assessed.
func decodeV1(data []byte) (Point, error) {
	var o map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&o); err != nil {
		return Point{}, err
	}
	if err := migrateV1(o); err != nil {
		return Point{}, err
	}
	migrateV2(o)
	data, err := json.Marshal(o)
	if err != nil {
		return Point{}, err
	}
	var p Point
	err = json.Unmarshal(data, &p)
	p.Assess()
	return p, err
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

// csvV1Eras are schema 1's CSV columns, by the era that added them.
func csvV1Eras() [][]string {
	legacy := []string{"source", "mode", "cpus", "cpuset", "par", "rate", "maxq", "dur_s", "warmup_s", "rep",
		"ops", "errors", "drops", "throughput", "unit", "cpu_used", "util"}
	for _, prefix := range []string{"latency_ms.", "service_ms."} {
		for _, k := range latencyKeys() {
			legacy = append(legacy, prefix+k)
		}
	}
	legacy = append(legacy, "machines",
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

// csvV1Headers are schema 1's CSV headers, the earliest first.
func csvV1Headers() [][]string {
	var hs [][]string
	var h []string
	for _, era := range csvV1Eras() {
		h = append(slices.Clip(h), era...)
		hs = append(hs, h)
	}
	return hs
}
