package blueprint

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/brewput/brewput/internal/base/format"

	"gopkg.in/yaml.v3"
)

// This file holds the parser's YAML plumbing.

// maxItems bounds the items a file may expand to (a "billion laughs").
const maxItems = 100_000

// parser reads one file into b.
type parser struct {
	file  string
	data  []byte
	b     *Blueprint
	open  map[*yaml.Node]int // how deep each node is being read, to catch an alias inside what it names
	items int                // items read so far, aliases expanded

	res      map[string]int         // resource index by name
	used     []bool                 // by resource index: whether a step or group names it
	machines map[string]machineDecl // each resource and stage, whose names are the result's machines
}

// machineDecl is where a resource or stage is declared.
type machineDecl struct {
	kind string // "resource" or "stage"
	line int
}

// fail returns an error at n's line, after what (`step "grind"`).
func (p *parser) fail(n *yaml.Node, what, format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	if what != "" {
		err = fmt.Errorf("%s: %w", what, err)
	}
	return &Error{File: p.file, Line: n.Line, Err: err}
}

// yamlLine picks the line out of yaml.v3's syntax errors.
var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// syntaxError turns a yaml.v3 error into an *Error with its line.
func (p *parser) syntaxError(err error) error {
	msg := err.Error()
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &Error{File: p.file, Line: line, Err: errors.New("not valid YAML: " + m[2])}
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	// yaml.v3 gives no line for an unknown anchor: find where it is used.
	line := 0
	if m := unknownAnchor.FindStringSubmatch(msg); m != nil {
		use := regexp.MustCompile(`\*` + regexp.QuoteMeta(m[1]) + `\b`)
		if loc := use.FindIndex(p.data); loc != nil {
			line = 1 + bytes.Count(p.data[:loc[0]], []byte("\n"))
		}
	}
	return &Error{File: p.file, Line: line, Err: errors.New("not valid YAML: " + msg)}
}

// unknownAnchor matches yaml.v3's error for an alias to no anchor.
var unknownAnchor = regexp.MustCompile(`^unknown anchor '(.*)' referenced$`)

// deref follows an alias, refusing one to a node being read (a cycle).
func (p *parser) deref(n *yaml.Node) (*yaml.Node, error) {
	if n.Kind != yaml.AliasNode {
		return n, nil
	}
	if p.open[n.Alias] > 0 {
		return nil, p.fail(n, "", "alias *%s is inside the node &%s it names: a cycle, which would never end", n.Value, n.Value)
	}
	return n.Alias, nil
}

// enter marks n as being read, for deref; leave unmarks it.
func (p *parser) enter(n *yaml.Node) { p.open[n]++ }
func (p *parser) leave(n *yaml.Node) { p.open[n]-- }

// describe names what a node is, for "got ..." in errors.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		switch len(n.Content) {
		case 0:
			return "an empty list"
		case 1:
			return "a list of one"
		}
		return "a list"
	case yaml.ScalarNode:
		if n.ShortTag() == "!!null" {
			return "nothing"
		}
		return strconv.Quote(n.Value)
	}
	return "an alias"
}

// field is one key of a mapping and its value.
type field struct{ key, val *yaml.Node }

// fields are a mapping's keys, with merge keys (<<: *base) expanded.
type fields struct {
	node  *yaml.Node // the mapping, whose line errors about missing keys name
	what  string
	list  []field // in file order, then the merged ones
	byKey map[string]field
}

// mapping reads n as a mapping (want otherwise); see only for its keys.
func (p *parser) mapping(n *yaml.Node, what, want string) (*fields, error) {
	n, err := p.deref(n)
	if err != nil {
		return nil, err
	}
	if n.Kind != yaml.MappingNode {
		return nil, p.fail(n, what, "want %s; got %s", want, describe(n))
	}
	f := &fields{node: n, what: what, byKey: map[string]field{}}
	return f, p.collect(f, n, true)
}

// collect adds n's keys to f, the earlier merge winning.
func (p *parser) collect(f *fields, n *yaml.Node, explicit bool) error {
	p.enter(n)
	defer p.leave(n)
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, err := p.deref(n.Content[i])
		if err != nil {
			return err
		}
		if k.Kind != yaml.ScalarNode {
			return p.fail(k, f.what, "want a name as a key; got %s", describe(k))
		}
		if k.ShortTag() == "!!merge" {
			merges = append(merges, n.Content[i+1])
			continue
		}
		if prev, ok := f.byKey[k.Value]; ok {
			if explicit {
				return p.fail(k, f.what, "%s given twice: first at line %d", k.Value, prev.key.Line)
			}
			continue
		}
		fl := field{key: k, val: n.Content[i+1]}
		f.byKey[k.Value] = fl
		f.list = append(f.list, fl)
	}
	for _, m := range merges {
		m, err := p.deref(m)
		if err != nil {
			return err
		}
		targets := []*yaml.Node{m}
		if m.Kind == yaml.SequenceNode {
			targets = m.Content
		}
		for _, t := range targets {
			t, err := p.deref(t)
			if err != nil {
				return err
			}
			if t.Kind != yaml.MappingNode {
				return p.fail(t, f.what, "<< merges a mapping or a list of mappings; got %s", describe(t))
			}
			if err := p.collect(f, t, false); err != nil {
				return err
			}
		}
	}
	return nil
}

// only checks that every key of f is allowed (known, else unknown).
func (p *parser) only(f *fields, allowed []string, noun string, known []string) error {
	for _, fl := range f.list {
		k := fl.key.Value
		if slices.Contains(allowed, k) {
			continue
		}
		if slices.Contains(known, k) {
			return p.fail(fl.key, f.what, "%s does not apply to %s: want %s", k, noun, strings.Join(allowed, ", "))
		}
		return suggest(p.fail(fl.key, f.what, "unknown key %q: want %s", k, strings.Join(allowed, ", ")), k, allowed)
	}
	return nil
}

func (f *fields) get(key string) (*yaml.Node, bool) {
	fl, ok := f.byKey[key]
	return fl.val, ok
}

// need returns the value of key, or an error that it is missing.
func (p *parser) need(f *fields, key, want string) (*yaml.Node, error) {
	if v, ok := f.get(key); ok {
		return v, nil
	}
	return nil, p.fail(f.node, f.what, "missing %s: want %s", key, want)
}

// suggest is err, an *Error, with " (did you mean X?)" after it where
// word is a likely typo of a candidate X.
func suggest(err error, word string, candidates []string) error {
	best, bestD := "", 3
	for _, c := range candidates {
		if d := format.EditDistance(strings.ToLower(word), strings.ToLower(c)); d < bestD && d < max(len(c), 2) {
			best, bestD = c, d
		}
	}
	var e *Error
	if best == "" || !errors.As(err, &e) {
		return err
	}
	e.Err = fmt.Errorf("%w (did you mean %s?)", e.Err, best)
	return e
}

// scalar returns key's value n as a scalar (want otherwise).
func (p *parser) scalar(n *yaml.Node, what, key, want string) (*yaml.Node, error) {
	n, err := p.deref(n)
	if err != nil {
		return nil, err
	}
	if n.Kind != yaml.ScalarNode || n.ShortTag() == "!!null" {
		return nil, p.fail(n, what, "%s: want %s; got %s", key, want, describe(n))
	}
	return n, nil
}

// choice reads key's value n, a scalar among values (bad says what else
// it may be told to want).
func (p *parser) choice(n *yaml.Node, what, key, want, bad string, values ...string) (*yaml.Node, error) {
	s, err := p.scalar(n, what, key, want)
	if err == nil && !slices.Contains(values, s.Value) {
		err = p.fail(s, what, "%s %q: want %s", key, s.Value, bad)
	}
	return s, err
}

// text reads a non-empty string (a name, a description).
func (p *parser) text(n *yaml.Node, what, key, want string) (string, error) {
	s, err := p.scalar(n, what, key, want)
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(s.Value) == "" {
		return "", p.fail(s, what, "%s is empty: want %s", key, want)
	}
	return s.Value, nil
}

// decode reads key's value n as a scalar tagged one of tags that ok
// accepts (want otherwise).
func decode[T any](p *parser, n *yaml.Node, what, key, want string, ok func(T) bool, tags ...string) (T, error) {
	var v, zero T
	s, err := p.scalar(n, what, key, want)
	if err != nil {
		return zero, err
	}
	if !slices.Contains(tags, s.ShortTag()) || s.Decode(&v) != nil || !ok(v) {
		return zero, p.fail(s, what, "%s %s: want %s", key, s.Value, want)
	}
	return v, nil
}

// whole reads a whole number of at least least.
func (p *parser) whole(n *yaml.Node, what, key string, least int, want string) (int, error) {
	return decode(p, n, what, key, "a whole number, "+want, func(v int) bool { return v >= least }, "!!int")
}

// wantDuration is what a duration may be, for its errors.
const wantDuration = "a Go duration such as 1ms, or {uniform: [1ms, 3ms]}, {exponential: 2ms}, {normal: {mean: 2ms, stddev: 0.5ms}}"

// duration reads a step's duration: a fixed Go duration or a distribution.
func (p *parser) duration(n *yaml.Node, what string) (dist, error) {
	n, err := p.deref(n)
	if err != nil {
		return nil, err
	}
	switch n.Kind {
	case yaml.ScalarNode:
		d, err := p.length(n, what, "duration")
		return fixed(d), err
	case yaml.MappingNode:
		if len(n.Content) == 2 {
			k, err := p.deref(n.Content[0])
			if err != nil {
				return nil, err
			}
			return p.distribution(k, n.Content[1], what)
		}
	}
	got := describe(n)
	if n.Kind == yaml.MappingNode { // name the keys: {} or two distributions at once
		var keys []string
		for i := 0; i < len(n.Content); i += 2 {
			keys = append(keys, n.Content[i].Value)
		}
		got = "{" + strings.Join(keys, ", ") + "}"
	}
	return nil, p.fail(n, what, "duration: want %s; got %s", wantDuration, got)
}

// length reads one non-negative Go duration.
func (p *parser) length(n *yaml.Node, what, key string) (time.Duration, error) {
	s, err := p.scalar(n, what, key, wantDuration)
	if err != nil {
		return 0, err
	}
	d, err := time.ParseDuration(s.Value)
	if err != nil {
		return 0, p.fail(s, what, "%s %q: want %s", key, s.Value, wantDuration)
	}
	d = nearestNanosecond(s.Value, d)
	if d < 0 {
		return 0, p.fail(s, what, "%s %s is negative: want 0 or more", key, s.Value)
	}
	return d, nil
}

// distribution reads {uniform: ...}, {exponential: ...} or {normal: ...}.
func (p *parser) distribution(k, v *yaml.Node, what string) (dist, error) {
	switch k.Value {
	case "uniform":
		v, err := p.deref(v)
		if err != nil {
			return nil, err
		}
		if v.Kind != yaml.SequenceNode || len(v.Content) != 2 {
			return nil, p.fail(v, what, "uniform %s: want [min, max] such as [1ms, 3ms]", describe(v))
		}
		lo, err := p.length(v.Content[0], what, "uniform min")
		if err != nil {
			return nil, err
		}
		hi, err := p.length(v.Content[1], what, "uniform max")
		if err != nil {
			return nil, err
		}
		if hi < lo {
			return nil, p.fail(v, what, "uniform [%v, %v]: want [min, max] with min ≤ max", lo, hi)
		}
		return uniform{lo: lo, hi: hi}, nil
	case "exponential":
		m, err := p.length(v, what, "exponential mean")
		return exponential{m: m}, err
	case "normal":
		f, err := p.mapping(v, what, "normal: {mean: 2ms, stddev: 0.5ms}")
		if err != nil {
			return nil, err
		}
		f.what = what
		if err := p.only(f, []string{"mean", "stddev"}, "", nil); err != nil {
			return nil, err
		}
		var d [2]time.Duration
		for i, key := range []string{"mean", "stddev"} {
			v, err := p.need(f, key, "normal: {mean: 2ms, stddev: 0.5ms}")
			if err != nil {
				return nil, err
			}
			if d[i], err = p.length(v, what, "normal "+key); err != nil {
				return nil, err
			}
		}
		return normal{m: d[0], sd: d[1]}, nil
	}
	return nil, p.fail(k, what, "duration {%s: ...}: want %s", k.Value, wantDuration)
}

// durationPart is one number and unit of a Go duration.
var durationPart = regexp.MustCompile(`([0-9]*\.?[0-9]+)(ns|us|µs|μs|ms|s|m|h)`)

// nanosecondsIn are the units' lengths, in nanoseconds.
var nanosecondsIn = map[string]float64{"ns": 1, "us": 1e3, "µs": 1e3, "μs": 1e3, "ms": 1e6, "s": 1e9, "m": 60e9, "h": 3600e9}

// nearestNanosecond is the duration s, which time.ParseDuration read as
// d, rounded to the nearest nanosecond where ParseDuration cut a
// fraction off: "7.6ns" is 8ns, not 7ns, a short step's length kept
// within half a nanosecond of what was written.
func nearestNanosecond(s string, d time.Duration) time.Duration {
	if !strings.Contains(s, ".") || d > 1<<50 || d < -1<<50 {
		return d // whole, or too long for a float to hold its nanoseconds
	}
	ns := 0.0
	for _, m := range durationPart.FindAllStringSubmatch(s, -1) {
		v, err := strconv.ParseFloat(m[1], 64)
		if err != nil {
			return d
		}
		ns += v * nanosecondsIn[m[2]]
	}
	if strings.HasPrefix(s, "-") {
		ns = -ns
	}
	r := time.Duration(math.Round(ns))
	if r-d > 1 || d-r > 1 {
		return d
	}
	return r
}
