package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"time"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/internal/base/jsonout"
)

// Schema is the version of the results format this brewput writes:
// points that say their kind and nest its part.
const Schema = 3

// A line that is not a point names its record under recordKey: a results
// file's first line, {"brewput":"results","schema":3}, a journal's plan, or
// a variant a prediction left out (NotPredicted).
const (
	recordKey          = "brewput"
	resultsRecord      = "results"
	planRecord         = "plan"
	notPredictedRecord = "not_predicted"
)

// schemaLine is a results file's first line, or a journal's with its plan.
type schemaLine struct {
	Record string `json:"brewput"`
	Schema int    `json:"schema"`
	Plan   Plan   `json:"plan,omitzero"`
}

// pointJSON is a point as schema 3 writes it, but for its Columns.
type pointJSON struct {
	Kind       string      `json:"kind"`
	Source     string      `json:"source"`
	Mode       string      `json:"mode"`
	CPUs       int         `json:"cpus"`
	CPUSet     string      `json:"cpuset,omitempty"`
	Par        int         `json:"par"`
	Rate       float64     `json:"rate"`
	MaxQ       int         `json:"maxq"`
	DurS       float64     `json:"dur_s"`
	WarmupS    float64     `json:"warmup_s"`
	Rep        int         `json:"rep,omitempty"`
	Harness    string      `json:"harness,omitempty"`
	Policy     *policyJSON `json:"policy,omitempty"`
	Latency    Latency     `json:"latency_ms"`
	Service    *Latency    `json:"service_ms,omitempty"`
	Bounds     *Bounds     `json:"bounds,omitempty"`
	Band       *Band       `json:"band,omitempty"`
	Trust      Trust       `json:"trust"`
	Bottleneck *Bottleneck `json:"bottleneck,omitempty"`
	Waits      []Wait      `json:"waits,omitempty"`
	Profile    string      `json:"profile,omitempty"`
	Shop       *shopJSON   `json:"shop,omitempty"`
	Lab        *labJSON    `json:"lab,omitempty"`
	Study      *Study      `json:"study,omitempty"`
	Bench      *benchJSON  `json:"bench,omitempty"`
	Host       Host        `json:"host"`
	Start      time.Time   `json:"start"`
	Hist       string      `json:"hist,omitempty"`
}

// policyJSON is a prediction's Policy as a file holds it.
type policyJSON struct {
	Sched             string  `json:"sched"`
	Seed              uint64  `json:"seed,omitempty"`
	Burn              string  `json:"burn,omitempty"`
	BackgroundCPUs    float64 `json:"background_cpus,omitempty"`
	BackgroundBurstMs float64 `json:"background_burst_ms,omitempty"`
}

// shopJSON is a Shop as a file holds it, its steps in ms.
type shopJSON struct {
	Machines []Machine `json:"machines"`
	Steps    stepsJSON `json:"steps"`
}

type stepsJSON struct {
	GrindMs   float64 `json:"grind_ms"`
	PressMs   float64 `json:"press_ms"`
	SteamMs   float64 `json:"steam_ms"`
	CombineMs float64 `json:"combine_ms"`
	JitterMs  float64 `json:"jitter_ms"`
	Clock     string  `json:"clock"`
}

// labJSON is a Lab as a file holds it, with the point's own metrics.
type labJSON struct {
	Name    string             `json:"name"`
	Variant string             `json:"variant"`
	Metrics map[Metric]float64 `json:"metrics,omitempty"`
}

// benchJSON is a Benchmark as a file holds it, with the point's own metrics.
type benchJSON struct {
	Name    string       `json:"name"`
	Pkg     string       `json:"pkg,omitempty"`
	Iters   int64        `json:"iters"`
	Values  []benchValue `json:"values"`
	Locks   []Machine    `json:"locks,omitempty"`
	Watched bool         `json:"locks_watched,omitempty"`
	// A why experiment's run: see Benchmark.Stretch.
	Stretch   string  `json:"stretch,omitempty"`
	StretchNs float64 `json:"stretch_ns,omitempty"`
}

type benchValue struct {
	Value float64 `json:"value"`
	Unit  Metric  `json:"unit"`
}

// FromSeconds converts float seconds to the nearest duration.
func FromSeconds(s float64) time.Duration { return time.Duration(math.Round(s * float64(time.Second))) }

// wire is p as a file holds it.
func (p Point) wire() pointJSON {
	w := pointJSON{Kind: p.Kind.String(), Source: p.Source, Mode: p.Mode, CPUs: p.CPUs, CPUSet: p.CPUSet,
		Par: p.Par, Rate: p.Rate, MaxQ: p.MaxQ, DurS: p.Dur.Seconds(), WarmupS: p.Warmup.Seconds(), Rep: p.Rep, Harness: p.Harness,
		Latency: p.Latency, Service: p.Service, Bounds: p.Bounds, Band: p.Band, Trust: p.Trust, Bottleneck: p.Bottleneck,
		Waits: p.Waits, Profile: p.Profile, Study: p.Study, Host: p.Host, Start: p.Start, Hist: p.Hist}
	w.Trust.Disturbed = p.IsDisturbed() // as the text says it, whoever forgot to Assess
	if pol := p.Policy; pol != (Policy{}) {
		w.Policy = &policyJSON{pol.Sched, pol.Seed, pol.Burn, pol.Background.CPUs, Ms(pol.Background.Burst)}
	}
	if s := p.Shop; s != nil {
		st := s.Steps
		w.Shop = &shopJSON{s.Machines, stepsJSON{Ms(st.Grind), Ms(st.Press), Ms(st.Steam), Ms(st.Combine), Ms(st.Jitter), st.Clock}}
	}
	if l := p.Lab; l != nil {
		w.Lab = &labJSON{Name: l.Name, Variant: l.Variant}
		for _, m := range p.Own() {
			if w.Lab.Metrics == nil {
				w.Lab.Metrics = map[Metric]float64{}
			}
			w.Lab.Metrics[m] = p.Metrics[m]
		}
	}
	if b := p.Bench; b != nil {
		w.Bench = &benchJSON{Name: b.Name, Pkg: b.Pkg, Iters: b.Iters, Locks: b.Locks, Watched: b.Watched, Stretch: b.Stretch, StretchNs: b.StretchNs}
		for _, m := range p.Own() {
			w.Bench.Values = append(w.Bench.Values, benchValue{p.Metrics[m], m})
		}
	}
	return w
}

// point is the point w holds; a kind this version does not know is an error.
func (w pointJSON) point() (Point, error) {
	kind, ok := ParseKind(w.Kind)
	if !ok {
		return Point{}, fmt.Errorf("a point of kind %q, unknown to this version of brewput", w.Kind)
	}
	p := Point{Kind: kind, Source: w.Source, Spec: Spec{Mode: w.Mode, CPUs: w.CPUs,
		Load: Load{Par: w.Par, Rate: w.Rate, MaxQ: w.MaxQ, Warmup: FromSeconds(w.WarmupS), Dur: FromSeconds(w.DurS), Harness: w.Harness}},
		Rep: w.Rep, CPUSet: w.CPUSet, Latency: w.Latency, Service: w.Service, Hist: w.Hist, Host: w.Host, Start: w.Start,
		Bounds: w.Bounds, Band: w.Band, Bottleneck: w.Bottleneck, Waits: w.Waits, Profile: w.Profile, Trust: w.Trust, Study: w.Study}
	if pol := w.Policy; pol != nil {
		p.Policy = Policy{Sched: pol.Sched, Seed: pol.Seed, Burn: pol.Burn,
			Background: Background{CPUs: pol.BackgroundCPUs, Burst: FromMs(pol.BackgroundBurstMs)}}
	}
	if s := w.Shop; s != nil {
		st := s.Steps
		p.Shop = &Shop{Machines: s.Machines, Steps: Steps{Grind: FromMs(st.GrindMs), Press: FromMs(st.PressMs),
			Steam: FromMs(st.SteamMs), Combine: FromMs(st.CombineMs), Jitter: FromMs(st.JitterMs), Clock: st.Clock}}
	}
	if l := w.Lab; l != nil {
		p.Lab = &Lab{Name: l.Name, Variant: l.Variant}
		for m, v := range l.Metrics {
			p.Set(m, v)
		}
	}
	if b := w.Bench; b != nil {
		p.Bench = &Benchmark{Name: b.Name, Pkg: b.Pkg, Iters: b.Iters, Locks: b.Locks, Watched: b.Watched, Stretch: b.Stretch, StretchNs: b.StretchNs}
		for _, v := range b.Values {
			p.Set(v.Unit, v.Value)
		}
	}
	return p, p.checkParts()
}

// MarshalJSON writes p as schema 3 does, its Columns where they have
// always been, before the latencies; its other metrics in its lab's or Go
// benchmark's part (a shop's or a study's have no place in the file).
func (p Point) MarshalJSON() ([]byte, error) {
	rest, err := json.Marshal(p.wire())
	if err != nil {
		return nil, err
	}
	// In JSON a key's quote cannot follow a comma inside a string, where
	// it is escaped: this is the key.
	at := bytes.Index(rest, []byte(`,"latency_ms":`))
	out := slices.Clip(rest[:at])
	for _, c := range Columns() {
		v := c.ref(&p)
		if _, ok := v.(metricOf); ok {
			if v, ok = c.Value(p); !ok {
				continue
			}
		}
		value, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		out = fmt.Appendf(out, ",%q:%s", c.Key, value)
	}
	return append(out, rest[at:]...), nil
}

// UnmarshalJSON reads a point as MarshalJSON writes it.
func (p *Point) UnmarshalJSON(data []byte) error {
	var w pointJSON
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	point, err := w.point()
	if *p = point; err != nil {
		return err
	}
	var obj map[string]json.RawMessage
	json.Unmarshal(data, &obj) // an object, as w's found it
	for _, c := range Columns() {
		raw, ok := obj[string(c.Key)]
		if !ok {
			continue
		}
		var v float64
		ptr := any(&v)
		if c.field != nil {
			ptr = c.field(p)
		}
		if err := json.Unmarshal(raw, ptr); err != nil {
			return fmt.Errorf("%s: %w", c.Key, err)
		}
		if c.field == nil {
			p.Set(c.Key, v)
		}
	}
	return nil
}

// WriteJSON writes points as JSON Lines: the schema's line, then one object
// per point. A point with a number that is not finite is refused, naming it.
func WriteJSON(w io.Writer, points []Point) error {
	if err := json.NewEncoder(w).Encode(schemaLine{Record: resultsRecord, Schema: Schema}); err != nil {
		return err
	}
	return AppendJSON(w, points)
}

// AppendJSON writes points as WriteJSON does, without the schema's line:
// to a stream that has it already, as points come.
func AppendJSON(w io.Writer, points []Point) error {
	enc := json.NewEncoder(w)
	for _, p := range points {
		if err := p.CheckFinite(); err != nil {
			return err
		}
		if err := enc.Encode(p); err != nil {
			return err
		}
	}
	return nil
}

// ReadJSON reads JSON Lines, as Read does, and gives their points.
func ReadJSON(r io.Reader) ([]Point, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	f := &File{}
	if err := f.readJSON(bytes.TrimPrefix(data, []byte(bom))); err != nil {
		return nil, err
	}
	return f.Points, nil
}

// ScanLines calls fn with each line of r that is not blank, trimmed, and
// its number, until fn is done or fails; a line may be most bytes long.
func ScanLines(r io.Reader, most int, fn func(n int, line []byte) (done bool, err error)) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), most)
	n := 1
	for ; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if done, err := fn(n, line); done || err != nil {
			return err
		}
	}
	if errors.Is(sc.Err(), bufio.ErrTooLong) {
		return fmt.Errorf("line %d: longer than the %s a line may be", n, format.Bytes(float64(most)))
	}
	return sc.Err()
}

// MarshalNulls is the JSON of v, a struct of exported fields, with each
// float64 field that is not finite null (left out where omitempty), and
// HTML characters as they are. An UnmarshalJSON reads null back by
// presetting those fields, which json.Unmarshal leaves where it has null.
func MarshalNulls(v any) ([]byte, error) {
	rv := reflect.ValueOf(v)
	var fields []reflect.StructField
	for i := range rv.NumField() {
		f := rv.Type().Field(i)
		if f.Type.Kind() == reflect.Float64 {
			f.Type = reflect.PointerTo(f.Type)
		}
		fields = append(fields, f)
	}
	out := reflect.New(reflect.StructOf(fields)).Elem()
	for i, f := range fields {
		x := rv.Field(i)
		switch {
		case f.Type == x.Type():
			out.Field(i).Set(x)
		case !math.IsNaN(x.Float()) && !math.IsInf(x.Float(), 0):
			out.Field(i).Set(reflect.New(x.Type()))
			out.Field(i).Elem().Set(x)
		}
	}
	return jsonout.Marshal(out.Interface())
}
