package results

import "strings"

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

// RWMutex reports whether m is an RWMutex's meter (package meter's
// KindRWMutex).
func (m Machine) RWMutex() bool { return m.Kind == "rwmutex" }
