package results

import (
	"fmt"
	"strings"

	"github.com/brewput/brewput/internal/format"
)

// MeterLabel names a machine for people with its meter's kind, where it
// has one (package meter): "mutex cache", "chan jobs send" (a channel's
// side is named after the channel, "jobs send"); the shop's machines by
// their name alone.
func MeterLabel(m Machine) string {
	switch {
	case m.Kind == "":
		return m.Name
	case IsChan(m.Kind):
		return "chan " + m.Name
	}
	return m.Kind + " " + m.Name
}

// IsChan reports whether a meter kind is a channel's side, which is never
// held, only waited on.
func IsChan(kind string) bool { return strings.HasPrefix(kind, "chan ") }

// BusiestMeter describes, as measured, the machine of p on which its
// callers spent the most time, holding it or waiting for it: "mutex
// cache held 66%, wait 160 ns"; a channel, never held, by its wait alone.
// It names no limit: what a study's meters read is a description, not a
// verdict; a limit is shown only by experiment (a study's why command). "-" where p has none.
func BusiestMeter(p Point) string {
	ms := p.Machines()
	if len(ms) == 0 {
		return "-"
	}
	spent := func(m Machine) float64 { return m.BusyFrac*p.Dur.Seconds() + m.MeanWaitMs*float64(m.Uses)/1000 }
	top := ms[0]
	for _, m := range ms[1:] {
		if spent(m) > spent(top) {
			top = m
		}
	}
	if IsChan(top.Kind) {
		return fmt.Sprintf("%s, wait %s", MeterLabel(top), format.Wait(top.MeanWaitMs))
	}
	return fmt.Sprintf("%s held %.0f%%, wait %s", MeterLabel(top), 100*top.BusyFrac, format.Wait(top.MeanWaitMs))
}
