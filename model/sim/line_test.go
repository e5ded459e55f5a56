package sim

import (
	"testing"
	"time"
)

// hammer runs n goroutines, one a P, each writing line(i) after every
// burn of work, for 200 µs, and returns the writes done.
func hammer(t *testing.T, n int, c Costs, line func(s *Sim, i int) *Line) int {
	t.Helper()
	s := New(1)
	cpus := NewGoCPUs(s, n, c)
	writes := 0
	for i := range n {
		l := line(s, i)
		s.Go(func(p *Proc) {
			for {
				cpus.Burn(p, 5)
				l.Write(p)
				writes++
			}
		})
	}
	s.Run(200 * time.Microsecond)
	return writes
}

// TestLineSharedSerializes: one line written by every core takes the
// cores' writes one visit at a time, so that more cores do no more than
// two; a line of each core's own costs nothing, and its writes scale.
func TestLineSharedSerializes(t *testing.T) {
	c := Costs{Transfer: Transfer{Socket: 40 * time.Nanosecond}}
	one := hammer(t, 1, c, func(s *Sim, _ int) *Line { return NewLine(s) })
	var shared *Line
	sharedWrites := func(n int) int {
		shared = nil
		return hammer(t, n, c, func(s *Sim, _ int) *Line {
			if shared == nil {
				shared = NewLine(s)
			}
			return shared
		})
	}
	two, eight := sharedWrites(2), sharedWrites(8)
	t.Logf("writes: %d on 1 core, %d on 2 sharing, %d on 8 sharing", one, two, eight)
	if two >= 2*one || float64(eight) > 1.1*float64(two) {
		t.Errorf("shared line: %d writes on 1 core, %d on 2, %d on 8; want fewer than twice on 2 and no more on 8", one, two, eight)
	}
	if shared.Moves() == 0 || shared.Stalls() == 0 {
		t.Errorf("shared line on 8 cores: %d moves, %v stalled; want some", shared.Moves(), shared.Stalls())
	}
	own := hammer(t, 8, c, func(s *Sim, _ int) *Line { return NewLine(s) })
	if own < 8*one*99/100 {
		t.Errorf("a line each: %d writes on 8 cores, want 8 × %d", own, one)
	}
	free := hammer(t, 8, Costs{}, func(s *Sim, _ int) *Line {
		if shared == nil || shared.sim != s {
			shared = NewLine(s)
		}
		return shared
	})
	if free < 8*one*99/100 {
		t.Errorf("a shared line that moves for free: %d writes on 8 cores, want 8 × %d", free, one)
	}
}

// TestLineReadCopies: a core reading a line another wrote waits for a
// copy once, then reads it for free; the writer's next write takes the
// copy back, waiting for it.
func TestLineReadCopies(t *testing.T) {
	const move = 40 * time.Nanosecond
	s := New(1)
	cpus := NewGoCPUs(s, 2, Costs{Transfer: Transfer{Socket: move}})
	l := NewLine(s)
	var reads []time.Duration
	var rewrite time.Duration
	s.Go(func(p *Proc) { // the writer
		l.Write(p)
		cpus.Burn(p, time.Microsecond)
		start := p.Now()
		l.Write(p)
		rewrite = p.Now() - start
	})
	s.Go(func(p *Proc) { // the reader
		cpus.Burn(p, 100*time.Nanosecond)
		for range 3 {
			start := p.Now()
			l.Read(p)
			reads = append(reads, p.Now()-start)
		}
	})
	s.Run(10 * time.Microsecond)
	if len(reads) != 3 || reads[0] < move/2 || reads[0] > 3*move/2 || reads[1] != 0 || reads[2] != 0 {
		t.Errorf("reads took %v; want one move (%v, give or take half), then none", reads, move)
	}
	if rewrite < move/2 || rewrite > 3*move/2 {
		t.Errorf("the write after a read took %v; want a move to take the copy back (%v, give or take half)", rewrite, move)
	}
}

// TestLineFifoFree: under fifo a line costs nothing.
func TestLineFifoFree(t *testing.T) {
	s := New(1)
	cpus := NewCPUs(s, 2)
	l := NewLine(s)
	var end time.Duration
	for range 2 {
		s.Go(func(p *Proc) {
			for range 100 {
				l.Write(p)
				l.Read(p)
				cpus.Burn(p, time.Nanosecond)
			}
			end = max(end, p.Now())
		})
	}
	s.Run(time.Millisecond)
	if end != 100*time.Nanosecond || l.Moves() != 0 {
		t.Errorf("fifo: two cores' 100 writes of 1 ns each ended at %v with %d moves; want 100ns and none", end, l.Moves())
	}
}

// TestLineLeavesWhenAsked: a core that has just had the line come lets it
// go on at once to the next core that asked, so the asker waits for the
// move alone; under Transfer.Keep it keeps it about as long as it took to
// come.
func TestLineLeavesWhenAsked(t *testing.T) {
	const move = 40 * time.Nanosecond
	keep := func(keep bool) time.Duration {
		s := New(1)
		cpus := NewGoCPUs(s, 2, Costs{Transfer: Transfer{Socket: move, Keep: keep}})
		l := NewLine(s)
		var took time.Duration
		s.Go(func(p *Proc) {
			cpus.Burn(p, 100*time.Nanosecond)
			l.Write(p) // the line comes here from the other core, at about 100 ns + a move
		})
		s.Go(func(p *Proc) {
			l.Write(p) // the line's first core
			cpus.Burn(p, 100*time.Nanosecond+time.Nanosecond)
			start := p.Now()
			l.Write(p) // asks while it is on its way to the other or just there
			took = p.Now() - start
		})
		s.Run(10 * time.Microsecond)
		return took
	}
	prompt, kept := keep(false), keep(true)
	if prompt >= kept {
		t.Errorf("asking for a line just gone: %v under the default rule, %v under Keep; want the default's shorter", prompt, kept)
	}
}

// TestWordLineStays: two cores adding to one word in a loop of 5 ns an
// add, the word moving in 40 ns: a word line under Transfer.Stay 0.5
// stays at a core for several adds in a row, so the two add more in the
// same time and the line moves less often an add; with no stay, and a
// plain line (a mutex's word) under the same stay, it moves at every add.
func TestWordLineStays(t *testing.T) {
	const move, add = 40 * time.Nanosecond, 5 * time.Nanosecond
	run := func(word bool, stay float64) (adds int, movesPerAdd float64) {
		s := New(1)
		cpus := NewGoCPUs(s, 2, Costs{Transfer: Transfer{Socket: move, Stay: stay}})
		l := NewLine(s)
		if word {
			l = NewWordLine(s)
		}
		for range 2 {
			s.Go(func(p *Proc) {
				for {
					l.Write(p)
					cpus.Burn(p, add)
					adds++
				}
			})
		}
		s.Run(20 * time.Microsecond)
		return adds, float64(l.Moves()) / float64(adds)
	}
	plain, plainMoves := run(true, 0)
	stayed, stayedMoves := run(true, 0.5)
	mutexWord, mutexMoves := run(false, 0.5)
	t.Logf("adds in 20µs, moves an add: word, no stay %d %.2f; word, stay 0.5 %d %.2f; plain line, stay 0.5 %d %.2f",
		plain, plainMoves, stayed, stayedMoves, mutexWord, mutexMoves)
	if plainMoves < 0.9 || mutexMoves < 0.9 || mutexWord != plain {
		t.Errorf("no stay: %d adds, %.2f moves an add; a plain line under a stay: %d, %.2f; want a move an add, the same adds",
			plain, plainMoves, mutexWord, mutexMoves)
	}
	if stayed < plain*3/2 || stayedMoves > 0.5 {
		t.Errorf("a word under a stay of half a move: %d adds, %.2f moves an add; want half again the %d adds of no stay, at most half a move an add",
			stayed, stayedMoves, plain)
	}
}

// TestChanStateMoves: a buffered channel's operations write its count and
// indexes, a line apart from its lock: a producer and a consumer on two
// cores, each burning 100 ns an item, move it nearly every operation and
// send fewer items than with moves that cost nothing; on one core it
// never moves.
func TestChanStateMoves(t *testing.T) {
	const move = 40 * time.Nanosecond
	run := func(cpus int, t Transfer) (items int, moves int64) {
		items, ch := prodCons(cpus, t)
		return items, ch.state.Moves()
	}
	two, moves := run(2, Transfer{Socket: move})
	free, _ := run(2, Transfer{})
	_, oneMoves := run(1, Transfer{Socket: move})
	t.Logf("2 cores: %d items, the state moving %d times; with free moves %d items; on one core %d moves", two, moves, free, oneMoves)
	if moves < int64(two) || two >= free || oneMoves != 0 {
		t.Errorf("2 cores: %d items, %d moves of the channel's state, %d items with free moves; 1 core: %d moves; "+
			"want at least a move an item, fewer items than free moves give, none on one core", two, moves, free, oneMoves)
	}
}

// A buffered channel's values are written into its buffer and copied out
// of it and cleared under its lock, eight to a cache line: with the sender
// on one core and the receiver on another, each line of the buffer comes
// to the sender and then to the receiver, at least two moves every eight
// items; on one core, none.
func TestChanSlotsMove(t *testing.T) {
	const move = 40 * time.Nanosecond
	run := func(cpus int) (items int, moves int64) {
		items, ch := prodCons(cpus, Transfer{Socket: move})
		for _, l := range ch.slots {
			if l != nil {
				moves += l.Moves()
			}
		}
		return items, moves
	}
	two, moves := run(2)
	_, oneMoves := run(1)
	t.Logf("2 cores: %d items, the buffer's lines moving %d times; on one core %d moves", two, moves, oneMoves)
	if two == 0 || moves < int64(two)/4 || oneMoves != 0 {
		t.Errorf("2 cores: %d items, %d moves of the buffer's lines; 1 core: %d moves; want two moves every eight items or more, none on one core",
			two, moves, oneMoves)
	}
}

// prodCons runs a producer and a consumer on a channel of 64 for 100 µs
// on cpus CPUs whose lines move at t, each working 100 ns an item, and
// returns how many items the consumer took, and the channel.
func prodCons(cpus int, t Transfer) (int, *Chan[int]) {
	s := New(1)
	c := NewGoCPUs(s, cpus, Costs{Transfer: t})
	ch := NewChan[int](s, 64)
	items := 0
	s.Go(func(p *Proc) {
		for {
			ch.Send(p, 1)
			c.Burn(p, 100*time.Nanosecond)
		}
	})
	s.Go(func(p *Proc) {
		for {
			ch.Recv(p)
			c.Burn(p, 100*time.Nanosecond)
			items++
		}
	})
	s.Run(100 * time.Microsecond)
	return items, ch
}
