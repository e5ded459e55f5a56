package meter_test

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/brewput/brewput/measure/meter"
	"github.com/brewput/brewput/measure/quiet/quiettest"
)

// busy keeps the CPU busy for d, reading the clock: a critical section
// of a known length.
func busy(d time.Duration) {
	for start := time.Now(); time.Since(start) < d; {
	}
}

// TestStretchHoldsLonger: a mutex stretched by 100 % is held about twice
// as long per use as the same section unstretched, and an RWMutex's
// writers likewise; a channel stretched by 10 times its handoff takes
// markedly longer per send. Real timings: checked by a generous factor,
// and skipped beside a busy neighbour (quiettest.Retry).
func TestStretchHoldsLonger(t *testing.T) {
	const section, uses = 20 * time.Microsecond, 200
	double, err := meter.NewStretch()
	if err != nil {
		t.Fatal(err)
	}
	double.Extra = section
	// The least hold of its uses: a use that another process or test
	// binary interrupted is held longer, never shorter.
	perUse := func(lock, unlock func(), read func() meter.Reading) time.Duration {
		least := time.Duration(math.MaxInt64)
		for range uses {
			before := read()
			lock()
			busy(section)
			unlock()
			if d := read().Sub(before); d.Uses == 1 {
				least = min(least, d.Held)
			}
		}
		return least
	}
	quiettest.Retry(t, func() error {
		plain, stretched := meter.NewMutex("plain"), meter.NewMutex("stretched")
		stretched.Stretch(double)
		p := perUse(plain.Lock, plain.Unlock, plain.Read)
		s := perUse(stretched.Lock, stretched.Unlock, stretched.Read)
		rw := meter.NewRWMutex("rw")
		rw.Stretch(double)
		w := perUse(rw.Lock, rw.Unlock, rw.Writers)
		for name, got := range map[string]time.Duration{"mutex": s, "rwmutex writers": w} {
			if r := float64(got) / float64(p); r < 1.5 || r > 3 {
				return fmt.Errorf("%s stretched by its section: held %v a use against %v unstretched (×%.2f); want about ×2", name, got, p, r)
			}
		}
		return nil
	})

	armed, err := meter.NewStretch()
	if err != nil {
		t.Fatal(err)
	}
	tenfold := armed
	tenfold.Frac = 10
	perSend := func(s meter.Stretch) time.Duration {
		c := meter.NewChan[int]("c", 1)
		c.Stretch(s)
		start := time.Now()
		for i := range 20000 {
			c.Send(i)
			c.Recv()
		}
		return time.Since(start) / 20000
	}
	quiettest.Retry(t, func() error {
		a, s := perSend(armed), perSend(tenfold)
		if r := float64(s) / float64(a); r < 2 {
			return fmt.Errorf("channel stretched tenfold: %v a send and receive against %v armed at 0 (×%.2f); want at least ×2", s, a, r)
		}
		return nil
	})
	// Extra is spun before each send, whatever the handoff takes: a spin
	// is calibrated on the fastest of its runs, so it takes no less.
	extra := armed
	extra.Extra, extra.Frac = 2*time.Microsecond, 10
	quiettest.Retry(t, func() error {
		a, s := perSend(armed), perSend(extra)
		if s-a < extra.Extra/2 {
			return fmt.Errorf("channel stretched by %v a send: %v a send and receive against %v armed at 0", extra.Extra, s, a)
		}
		return nil
	})
}

// TestSpin: Spin spins for about the time asked, without the clock.
func TestSpin(t *testing.T) {
	s, err := meter.NewStretch()
	if err != nil {
		t.Fatal(err)
	}
	quiettest.Retry(t, func() error {
		start := time.Now()
		s.Spin(2 * time.Millisecond)
		if got := time.Since(start); got < time.Millisecond || got > 6*time.Millisecond {
			return fmt.Errorf("Spin(2ms) took %v", got)
		}
		return nil
	})
}
