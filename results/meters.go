package results

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/brewput/brewput/internal/base/format"
)

// MeterLabel names a machine with its meter's kind: "mutex cache", "chan
// jobs send"; the shop's by their name alone.
func MeterLabel(m Machine) string {
	switch {
	case m.Kind == "":
		return m.Name
	case IsChan(m.Kind):
		return "chan " + m.Name
	}
	return m.Kind + " " + m.Name
}

// IsChan reports whether a meter kind is a channel's side: waited on, not held.
func IsChan(kind string) bool { return strings.HasPrefix(kind, "chan ") }

// BusiestMeter describes the machine of p on which callers spent the most
// time, held or waiting: "mutex cache held 66%, wait 160 ns"; "-" for none.
func BusiestMeter(p Point) string {
	ms := p.Machines()
	if len(ms) == 0 {
		return "-"
	}
	spent := func(m Machine) float64 { return m.BusyFrac*p.Dur.Seconds() + m.MeanWaitMs*float64(m.Uses)/1000 }
	top := slices.MaxFunc(ms, func(a, b Machine) int { return cmp.Compare(spent(a), spent(b)) }) // the first of the most
	if IsChan(top.Kind) {
		return fmt.Sprintf("%s, wait %s", MeterLabel(top), format.Wait(top.MeanWaitMs))
	}
	return fmt.Sprintf("%s held %.0f%%, wait %s", MeterLabel(top), 100*top.BusyFrac, format.Wait(top.MeanWaitMs))
}

// MeterGroup is the group a meter named name belongs to, which an
// experiment stretches as one: "shard#1", "shard#2", … are "shard"; a
// channel's two sides are the channel; any other meter is its own.
func MeterGroup(name string) string {
	for _, side := range []string{" send", " receive"} {
		if ch, ok := strings.CutSuffix(name, side); ok {
			name = ch
			break
		}
	}
	if base, n, ok := strings.Cut(name, "#"); ok && base != "" && n != "" && strings.Trim(n, "0123456789") == "" {
		return base
	}
	return name
}

// RWMutex reports whether m is an RWMutex's meter.
func (m Machine) RWMutex() bool { return m.Kind == "rwmutex" }
