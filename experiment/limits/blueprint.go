package limits

import (
	"slices"
	"strings"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/model/blueprint"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/analysis"
)

// Knob keys of a blueprint's copies, and a resource's cache line's name.
const (
	unitKey   = "unit:"
	workerKey = "worker:"
	lineKey   = "line:"
)

// simulatedSystem is a YAML system's configuration with k's reliefs, on a
// copy of its blueprint.
func (s target) simulatedSystem(k knobs) model.Config {
	cfg := s.load(k)
	if len(k.scale) == 0 && len(k.copies) == 0 && len(k.buffers) == 0 && len(k.lines) == 0 && len(k.shards) == 0 {
		return cfg
	}
	c := *s.b // a run changes no blueprint, so copies may share their steps
	c.Scale, c.Buffers, c.LineScale, c.Shards = k.scale, k.buffers, k.lines, k.shards
	c.Workers, c.Units = map[string]int{}, map[string]int{}
	for key, n := range k.copies {
		if name, ok := strings.CutPrefix(key, workerKey); ok {
			c.Workers[name] = n
		} else {
			c.Units[copied(key)] = n
		}
	}
	cfg.System = &c
	return cfg
}

// lineReliefs are a shared lock's or word's: its cache line moving 10 %
// faster between cores, and the design that relieves it (the lock split
// in two, the word striped). A copy per CPU or customer moves no line.
func lineReliefs(r blueprint.Resource) []relief {
	if r.Per != "" {
		return nil
	}
	line := lineKey + r.Name
	rs := []relief{{kind: Line, said: results.Relief{Kind: Line, Of: r.Name},
		named: []string{line}, relieves: []string{line}, k: knobs{lines: map[string]float64{r.Name: Faster}}}}
	switch {
	case r.Kind == blueprint.Word:
		rs = append(rs, relief{kind: Shard, said: results.Relief{Kind: Shard, Of: r.Name, Word: true},
			named: []string{line, r.Name}, relieves: []string{line, r.Name}, cost: Cost{Units: 1}, k: knobs{shards: map[string]int{r.Name: 2}}})
	case (r.Kind == blueprint.Mutex || r.Kind == "" || r.Kind == blueprint.RWMutex) && (r.Locks || r.Capacity == 1):
		rs = append(rs, relief{kind: Shard, said: results.Relief{Kind: Shard, Of: r.Name, Count: r.Capacity},
			named: []string{line, r.Name}, relieves: []string{line, r.Name}, cost: Cost{Units: r.Capacity}, k: knobs{shards: map[string]int{r.Name: 2}}})
	}
	return rs
}

// becomesSystem is what k makes of a YAML system: "cafe, barista:
// capacity 3".
func (s target) becomesSystem(k knobs) []analysis.Setting {
	set := s.loadSettings(k)
	for _, st := range s.b.Steps() {
		if f, ok := k.scale[st.Name]; ok {
			set = append(set, analysis.Setting{Kind: analysis.SetScale, Of: st.Name, N: f})
		}
	}
	for _, r := range s.b.Used() {
		if n := k.copies[unitKey+r.Name]; n > 0 {
			set = append(set, analysis.Setting{Kind: analysis.SetCapacity, Of: r.Name, N: float64(r.Capacity + n)})
		}
		if f, ok := k.lines[r.Name]; ok {
			set = append(set, analysis.Setting{Kind: analysis.SetLine, Of: r.Name, N: f})
		}
		if n := k.shards[r.Name]; n > 1 {
			// The model gives a sharded word a copy on each CPU, whatever n.
			if r.Kind == blueprint.Word {
				n = 0
			}
			set = append(set, analysis.Setting{Kind: analysis.SetShards, Of: r.Name, N: float64(n)})
		}
	}
	for _, st := range s.b.Stages() {
		if n := k.copies[workerKey+st.Name]; n > 0 {
			set = append(set, analysis.Setting{Kind: analysis.SetWorkers, Of: st.Name, N: float64(st.Workers + n)})
		}
		if n, ok := k.buffers[st.Name]; ok {
			set = append(set, analysis.Setting{Kind: analysis.SetBuffer, Of: st.Name, N: float64(n)})
		}
	}
	return set
}

// systemWhatIfs are a YAML system's: one more unit of every resource.
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
	return []whatIf{{said: []results.Relief{{Kind: analysis.EveryResource, Count: len(used)}},
		becomes: []analysis.Setting{{Kind: analysis.SetEvery, N: float64(len(used))}}, cost: Cost{Units: len(used)}, cfg: cfg}}
}
