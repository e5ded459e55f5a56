package limits

import (
	"time"

	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/results/analysis"
)

func (s target) apply(k knobs) model.Config {
	c := s.load(k)
	scale := func(d time.Duration, step string) time.Duration {
		if f, ok := k.scale[step]; ok {
			return time.Duration(float64(d) * f)
		}
		return d
	}
	st := &c.Steps
	st.Grind, st.Press, st.Steam, st.Combine = scale(st.Grind, "grind"), scale(st.Press, "press"), scale(st.Steam, "steam"), scale(st.Combine, "combine")
	for key, n := range k.copies {
		kind := copied(key) // n more than the line has
		c.Variant.Copies = c.Variant.Copies.With(kind, max(s.cfg.Variant.Copies.Kind(kind), s.mode.Copies())+n)
	}
	for kind, n := range k.buffers {
		c.Variant.Buffers = c.Variant.Buffers.With(kind, n)
	}
	c.Variant.Split = c.Variant.Split || k.split
	return c
}

// config is the shop's configuration with k's reliefs, to run on real
// CPUs; false for a YAML system.
func (s target) config(k knobs) (model.Config, bool) {
	if !s.shop {
		return model.Config{}, false
	}
	return s.apply(k), true
}

// simulated is the configuration with k's reliefs: the shop's, a probe
// where k turns anything; a YAML system's, on a copy of its blueprint.
func (s target) simulated(k knobs) model.Config {
	if !s.shop {
		return s.simulatedSystem(k)
	}
	c := s.apply(k)
	if !k.none() {
		c.Probe = true
	}
	return c
}

// becomes is what k makes of the system: "finelocking, 2 grinders",
// "cafe, barista: capacity 3" (report/text's Becomes).
func (s target) becomes(k knobs) []analysis.Setting {
	if !s.shop {
		return s.becomesSystem(k)
	}
	c := s.apply(k)
	set := s.loadSettings(k)
	for _, st := range []struct {
		name string
		d    time.Duration
	}{{"grind", c.Steps.Grind}, {"press", c.Steps.Press}, {"steam", c.Steps.Steam}, {"combine", c.Steps.Combine}} {
		if _, ok := k.scale[st.name]; ok {
			set = append(set, analysis.Setting{Kind: analysis.SetStep, Of: st.name, Dur: st.d})
		}
	}
	for _, kind := range []string{"grinder", "espresso", "steamer"} {
		if k.copies[unitKey+kind]+k.copies[workerKey+kind] > 0 {
			set = append(set, analysis.Setting{Kind: analysis.SetMachines, Of: machineName(kind),
				N: float64(c.Variant.Copies.Kind(kind)), Lines: s.mode.Lines() > 1})
		}
	}
	for _, kind := range []string{"grinder", "espresso", "steamer"} {
		if n := k.buffers[kind]; n > 0 {
			set = append(set, analysis.Setting{Kind: analysis.SetInto, Of: machineName(kind), N: float64(n)})
		}
	}
	if k.split {
		set = append(set, analysis.Setting{Kind: analysis.SetSplit})
	}
	return set
}

func machineName(kind string) string {
	if kind == "espresso" {
		return "espresso machine"
	}
	return kind
}
