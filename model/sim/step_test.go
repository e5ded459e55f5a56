package sim

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"
)

// TestStepsAsCoroutines: processes that run as steps take the same turns
// as coroutines doing the same, to the event and alongside coroutines:
// customers that lock a mutex, burn on too few CPUs, let go and sleep.
func TestStepsAsCoroutines(t *testing.T) {
	shop := func(steps []bool) ([]string, uint64) {
		s := New(1)
		cpus := NewCPUs(s, 2)
		mu := NewMutex(s, "grinder")
		var log []string
		note := func(p *Proc, what string) { log = append(log, fmt.Sprintf("%v %d %s", p.Now(), p.ID(), what)) }
		for i, asSteps := range steps {
			d := time.Duration(i+1) * ms
			if !asSteps {
				s.Go(func(p *Proc) {
					for {
						mu.Lock(p)
						note(p, "locked")
						cpus.Burn(p, d)
						mu.Unlock(p)
						cpus.Burn(p, d)
						note(p, "burned")
						p.Sleep(d / 2)
					}
				})
				continue
			}
			state := 0
			s.GoSteps(func(p *Proc) {
				for {
					switch state {
					case 0:
						state = 1
						if !mu.LockOrWait(p) {
							return
						}
					case 1:
						note(p, "locked")
						state = 2
						cpus.StartBurn(p, d)
						return
					case 2:
						cpus.EndBurn(p, d)
						mu.Unlock(p)
						state = 3
						cpus.StartBurn(p, d)
						return
					case 3:
						cpus.EndBurn(p, d)
						note(p, "burned")
						state = 0
						p.After(d / 2)
						return
					}
				}
			})
		}
		s.Run(40 * ms)
		return log, s.Events()
	}
	want, wantEvents := shop([]bool{false, false, false, false})
	for _, steps := range [][]bool{{true, true, true, true}, {true, false, true, false}} {
		got, events := shop(steps)
		if !slices.Equal(got, want) || events != wantEvents {
			t.Errorf("as steps %v: %d events\n%q\nas coroutines: %d events\n%q", steps, events, got, wantEvents, want)
		}
	}
	if len(want) < 20 {
		t.Errorf("only %d turns taken", len(want))
	}
}

// TestStepPanicSurfaces: a step that panics stops the simulation as a
// coroutine's panic does, the coroutines unwound.
func TestStepPanicSurfaces(t *testing.T) {
	s := New(1)
	boom := errors.New("boom")
	s.Go(func(p *Proc) { p.Sleep(time.Hour) })
	s.GoSteps(func(p *Proc) {
		if p.Now() == 0 {
			p.After(3 * ms)
			return
		}
		panic(boom)
	})
	err := runRecover(s, time.Second)
	var pp *ProcessPanic
	if !errors.As(err, &pp) || pp.Process != 1 || pp.At != 3*ms || !errors.Is(err, boom) {
		t.Errorf("Run ended with %v, want process 1's panic at 3ms", err)
	}
}

// TestStepsOnlyUnderFifo: the go policy's processes cannot run as steps.
func TestStepsOnlyUnderFifo(t *testing.T) {
	s := New(1)
	NewGoCPUs(s, 2, Costs{})
	defer s.Stop()
	defer func() {
		if recover() == nil {
			t.Error("GoSteps under the go policy did not panic")
		}
	}()
	s.GoSteps(func(*Proc) {})
}
