package limits

import (
	"fmt"
	"slices"
	"strings"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/blueprint"
)

// yamlSystem is a blueprint at one configuration, as a causal profile's target.
type yamlSystem struct {
	setting
	b *blueprint.Blueprint
}

func (y *yamlSystem) system() string {
	return fmt.Sprintf("%s on %s", y.b.Name, format.Count(y.cfg.CPUs, "CPU"))
}

func (y *yamlSystem) label(r string) string {
	if l, ok := loadLabel(r); ok {
		return l
	}
	switch {
	case strings.HasPrefix(r, "channel:"):
		return "the channel into stage " + strings.TrimPrefix(r, "channel:")
	case strings.HasPrefix(r, "step:"):
		return "step " + strings.TrimPrefix(r, "step:")
	case strings.HasPrefix(r, lineKey):
		return "the cache line of " + strings.TrimPrefix(r, lineKey)
	}
	if slices.ContainsFunc(y.b.Stages(), func(s blueprint.StageInfo) bool { return s.Name == r }) {
		return "stage " + r
	}
	return "the " + r
}

// Knob keys of a blueprint's copies, and a resource's cache line's name.
const (
	unitKey   = "unit:"
	workerKey = "worker:"
	lineKey   = "line:"
)

func (y *yamlSystem) config(knobs) (model.Config, bool) { return model.Config{}, false }

// simulated is the configuration with k's reliefs, on a copy of b.
func (y *yamlSystem) simulated(k knobs) model.Config {
	cfg := y.load(k)
	if len(k.scale) == 0 && len(k.copies) == 0 && len(k.buffers) == 0 && len(k.lines) == 0 && len(k.shards) == 0 {
		return cfg
	}
	c := *y.b // a run changes no blueprint, so copies may share their steps
	c.Scale, c.Buffers, c.LineScale, c.Shards = k.scale, k.buffers, k.lines, k.shards
	for key, n := range k.copies {
		if name, ok := strings.CutPrefix(key, workerKey); ok {
			if c.Workers == nil {
				c.Workers = map[string]int{}
			}
			c.Workers[name] = n
		}
		if name, ok := strings.CutPrefix(key, unitKey); ok {
			if c.Units == nil {
				c.Units = map[string]int{}
			}
			c.Units[name] = n
		}
	}
	cfg.System = &c
	return cfg
}

func (y *yamlSystem) reliefs() []relief {
	var rs []relief
	for _, st := range y.b.Steps() {
		main := "step:" + st.Name
		if st.Held != "" {
			main = st.Held
		}
		relieves := collect.AppendNew([]string{main}, st.Holds...)
		if st.CPU {
			relieves = collect.AppendNew(relieves, "cpus")
		}
		rs = append(rs, relief{kind: Shorter, change: st.Name + " 10 % faster",
			named: []string{main}, relieves: relieves, k: knobs{scale: map[string]float64{st.Name: Faster}}})
	}
	used := y.b.Used() // a resource nobody takes limits nothing
	for _, r := range used {
		rs = append(rs, relief{kind: Copy, change: fmt.Sprintf("one more %s (%d → %d)", r.Name, r.Capacity, r.Capacity+1), named: []string{r.Name}, relieves: []string{r.Name},
			cost: Cost{Units: 1}, k: knobs{copies: map[string]int{unitKey + r.Name: 1}}})
	}
	if y.cfg.Policy.Sched != "fifo" { // fifo's lines cost nothing to move
		for _, r := range used {
			rs = append(rs, lineReliefs(r)...)
		}
	}
	for _, s := range y.b.Stages() {
		rs = append(rs, relief{kind: Copy,
			change: fmt.Sprintf("one more worker at stage %s (%d → %d)", s.Name, s.Workers*s.Lines, (s.Workers+1)*s.Lines), named: []string{s.Name}, relieves: []string{s.Name},
			cost: Cost{Units: s.Lines, Goroutines: s.Lines}, k: knobs{copies: map[string]int{workerKey + s.Name: 1}}})
	}
	for _, s := range y.b.Stages() {
		to := max(1, 2*s.Buffer)
		ch := "channel:" + s.Name
		change := fmt.Sprintf("twice the buffer into stage %s (%d → %d)", s.Name, s.Buffer, to)
		if s.Buffer == 0 {
			change = fmt.Sprintf("a buffer of 1 into stage %s", s.Name)
		}
		rs = append(rs, relief{kind: Buffer, change: change, named: []string{ch}, relieves: []string{ch}, cost: Cost{BufferSlots: (to - s.Buffer) * s.Lines},
			k: knobs{buffers: map[string]int{s.Name: to}}})
	}
	return append(rs, loadReliefs(y.cfg.CPUs, y.cfg.Resolve().Par, y.who())...)
}

// lineReliefs are a shared lock's or word's: its cache line moving 10 %
// faster between cores, which says whether the line limits, and the
// design that relieves it: the lock (a mutex or an RWMutex) split in two,
// the word striped over the CPUs. A copy of its own per CPU or customer moves no line.
func lineReliefs(r blueprint.Resource) []relief {
	if r.Per != "" {
		return nil
	}
	line := lineKey + r.Name
	rs := []relief{{kind: Line, change: fmt.Sprintf("%s's cache line moving 10 %% faster between cores", r.Name),
		named: []string{line}, relieves: []string{line}, k: knobs{lines: map[string]float64{r.Name: Faster}}}}
	switch {
	case r.Kind == blueprint.Word:
		rs = append(rs, relief{kind: Shard, change: fmt.Sprintf("%s striped over the CPUs, a copy on each", r.Name),
			named: []string{line, r.Name}, relieves: []string{line, r.Name}, cost: Cost{Units: 1}, k: knobs{shards: map[string]int{r.Name: 2}}})
	case (r.Kind == blueprint.Mutex || r.Kind == "" || r.Kind == blueprint.RWMutex) && (r.Locks || r.Capacity == 1):
		rs = append(rs, relief{kind: Shard, change: fmt.Sprintf("%s split in two, each use taking one (%d → %d locks)", r.Name, r.Capacity, 2*r.Capacity),
			named: []string{line, r.Name}, relieves: []string{line, r.Name}, cost: Cost{Units: r.Capacity}, k: knobs{shards: map[string]int{r.Name: 2}}})
	}
	return rs
}

// describe says what k makes of it: "cafe, barista: capacity 3".
func (y *yamlSystem) describe(k knobs) string {
	parts := []string{y.b.Name}
	if k.cpus > 0 || k.customers > 0 {
		n := y.cfg.Resolve().Par
		if k.customers > 0 {
			n = k.customers
		}
		parts = append(parts, format.Count(y.cfg.CPUs+k.cpus, "CPU"), format.Count(n, y.who()))
	}
	for _, st := range y.b.Steps() {
		if f, ok := k.scale[st.Name]; ok {
			parts = append(parts, fmt.Sprintf("%s ×%g", st.Name, f))
		}
	}
	for _, r := range y.b.Used() {
		if n := k.copies[unitKey+r.Name]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s: capacity %d", r.Name, r.Capacity+n))
		}
		if f, ok := k.lines[r.Name]; ok {
			parts = append(parts, fmt.Sprintf("%s's line ×%g", r.Name, f))
		}
		if n := k.shards[r.Name]; n > 1 {
			// The model gives a sharded word a copy on each CPU, whatever n.
			if r.Kind == blueprint.Word {
				parts = append(parts, fmt.Sprintf("%s: a copy on each CPU", r.Name))
			} else {
				parts = append(parts, fmt.Sprintf("%s: %d shards", r.Name, n))
			}
		}
	}
	for _, st := range y.b.Stages() {
		if n := k.copies[workerKey+st.Name]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s: workers %d", st.Name, st.Workers+n))
		}
		if n, ok := k.buffers[st.Name]; ok {
			parts = append(parts, fmt.Sprintf("%s: buffer %d", st.Name, n))
		}
	}
	return strings.Join(parts, ", ")
}

// systemWhatIfs are a YAML system's: one more unit of every resource used.
func systemWhatIfs(cfg model.Config, b *blueprint.Blueprint) []whatIf {
	used := b.Used()
	if len(used) < 2 {
		return nil
	}
	c := *b // a run changes no blueprint, so copies may share their steps
	c.Resources = slices.Clone(b.Resources)
	for j := range c.Resources {
		c.Resources[j].Capacity++ // an unused one's changes nothing
	}
	cfg.System = &c
	return []whatIf{{change: "one more of every resource", as: fmt.Sprintf("%d resources, each +1", len(used)),
		cost: Cost{Units: len(used)}, cfg: cfg}}
}
