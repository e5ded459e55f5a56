// Package runtimes are the older Go runtimes published measurements ran
// under, by name, as the model's go policy follows them (sim.Quirks).
// brewput itself models today's runtime; these are validation's.
package runtimes

import (
	"fmt"

	"github.com/brewput/brewput/model/sim"
)

// Quirks are runtime name's differences from today's ("" for today's):
//
//   - go1.0, the runtime before Go 1.5: a Lock that finds it held sleeps
//     at once (no spinning, no starvation mode), and there is no runnext
//     slot; the rest of the scheduler stays today's;
//   - go1.9, the talk's: its starving sync.Mutex hands the lock over
//     without yielding its P (golang.org/issue/33747), so it stays
//     starving and hands over in order; it preempted only at a call,
//     which the talk's burn makes every 40 ns or so, so as at once;
//   - go1.23, the last whose own lock lets every waiting thread spin.
func Quirks(name string) (sim.Quirks, error) {
	switch name {
	case "":
		return sim.Quirks{}, nil
	case "go1.0":
		return sim.Quirks{NoRunnext: true, NoSpin: true, AllSpin: true}, nil
	case "go1.9":
		return sim.Quirks{StarvingKeepsP: true, AllSpin: true}, nil
	case "go1.23":
		return sim.Quirks{AllSpin: true}, nil
	}
	return sim.Quirks{}, fmt.Errorf("runtime %q: want \"\" (today's), go1.0, go1.9 or go1.23", name)
}
