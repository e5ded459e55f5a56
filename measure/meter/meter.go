package meter

import (
	"errors"
	"time"
)

// Reading is a resource's cumulative totals at one moment; a window's use
// is the difference (Sub).
type Reading struct {
	// Uses counts Lock and RLock calls, or a channel's completed sends (or
	// receives).
	Uses int64
	// Held is the time held exclusively (an RWMutex's readers share it); a
	// stretched channel's sends count their handoffs here.
	Held time.Duration
	// Working is the part of Held the holder ran on a CPU (the coffee shop's
	// machines alone: a thread CPU clock read costs more than a Lock).
	Working time.Duration
	// Waited is the time callers waited for a lock, or on a full or empty
	// channel.
	Waited time.Duration
}

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

// The kinds of meters, as Meter.Kind returns them.
const (
	KindMutex   = "mutex"
	KindRWMutex = "rwmutex"
	// The two sides of a channel.
	KindSend    = "chan send"
	KindReceive = "chan receive"
)

// epoch is the origin of the meters' monotonic offsets: time.Since reads
// one clock, time.Now two.
var epoch = time.Now()

func now() int64 { return int64(time.Since(epoch)) }

// ErrClosed is RecvContext's error on a closed, empty channel.
var ErrClosed = errors.New("meter: receive from a closed channel")
