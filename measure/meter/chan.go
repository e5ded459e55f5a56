package meter

import (
	"cmp"
	"context"
	"sync/atomic"
	"time"
)

// Chan is a channel of T that counts sends and receives and their waits:
// sends that wait point at a slow receiver, receives at a slow sender.
// Make one with NewChan.
type Chan[T any] struct {
	c                 chan T
	name              string
	stretch           Stretch
	sends, sendWaited atomic.Int64
	recvs, recvWaited atomic.Int64
	// spin is the loops the next stretched send spins; handed the time
	// stretched sends that found room took.
	spin, handed atomic.Int64
}

// NewChan returns a named channel of size slots (0 for unbuffered).
func NewChan[T any](name string, size int) *Chan[T] {
	return &Chan[T]{c: make(chan T, size), name: name}
}

// Send sends v, as c <- v does, counting the send and any wait.
func (c *Chan[T]) Send(v T) {
	if c.stretch.loopsPerNs > 0 {
		c.stretchedSend(v)
		return
	}
	select {
	case c.c <- v:
	default:
		asked := now()
		c.c <- v
		c.sendWaited.Add(now() - asked)
	}
	c.sends.Add(1)
}

func (c *Chan[T]) stretchedSend(v T) {
	if n := c.stretch.extraLoops(); n > 0 {
		spinLoops(n)
	} else {
		spinLoops(c.spin.Load())
	}
	t := now()
	select {
	case c.c <- v:
		d := now() - t
		c.handed.Add(d)
		c.spin.Store(c.stretch.fracLoops(d))
	default:
		c.c <- v
		c.sendWaited.Add(now() - t)
	}
	c.sends.Add(1)
}

// Stretch makes later Sends' handoffs longer: by s.Extra, spun before
// each send, else by s.Frac of the last handoff that found room; Frac and
// Extra 0 time sends alike without spinning, so an experiment's runs
// differ in the stretch alone. SendContext is not stretched. Call it
// before the channel is shared.
func (c *Chan[T]) Stretch(s Stretch) { c.stretch = s }

// SendContext sends v unless ctx is done first (ctx's error, the wait
// counted, no send).
func (c *Chan[T]) SendContext(ctx context.Context, v T) error {
	select {
	case c.c <- v:
		c.sends.Add(1)
		return nil
	default:
	}
	asked := now()
	defer func() { c.sendWaited.Add(now() - asked) }()
	select {
	case c.c <- v:
		c.sends.Add(1)
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Recv receives as v, ok := <-c does, counting the receive (not a closed
// channel's) and any wait.
func (c *Chan[T]) Recv() (v T, ok bool) {
	select {
	case v, ok = <-c.c:
	default:
		asked := now()
		v, ok = <-c.c
		c.recvWaited.Add(now() - asked)
	}
	if ok {
		c.recvs.Add(1)
	}
	return v, ok
}

// RecvContext receives a value unless ctx is done first (ctx's error) or
// the channel is closed and empty (ErrClosed).
func (c *Chan[T]) RecvContext(ctx context.Context) (T, error) {
	select {
	case v, ok := <-c.c:
		return c.received(v, ok)
	default:
	}
	asked := now()
	defer func() { c.recvWaited.Add(now() - asked) }()
	select {
	case v, ok := <-c.c:
		return c.received(v, ok)
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

func (c *Chan[T]) received(v T, ok bool) (T, error) {
	if !ok {
		return v, ErrClosed
	}
	c.recvs.Add(1)
	return v, nil
}

// Close closes the channel, as close(c) does.
func (c *Chan[T]) Close() { close(c.c) }

// Len returns the number of values waiting in the channel.
func (c *Chan[T]) Len() int { return len(c.c) }

// Cap returns the channel's size.
func (c *Chan[T]) Cap() int { return cap(c.c) }

// Name returns the name given to NewChan, or "chan".
func (c *Chan[T]) Name() string { return cmp.Or(c.name, "chan") }

// Sends is the meter of the sends, "<name> send"; stretched, its Held is
// the handoffs' time. Stretching it stretches the channel.
func (c *Chan[T]) Sends() Meter {
	return side{name: c.Name() + " send", kind: KindSend, uses: &c.sends, waited: &c.sendWaited, held: &c.handed, stretch: c.Stretch}
}

// Receives is the meter of the receives, "<name> receive"; stretching it
// stretches the channel.
func (c *Chan[T]) Receives() Meter {
	return side{name: c.Name() + " receive", kind: KindReceive, uses: &c.recvs, waited: &c.recvWaited, stretch: c.Stretch}
}

type side struct {
	name, kind   string
	uses, waited *atomic.Int64
	held         *atomic.Int64 // nil for the receives
	stretch      func(Stretch)
}

func (s side) Name() string { return s.name }
func (s side) Kind() string { return s.kind }
func (s side) Read() Reading {
	r := Reading{Uses: s.uses.Load(), Waited: time.Duration(s.waited.Load())}
	if s.held != nil {
		r.Held = time.Duration(s.held.Load())
	}
	return r
}
func (s side) Stretch(st Stretch) { s.stretch(st) }
