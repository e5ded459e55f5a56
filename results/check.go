package results

import (
	"fmt"
	"math"
	"reflect"
	"strings"
)

// UtilTolerance is how far above 1 a point's utilization may read (the CPU
// accounting's rounding) before it is impossible.
const UtilTolerance = 0.05

// CheckFinite reports the first number of p that is not finite, by its
// name in a results file: no file brewput writes holds one.
func (p Point) CheckFinite() error {
	path := nonFinite(reflect.ValueOf(p.wire()), "")
	for _, c := range Columns() {
		if v, _ := c.Value(p); path == "" && (math.IsNaN(v) || math.IsInf(v, 0)) {
			path = string(c.Key)
		}
	}
	if path != "" {
		return fmt.Errorf("%s: %s is not a finite number", p.label(), path)
	}
	return nil
}

// MaxCPUs is the most CPUs a point read from a file may have.
const MaxCPUs = 1 << 16

// CheckRead reports what makes p, read from a file, unreadable: a number
// not finite or below zero, or more than MaxCPUs CPUs. Impossible but
// readable points (as rounding in an older file may give) are Check's.
func (p Point) CheckRead() error { return p.check(false) }

// Check reports what makes p a point not to be saved: what CheckRead
// refuses, another kind's part, percentiles out of order, or more CPU than
// its CPUs give (but a lab's: its system calls' threads run beside them).
func (p Point) Check() error {
	if err := p.checkParts(); err != nil {
		return err
	}
	return p.check(true)
}

// check is CheckRead, or where impossible is set Check, its errors saying so.
func (p Point) check(impossible bool) error {
	if err := p.CheckFinite(); err != nil {
		return err
	}
	prefix := ""
	if impossible {
		prefix = "impossible: "
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%s: %s%s", p.label(), prefix, fmt.Sprintf(format, args...))
	}
	switch util := p.Metrics[Util]; {
	case p.CPUs > MaxCPUs:
		return bad("cpus %d: want 1 to %d", p.CPUs, MaxCPUs)
	case p.Par < 0 || p.Rate < 0 || p.MaxQ < 0 || p.Dur < 0 || p.Warmup < 0 || p.Rep < 0:
		return bad("par %d, rate %v, maxq %d, dur %v, warmup %v, rep %d: want none below zero", p.Par, p.Rate, p.MaxQ, p.Dur, p.Warmup, p.Rep)
	case impossible && p.Kind != KindLab && util > 1+UtilTolerance:
		return bad("utilization %.0f %% of the %d CPU(s) given", 100*util, p.CPUs)
	}
	for _, c := range Columns() {
		if v, _ := c.Value(p); v < 0 {
			return bad("%s %v below zero", c.Key, v)
		}
	}
	for _, l := range []struct {
		name string
		l    *Latency
	}{{"latency_ms", &p.Latency}, {"service_ms", p.Service}} {
		if l.l == nil {
			continue
		}
		v, keys := l.l.fields(), latencyKeys()
		for i, key := range keys {
			switch {
			case *v[i] < 0:
				return bad("%s.%s %v below zero", l.name, key, *v[i])
			case impossible && i > 0 && i < 9 && *v[i] < *v[i-1]: // min … max in order; the mean apart
				return bad("%s.%s %v below %s %v", l.name, key, *v[i], keys[i-1], *v[i-1])
			}
		}
	}
	return nil
}

// label names p for an error: "finelocking cpus=2", with its round.
func (p Point) label() string {
	s := fmt.Sprintf("%s cpus=%d", p.Mode, p.CPUs)
	if p.Rep > 0 {
		s += fmt.Sprintf(" rep %d", p.Rep)
	}
	return s
}

// nonFinite returns the JSON path of v's first float that is not finite.
func nonFinite(v reflect.Value, path string) string {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		if f := v.Float(); math.IsNaN(f) || math.IsInf(f, 0) {
			return path
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return nonFinite(v.Elem(), path)
		}
	case reflect.Struct:
		t := v.Type()
		for i := range v.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			name := path
			if !f.Anonymous {
				name = join(path, jsonName(f))
			}
			if bad := nonFinite(v.Field(i), name); bad != "" {
				return bad
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if bad := nonFinite(v.Index(i), fmt.Sprintf("%s[%d]", path, i)); bad != "" {
				return bad
			}
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			if bad := nonFinite(iter.Value(), join(path, fmt.Sprint(iter.Key()))); bad != "" {
				return bad
			}
		}
	}
	return ""
}

func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "" {
		return f.Name
	}
	return name
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
