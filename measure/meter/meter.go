package meter

import (
	"errors"
	"time"
)

// Reading is a resource's totals at one moment. Readings are cumulative:
// the use over a window is the reading at its end minus the reading at its
// start (Sub).
type Reading struct {
	// Uses counts acquisitions: Lock and RLock calls that got the lock, a
	// channel's completed sends (or receives).
	Uses int64
	// Held is the total time the resource was held exclusively: a
	// Mutex's from Lock to Unlock, an RWMutex's from Lock to Unlock (its
	// readers share it; see RWMutex.Readers). A channel is never held;
	// the sends of one armed for an experiment (Stretch) count here the
	// time they took to hand their values over.
	Held time.Duration
	// Working is the part of Held that the holder was really running on
	// a CPU. This package's meters do not measure it (a thread's CPU
	// clock costs a system call per read, more than a Lock): it is 0 for
	// them, and set only by meters that time their holders' work, as the
	// coffee shop's machines do.
	Working time.Duration
	// Waited is the total time callers waited to get the resource: from
	// asking for a lock until holding it, or a channel operation blocked
	// on a full (send) or empty (receive) channel.
	Waited time.Duration
}

// Sub returns the change from an earlier reading to r.
func (r Reading) Sub(earlier Reading) Reading {
	return Reading{Uses: r.Uses - earlier.Uses, Held: r.Held - earlier.Held, Working: r.Working - earlier.Working,
		Waited: r.Waited - earlier.Waited}
}

// Meter is a resource that counts its use. Read may be called at any time,
// concurrently with the resource's use.
type Meter interface {
	// Name names the resource for people and results, e.g. "cache".
	Name() string
	// Kind says what it is: KindMutex, KindRWMutex, KindSend or
	// KindReceive.
	Kind() string
	// Read returns the resource's totals so far.
	Read() Reading
}

// The kinds of meters this package provides, as Meter.Kind returns them.
const (
	KindMutex   = "mutex"
	KindRWMutex = "rwmutex"
	// KindSend and KindReceive are the two sides of a channel: sends
	// that waited for room, receives that waited for a value.
	KindSend    = "chan send"
	KindReceive = "chan receive"
)

// epoch is the origin of the monotonic offsets the meters record, set
// once when the package is initialized and never changed: time.Since on a
// time with a monotonic reading costs one clock read, where time.Now
// costs two (wall and monotonic).
var epoch = time.Now()

// now is the monotonic time since epoch, in nanoseconds.
func now() int64 { return int64(time.Since(epoch)) }

// orDefault returns name, or def when name is empty.
func orDefault(name, def string) string {
	if name == "" {
		return def
	}
	return name
}

// ErrClosed is RecvContext's error on a closed, empty channel.
var ErrClosed = errors.New("meter: receive from a closed channel")
