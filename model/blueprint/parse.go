package blueprint

import (
	"bytes"
	"cmp"
	"errors"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/brewput/brewput/internal/base/collect"
	"gopkg.in/yaml.v3"
)

// The keys each part of a file may have.
var (
	topKeys      = []string{"name", "description", "unit", "clock", "resources", "load", "steps"}
	loadKeys     = []string{"customers", "rate", "servers", "queue", "arrivals"}
	stepKeys     = []string{"name", "duration", "holds", "shares", "reads", "writes", "every", "cpu"}
	groupKeys    = []string{"name", "steps", "holds", "shares", "every"}
	parallelKeys = []string{"name", "parallel"}
	pipelineKeys = []string{"name", "pipeline", "buffer", "lines", "wait"}
	stageKeys    = []string{"name", "duration", "steps", "holds", "shares", "reads", "writes", "cpu", "workers", "buffer"}
	itemKeys     = []string{"name", "duration", "steps", "holds", "shares", "reads", "writes", "every", "cpu", "parallel", "pipeline", "buffer", "lines", "wait", "workers"}
)

// wantItem is what an item of a list of steps may be.
const wantItem = "a step such as {name: grind, duration: 1ms}, a group {steps: [...]}, a parallel {parallel: [...]} or a pipeline {pipeline: [...]}"

func (p *parser) parse(data []byte) error {
	p.data = data
	p.open = map[*yaml.Node]int{}
	p.res = map[string]int{}
	p.machines = map[string]machineDecl{}

	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return &Error{File: p.file, Line: 1, Err: errors.New("empty: want a blueprint, a mapping with at least steps:")}
		}
		return p.syntaxError(err)
	}
	var more yaml.Node
	switch err := dec.Decode(&more); {
	case err == nil:
		if len(more.Content) > 0 && more.Content[0].ShortTag() != "!!null" {
			return p.fail(more.Content[0], "", "a second YAML document: want one blueprint per file")
		}
	case !errors.Is(err, io.EOF):
		return p.syntaxError(err)
	}
	root := doc.Content[0]
	if isNull(root) {
		return p.fail(root, "", "empty: want a blueprint, a mapping with at least steps:")
	}
	f, err := p.mapping(root, "", "a blueprint, a mapping of "+strings.Join(topKeys, ", "))
	if err != nil {
		return err
	}
	// Keys beginning with x- are ignored: a place for anchors.
	f.list = slices.DeleteFunc(f.list, func(fl field) bool { return strings.HasPrefix(fl.key.Value, "x-") })
	if err := p.only(f, topKeys, "", nil); err != nil {
		return err
	}
	b := p.b
	for _, t := range []struct {
		key  string
		to   *string
		want string
	}{
		{"name", &b.Name, "a name for the blueprint"},
		{"description", &b.Description, "a description of the system"},
		{"unit", &b.Unit, "what an order is called, plural, such as lattes"},
	} {
		if v, ok := f.get(t.key); ok {
			if *t.to, err = p.text(v, "", t.key, t.want); err != nil {
				return err
			}
		}
	}
	if v, ok := f.get("clock"); ok {
		s, err := p.choice(v, "", "clock", "wall or cpu", "wall (steps end on the clock) or cpu (steps burn that much CPU time), or no clock for work", "wall", "cpu")
		if err != nil {
			return err
		}
		b.Clock = s.Value
	}
	// Resources first, wherever they are in the file: steps refer to them.
	if v, ok := f.get("resources"); ok && !isNull(v) {
		if err := p.resources(v); err != nil {
			return err
		}
	}
	p.used = make([]bool, len(b.Resources))
	if v, ok := f.get("load"); ok && !isNull(v) {
		if err := p.load(v); err != nil {
			return err
		}
	}
	v, err := p.need(f, "steps", "the steps of one order, a list such as [{name: grind, duration: 1ms}]")
	if err != nil {
		return err
	}
	items, err := p.list(v, "", "steps")
	if err != nil {
		return err
	}
	b.nres = len(b.Resources)
	for r, used := range p.used {
		if used {
			b.used = append(b.used, r)
		}
	}
	b.flow = &group{items: items}
	if len(b.Steps()) == 0 { // it lists the steps that take time
		return p.fail(f.byKey["steps"].key, "", "every step takes no time: an order would take none, and the simulation could not advance; want a step with a duration above 0")
	}
	return p.checkOrder(b.flow)
}

// isNull reports whether n is YAML's null: a key given no value.
func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" }

// resources reads name: capacity pairs (units, or {locks: N}).
func (p *parser) resources(v *yaml.Node) error {
	f, err := p.mapping(v, "resources", "a mapping of names to capacities, such as {espresso: 1, barista: 2}")
	if err != nil {
		return err
	}
	for _, fl := range f.list {
		name := fl.key.Value
		what := "resource " + strconv.Quote(name)
		if strings.TrimSpace(name) == "" {
			return p.fail(fl.key, "resources", "an empty name: want a name such as espresso")
		}
		r := Resource{Name: name, Line: fl.key.Line}
		val, err := p.deref(fl.val)
		if err != nil {
			return err
		}
		if val.Kind == yaml.MappingNode {
			if err := p.resourceKind(val, what, &r); err != nil {
				return err
			}
		} else if r.Capacity, err = p.whole(fl.val, what, "capacity", 1, "1 or more"); err != nil {
			return err
		}
		p.res[name] = len(p.b.Resources)
		p.machines[name] = machineDecl{"resource", fl.key.Line}
		p.b.Resources = append(p.b.Resources, r)
	}
	return nil
}

// wantResource is what a resource's value may be.
const wantResource = "a capacity, such as 2, or a mapping such as {locks: 16}, {kind: rwmutex}, {kind: rwmutex, locks: 16} or {kind: mutex, per: cpu}"

// resourceKind reads a resource given as a mapping: {locks: N}, {kind: K},
// {per: cpu|customer} and, with per: cpu, {hashed: true}.
func (p *parser) resourceKind(val *yaml.Node, what string, r *Resource) error {
	lf, err := p.mapping(val, what, wantResource)
	if err != nil {
		return err
	}
	if err := p.only(lf, []string{"locks", "kind", "per", "hashed"}, what, nil); err != nil {
		return err
	}
	r.Capacity, r.Kind = 1, Mutex
	if v, ok := lf.get("kind"); ok {
		s, err := p.scalar(v, what, "kind", "mutex, rwmutex, runtime or word")
		if err != nil {
			return err
		}
		switch s.Value {
		case Mutex, RWMutex, Runtime, Word:
			r.Kind = s.Value
		case "atomic":
			r.Kind = Word
		default:
			return suggest(p.fail(s, what, "kind %q: want mutex, rwmutex, runtime or word (atomic)", s.Value), s.Value, []string{Mutex, RWMutex, Runtime, Word, "atomic"})
		}
	}
	if v, ok := lf.get("locks"); ok {
		if r.Kind != Mutex && r.Kind != RWMutex {
			return p.fail(v, what, "locks with kind %s: want {locks: N}, N mutexes, or {kind: rwmutex, locks: N}", r.Kind)
		}
		if r.Capacity, err = p.whole(v, what, "locks", 1, "1 or more"); err != nil {
			return err
		}
		r.Locks = true
	}
	if v, ok := lf.get("per"); ok {
		s, err := p.choice(v, what, "per", "cpu or customer", "cpu or customer", PerCPU, PerCustomer)
		if err != nil {
			return err
		}
		if r.Locks {
			return p.fail(s, what, "per with locks: want one or the other")
		}
		r.Per = s.Value
	}
	if v, ok := lf.get("hashed"); ok {
		if r.Hashed, err = decode(p, v, what, "hashed", "true or false", func(bool) bool { return true }, "!!bool"); err != nil {
			return err
		}
		if r.Hashed && r.Per != PerCPU {
			return p.fail(v, what, "hashed without per: cpu: want {per: cpu, hashed: true}, each CPU's drawn at random")
		}
	}
	return nil
}

func (p *parser) load(v *yaml.Node) error {
	f, err := p.mapping(v, "load", "a mapping such as {customers: 4} or {rate: 800}")
	if err != nil {
		return err
	}
	if err := p.only(f, loadKeys, "", nil); err != nil {
		return err
	}
	l := &p.b.Load
	c, closed := f.get("customers")
	r, open := f.get("rate")
	switch {
	case closed && open:
		return p.fail(r, "load", "customers and rate: want customers (a closed loop) or rate (an open loop), not both")
	case closed:
		if l.Customers, err = p.whole(c, "load", "customers", 1, "1 or more (leave it out for one per CPU)"); err != nil {
			return err
		}
	case open:
		positive := func(v float64) bool { return v > 0 && !math.IsInf(v, 0) }
		if l.Rate, err = decode(p, r, "load", "rate", "a positive number of orders per second, such as 800", positive, "!!int", "!!float"); err != nil {
			return err
		}
	}
	if !closed { // a closed loop's open-loop keys are refused unread
		if v, ok := f.get("servers"); ok {
			if l.Servers, err = p.whole(v, "load", "servers", 1, "1 or more (leave it out for one per CPU)"); err != nil {
				return err
			}
		}
		if v, ok := f.get("queue"); ok {
			if l.Queue, err = p.whole(v, "load", "queue", 0, "0 or more"); err != nil {
				return err
			}
		}
		if v, ok := f.get("arrivals"); ok {
			s, err := p.choice(v, "load", "arrivals", "even or poisson", "even or poisson", Even, Poisson)
			if err != nil {
				return err
			}
			l.Arrivals = s.Value
		}
	}
	for _, k := range []string{"servers", "queue", "arrivals"} {
		if fl, ok := f.byKey[k]; ok && !open {
			return p.fail(fl.key, "load", "%s applies to an open loop: want rate: with it%s", k, map[bool]string{true: ", not customers:"}[closed])
		}
	}
	return nil
}

// list reads a list of items; key names it in errors.
func (p *parser) list(n *yaml.Node, what, key string) ([]node, error) {
	n, err := p.deref(n)
	if err != nil {
		return nil, err
	}
	if n.Kind != yaml.SequenceNode {
		return nil, p.fail(n, what, "%s: want a list of steps, such as [{name: grind, duration: 1ms}]; got %s", key, describe(n))
	}
	if len(n.Content) == 0 {
		return nil, p.fail(n, what, "%s is empty: want at least one step", key)
	}
	p.enter(n)
	defer p.leave(n)
	items := make([]node, 0, len(n.Content))
	for _, c := range n.Content {
		it, err := p.item(c)
		if err != nil {
			return nil, err
		}
		items = append(items, it)
	}
	return items, nil
}

// count counts one more item, refusing a file that expands to too many.
func (p *parser) count(n *yaml.Node) error {
	if p.items++; p.items > maxItems {
		return p.fail(n, "", "more than %d steps once aliases are expanded: want a smaller blueprint", maxItems)
	}
	return nil
}

// kinds are the keys that make an item what it is (a step where it has
// none), what that is, and the keys it may have.
var kinds = []struct {
	key, noun string
	keys      []string
}{
	{"duration", "step", stepKeys}, {"steps", "group", groupKeys}, {"parallel", "parallel", parallelKeys}, {"pipeline", "pipeline", pipelineKeys},
}

// named starts reading an item or a stage: its node, keys and name,
// entering it (the caller leaves it once read, where no error).
func (p *parser) named(n *yaml.Node, what, want string) (*yaml.Node, *fields, string, error) {
	n, err := p.deref(n)
	if err != nil {
		return nil, nil, "", err
	}
	if err := p.count(n); err != nil {
		return nil, nil, "", err
	}
	if n.Kind != yaml.MappingNode {
		return nil, nil, "", p.fail(n, "", "want %s; got %s", want, describe(n))
	}
	p.enter(n)
	f, err := p.mapping(n, what, want)
	name := ""
	if err == nil {
		name, err = p.name(f)
	}
	if err != nil {
		p.leave(n)
		return nil, nil, "", err
	}
	return n, f, name, nil
}

func (p *parser) item(n *yaml.Node) (node, error) {
	n, f, name, err := p.named(n, "", wantItem)
	if err != nil {
		return nil, err
	}
	defer p.leave(n)
	// What the item is: the one kind key it has, a step if none.
	kind, kindKey := kinds[0], ""
	for _, k := range kinds {
		fl, ok := f.byKey[k.key]
		if !ok {
			continue
		}
		if kindKey != "" {
			f.what = label(kind.noun, name)
			return nil, p.fail(fl.key, f.what, "both %s and %s: want one of duration (a step), steps (a group), parallel or pipeline", kindKey, k.key)
		}
		kind, kindKey = k, k.key
	}
	f.what = label(kind.noun, name)
	if err := p.only(f, kind.keys, "a "+kind.noun, itemKeys); err != nil {
		return nil, err
	}
	switch kind.noun {
	case "group":
		return p.group(f)
	case "parallel":
		return p.parallel(f)
	case "pipeline":
		return p.pipeline(f)
	}
	return p.step(f, name)
}

// label names an item in errors: step "grind", or group.
func label(kind, name string) string {
	if name == "" {
		return kind
	}
	return kind + " " + strconv.Quote(name)
}

// name reads an item's name: key, "" if it has none.
func (p *parser) name(f *fields) (string, error) {
	v, ok := f.get("name")
	if !ok {
		return "", nil
	}
	return p.text(v, f.what, "name", "a name such as grind")
}

// step reads a step, or a stage that is one, its keys already checked.
func (p *parser) step(f *fields, name string) (*step, error) {
	if name == "" {
		return nil, p.fail(f.node, f.what, "missing name: want a name such as grind")
	}
	v, err := p.need(f, "duration", "duration: such as 1ms for a step, or steps: [...] for a group")
	if err != nil {
		return nil, err
	}
	st := &step{what: f.what, name: name, line: f.node.Line, cpu: true, id: len(p.b.steps)}
	p.b.steps = append(p.b.steps, st)
	if st.d, err = p.duration(v, f.what); err != nil {
		return nil, err
	}
	if st.usage, err = p.usage(f); err != nil {
		return nil, err
	}
	if v, ok := f.get("cpu"); ok {
		if st.cpu, err = decode(p, v, f.what, "cpu", "true or false", func(bool) bool { return true }, "!!bool"); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// group reads a group, or a stage that is one, its keys already checked:
// steps in order, holding its resources throughout.
func (p *parser) group(f *fields) (*group, error) {
	g := &group{what: f.what, line: f.node.Line}
	var err error
	if g.usage, err = p.usage(f); err != nil {
		return nil, err
	}
	if g.items, err = p.list(f.byKey["steps"].val, f.what, "steps"); err != nil {
		return nil, err
	}
	return g, nil
}

// usage reads the resources an item holds, shares, reads and writes,
// each a list of names or one name, and the orders it runs once in: 1
// (every order) where not given.
func (p *parser) usage(f *fields) (u usage, err error) {
	for _, k := range []struct {
		key, kind string
		to        *[]int
	}{{"holds", "", &u.holds}, {"shares", RWMutex, &u.shares}, {"reads", Word, &u.reads}, {"writes", Word, &u.writes}} {
		if *k.to, err = p.uses(f, k.key, k.kind); err != nil {
			return u, err
		}
	}
	u.every = 1
	if v, ok := f.get("every"); ok {
		u.every, err = p.whole(v, f.what, "every", 1, "1 or more: the item runs on one order in that many")
	}
	return u, err
}

// uses reads the resources an item uses under key: of kind, or any kind
// but a word where kind is "" (holds).
func (p *parser) uses(f *fields, key, kind string) ([]int, error) {
	rs, err := p.names(f, key)
	if err != nil {
		return nil, err
	}
	for _, r := range rs {
		k := cmp.Or(p.b.Resources[r].Kind, Mutex)
		switch {
		case kind == "" && k == Word:
			return nil, p.fail(f.byKey[key].val, f.what, "%s %q, a word: nobody holds a word; want reads: or writes:", key, p.b.Resources[r].Name)
		case kind != "" && k != kind:
			return nil, p.fail(f.byKey[key].val, f.what, "%s %q, a %s: want a resource of kind %s", key, p.b.Resources[r].Name, k, kind)
		}
	}
	return rs, nil
}

// names reads the resources named under key: a list of names, or one.
func (p *parser) names(f *fields, key string) ([]int, error) {
	v, ok := f.get(key)
	if !ok {
		return nil, nil
	}
	v, err := p.deref(v)
	if err != nil {
		return nil, err
	}
	names := []*yaml.Node{v}
	if v.Kind == yaml.SequenceNode {
		names = v.Content
	}
	var holds []int
	for _, n := range names {
		s, err := p.scalar(n, f.what, key, "resource names, such as [espresso]")
		if err != nil {
			return nil, err
		}
		r, ok := p.res[s.Value]
		if !ok {
			if len(p.b.Resources) == 0 {
				return nil, p.fail(s, f.what, "%s %q: no such resource; want one declared under resources:, such as resources: {%s: 1}", key, s.Value, s.Value)
			}
			names := collect.Mapped(p.b.Resources, func(r Resource) string { return r.Name })
			return nil, suggest(p.fail(s, f.what, "%s %q: no such resource; want one of %s", key, s.Value, strings.Join(names, ", ")), s.Value, names)
		}
		if slices.Contains(holds, r) {
			return nil, p.fail(s, f.what, "%s %q twice: want each resource once", key, s.Value)
		}
		holds = append(holds, r)
		p.used[r] = true
	}
	return holds, nil
}

// parallel reads branches that run at once, each an item or a list.
func (p *parser) parallel(f *fields) (*parallel, error) {
	v, err := p.deref(f.byKey["parallel"].val)
	if err != nil {
		return nil, err
	}
	if v.Kind != yaml.SequenceNode || len(v.Content) < 2 {
		return nil, p.fail(v, f.what, "want a list of two or more branches, each a step, a group or a list of steps; got %s", describe(v))
	}
	p.enter(v)
	defer p.leave(v)
	pa := &parallel{}
	for i, c := range v.Content {
		c, err := p.deref(c)
		if err != nil {
			return nil, err
		}
		var b node
		if c.Kind == yaml.SequenceNode {
			items, err := p.list(c, f.what, "branch "+strconv.Itoa(i+1))
			if err != nil {
				return nil, err
			}
			b = &group{items: items}
		} else if b, err = p.item(c); err != nil {
			return nil, err
		}
		pa.branches = append(pa.branches, b)
	}
	return pa, nil
}

// pipeline reads stages joined by channels.
func (p *parser) pipeline(f *fields) (*pipe, error) {
	pp := &pipe{lines: 1}
	buffer := 0
	var err error
	if v, ok := f.get("buffer"); ok {
		if buffer, err = p.whole(v, f.what, "buffer", 0, "0 (hand to hand) or more"); err != nil {
			return nil, err
		}
	}
	if v, ok := f.get("lines"); ok {
		if pp.lines, err = p.whole(v, f.what, "lines", 1, "1 or more"); err != nil {
			return nil, err
		}
	}
	if v, ok := f.get("wait"); ok {
		wait, err := decode(p, v, f.what, "wait", "true (the order waits for the last stage) or false (it goes on once handed in)", func(bool) bool { return true }, "!!bool")
		if err != nil {
			return nil, err
		}
		pp.detach = !wait
	}
	v, err := p.deref(f.byKey["pipeline"].val)
	if err != nil {
		return nil, err
	}
	if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
		return nil, p.fail(v, f.what, "want a list of stages, such as [{name: grind, duration: 1ms}]; got %s", describe(v))
	}
	p.enter(v)
	defer p.leave(v)
	for _, c := range v.Content {
		st, err := p.stage(c, buffer)
		if err != nil {
			return nil, err
		}
		pp.stages = append(pp.stages, st)
	}
	pp.id = len(p.b.pipes)
	p.b.pipes = append(p.b.pipes, pp)
	return pp, nil
}

// stage reads a pipeline's stage: a step or a group.
func (p *parser) stage(n *yaml.Node, buffer int) (*stage, error) {
	const want = "a stage such as {name: grind, duration: 1ms}, or {name: make, steps: [...]}"
	n, f, name, err := p.named(n, "stage", want)
	if err != nil {
		return nil, err
	}
	defer p.leave(n)
	f.what = label("stage", name)
	if err := p.only(f, stageKeys, "a stage", itemKeys); err != nil {
		return nil, err
	}
	if name == "" {
		return nil, p.fail(f.node, f.what, "missing name: want a name such as grind")
	}
	if prev, ok := p.machines[name]; ok {
		return nil, p.fail(f.node, f.what, "name already used by the %s at line %d: want a name of its own, since the results name each stage and resource", prev.kind, prev.line)
	}
	p.machines[name] = machineDecl{"stage", f.node.Line}
	st := &stage{name: name, workers: 1, buffer: buffer, machine: p.b.stages}
	p.b.stages++
	if v, ok := f.get("workers"); ok {
		if st.workers, err = p.whole(v, f.what, "workers", 1, "1 or more"); err != nil {
			return nil, err
		}
	}
	if v, ok := f.get("buffer"); ok {
		if st.buffer, err = p.whole(v, f.what, "buffer", 0, "0 (hand to hand) or more"); err != nil {
			return nil, err
		}
	}
	_, isStep := f.get("duration")
	_, isGroup := f.get("steps")
	switch {
	case isStep && isGroup:
		return nil, p.fail(f.byKey["steps"].key, f.what, "both duration and steps: want duration (one step) or steps (a list)")
	case isGroup:
		if fl, ok := f.byKey["cpu"]; ok {
			return nil, p.fail(fl.key, f.what, "cpu does not apply to a stage with steps: want it on its steps")
		}
		st.body, err = p.group(f)
	default:
		st.body, err = p.step(f, name)
	}
	if err != nil {
		return nil, err
	}
	return st, nil
}
