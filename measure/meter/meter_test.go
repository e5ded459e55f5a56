package meter

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// waitParked waits until some goroutine is parked for reason (as the
// runtime names it in a stack dump, e.g. "sync.Mutex.Lock"), so that a
// test knows a caller is really waiting rather than guessing with a sleep.
func waitParked(t *testing.T, reason string) {
	t.Helper()
	buf := make([]byte, 1<<20)
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		n := runtime.Stack(buf, true)
		if strings.Contains(string(buf[:n]), "["+reason) {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("no goroutine parked in %s after 10 s", reason)
}

// hold is how long a test holds a resource while another caller waits:
// the caller's wait must be at least this, whatever the machine's load.
const hold = 20 * time.Millisecond

// contend takes a lock (take), has another goroutine ask for it (ask, then
// drop at once), waits until that one is parked for reason, holds the lock
// for hold more, lets it go (release) and waits for the other to be done.
func contend(t *testing.T, take, release, ask, drop func(), reason string) {
	t.Helper()
	take()
	done := make(chan struct{})
	go func() {
		ask()
		drop()
		close(done)
	}()
	waitParked(t, reason)
	time.Sleep(hold)
	release()
	<-done
}

func TestMutexCountsUsesHeldAndWaited(t *testing.T) {
	m := NewMutex("cache")
	if m.Name() != "cache" || m.Kind() != KindMutex {
		t.Errorf("name %q kind %q", m.Name(), m.Kind())
	}
	// Uncontended: no wait at all, the TryLock path.
	for range 3 {
		m.Lock()
		time.Sleep(time.Millisecond)
		m.Unlock()
	}
	r := m.Read()
	if r.Uses != 3 || r.Waited != 0 || r.Held < 3*time.Millisecond {
		t.Errorf("3 uncontended uses of ≥ 1 ms: %+v", r)
	}

	// Contended: another goroutine asks while this one holds it.
	before := m.Read()
	contend(t, m.Lock, m.Unlock, m.Lock, m.Unlock, "sync.Mutex.Lock")
	d := m.Read().Sub(before)
	if d.Uses != 2 || d.Held < hold || d.Waited < hold {
		t.Errorf("held %v while another waited: %+v; want 2 uses, held and waited ≥ %v", hold, d, hold)
	}
	if !m.TryLock() {
		t.Fatal("TryLock of a free mutex failed")
	}
	if m.TryLock() {
		t.Fatal("TryLock of a held mutex succeeded")
	}
	m.Unlock()
	if got := m.Read().Uses - before.Uses; got != 3 {
		t.Errorf("%d uses after a TryLock; want 3", got)
	}
	var zero Mutex
	if zero.Name() != "mutex" {
		t.Errorf("zero Mutex named %q", zero.Name())
	}
}

// TestMutexExcludes checks that a metered mutex still excludes: a plain
// counter incremented under it by many goroutines (the race detector
// watches) comes out right, and every use is counted.
func TestMutexExcludes(t *testing.T) {
	var m Mutex
	var rw RWMutex
	counter, shared, n, workers := 0, 0, 2000, 8
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range n {
				m.Lock()
				counter++
				m.Unlock()
				if i%4 == 0 {
					rw.Lock()
					shared++
					rw.Unlock()
				} else {
					rw.RLock()
					_ = shared
					rw.RUnlock()
				}
			}
		})
	}
	wg.Wait()
	writes := workers * n / 4
	if counter != workers*n || shared != writes {
		t.Errorf("counters %d and %d, want %d and %d", counter, shared, workers*n, writes)
	}
	if r := m.Read(); r.Uses != int64(workers*n) || r.Held <= 0 {
		t.Errorf("mutex reading %+v; want %d uses", r, workers*n)
	}
	if w, r := rw.Writers(), rw.Readers(); w.Uses != int64(writes) || r.Uses != int64(workers*n-writes) || r.Held != 0 {
		t.Errorf("rwmutex writers %+v readers %+v; want %d writes, %d reads", w, r, writes, workers*n-writes)
	}
}

func TestRWMutexTimesWritersAndWaits(t *testing.T) {
	rw := NewRWMutex("table")
	if rw.Name() != "table" || rw.Kind() != KindRWMutex {
		t.Errorf("name %q kind %q", rw.Name(), rw.Kind())
	}
	rw.RLock()
	rw.RLock() // readers share it: no wait
	rw.RUnlock()
	rw.RUnlock()
	if r := rw.Readers(); r.Uses != 2 || r.Waited != 0 {
		t.Errorf("two readers without a writer: %+v", r)
	}

	contend(t, rw.Lock, rw.Unlock, rw.RLock, rw.RUnlock, "sync.RWMutex.RLock")
	w, r := rw.Writers(), rw.Readers()
	if w.Uses != 1 || w.Held < hold || w.Waited != 0 {
		t.Errorf("writers %+v; want 1 use held ≥ %v, no wait", w, hold)
	}
	if r.Uses != 3 || r.Waited < hold {
		t.Errorf("readers %+v; want 3 uses, a wait ≥ %v", r, hold)
	}
	if all := rw.Read(); all.Uses != 4 || all.Held != w.Held || all.Waited != w.Waited+r.Waited {
		t.Errorf("Read %+v is not writers %+v and readers %+v together", all, w, r)
	}

	// A writer waits for a reader.
	contend(t, rw.RLock, rw.RUnlock, rw.Lock, rw.Unlock, "sync.RWMutex.Lock")
	if w := rw.Writers(); w.Uses != 2 || w.Waited < hold {
		t.Errorf("writers %+v; want 2 uses, a wait ≥ %v", w, hold)
	}
}

func TestChanCountsAndWaits(t *testing.T) {
	c := NewChan[int]("jobs", 1)
	if c.Cap() != 1 || c.Name() != "jobs" || c.Sends().Name() != "jobs send" || c.Receives().Kind() != KindReceive {
		t.Errorf("cap %d, names %q %q", c.Cap(), c.Sends().Name(), c.Receives().Name())
	}
	c.Send(1) // room: no wait
	if c.Len() != 1 || c.Sends().Read().Waited != 0 {
		t.Errorf("a send with room: len %d, %+v", c.Len(), c.Sends().Read())
	}
	sent := make(chan struct{})
	go func() {
		c.Send(2) // full: waits for the receive below
		close(sent)
	}()
	waitParked(t, "chan send")
	time.Sleep(hold)
	if v, ok := c.Recv(); v != 1 || !ok {
		t.Errorf("Recv = %v, %v", v, ok)
	}
	<-sent
	if s := c.Sends().Read(); s.Uses != 2 || s.Waited < hold || s.Held != 0 {
		t.Errorf("sends %+v; want 2, a wait ≥ %v", s, hold)
	}

	got := make(chan int)
	go func() {
		v, _ := c.Recv() // 2 is waiting: no wait
		w, _ := c.Recv() // empty: waits for the send below
		got <- v + w
	}()
	waitParked(t, "chan receive")
	time.Sleep(hold)
	c.Send(3)
	if sum := <-got; sum != 5 {
		t.Errorf("received %d, want 2+3", sum)
	}
	if r := c.Receives().Read(); r.Uses != 3 || r.Waited < hold {
		t.Errorf("receives %+v; want 3, a wait ≥ %v", r, hold)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.SendContext(ctx, 4); err != nil { // room: sends though ctx is done
		t.Errorf("SendContext with room: %v", err)
	}
	if err := c.SendContext(ctx, 5); !errors.Is(err, context.Canceled) {
		t.Errorf("SendContext on a full channel, ctx done: %v", err)
	}
	if v, err := c.RecvContext(ctx); v != 4 || err != nil {
		t.Errorf("RecvContext = %v, %v", v, err)
	}
	if _, err := c.RecvContext(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("RecvContext on an empty channel, ctx done: %v", err)
	}
	c.Close()
	if _, ok := c.Recv(); ok {
		t.Error("Recv on a closed channel: ok")
	}
	if _, err := c.RecvContext(context.Background()); !errors.Is(err, ErrClosed) {
		t.Errorf("RecvContext on a closed channel: %v", err)
	}
	if s, r := c.Sends().Read().Uses, c.Receives().Read().Uses; s != 4 || r != 4 {
		t.Errorf("%d sends, %d receives; want 4 each", s, r)
	}
}

func TestReadingSub(t *testing.T) {
	a := Reading{Uses: 10, Held: 5 * time.Second, Waited: 3 * time.Second}
	b := Reading{Uses: 4, Held: 2 * time.Second, Waited: time.Second}
	if got := a.Sub(b); got != (Reading{Uses: 6, Held: 3 * time.Second, Waited: 2 * time.Second}) {
		t.Errorf("Sub = %+v", got)
	}
}
