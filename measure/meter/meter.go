package meter

import (
	"errors"
	"time"
)

// Reading is a resource's cumulative totals at one moment: the use over a
// window is the difference (Sub).
type Reading struct {
	// Uses counts acquisitions: Lock and RLock calls, a channel's completed
	// sends (or receives).
	Uses int64
	// Held is the time held exclusively, from Lock to Unlock (an
	// RWMutex's readers share it). A channel is never held; a stretched
	// one's sends count here the time they took to hand values over.
	Held time.Duration
	// Working is the part of Held the holder ran on a CPU. This package's
	// meters leave it 0 (a thread CPU clock read costs more than a Lock);
	// the coffee shop's machines set it.
	Working time.Duration
	// Waited is the time callers waited: for a lock, or on a full (send) or
	// empty (receive) channel.
	Waited time.Duration
}

// Sub returns the change from an earlier reading to r.
func (r Reading) Sub(earlier Reading) Reading {
	return Reading{Uses: r.Uses - earlier.Uses, Held: r.Held - earlier.Held, Working: r.Working - earlier.Working,
		Waited: r.Waited - earlier.Waited}
}

// Meter is a resource that counts its use; Read may be called at any time.
type Meter interface {
	Name() string  // for people and results, e.g. "cache"
	Kind() string  // KindMutex, KindRWMutex, KindSend or KindReceive
	Read() Reading // the totals so far
}

// The kinds of meters this package provides, as Meter.Kind returns them.
const (
	KindMutex   = "mutex"
	KindRWMutex = "rwmutex"
	// The two sides of a channel.
	KindSend    = "chan send"
	KindReceive = "chan receive"
)

// epoch is the origin of the meters' monotonic offsets, never changed:
// time.Since reads one clock, time.Now two (wall and monotonic).
var epoch = time.Now()

// now is the monotonic time since epoch, in nanoseconds.
func now() int64 { return int64(time.Since(epoch)) }

func orDefault(name, def string) string {
	if name == "" {
		return def
	}
	return name
}

// ErrClosed is RecvContext's error on a closed, empty channel.
var ErrClosed = errors.New("meter: receive from a closed channel")
