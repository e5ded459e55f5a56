package lockwatch

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/brewput/brewput/measure/meter"
	"github.com/brewput/brewput/results"
)

// TestRename renames the declarations alone: a call to Lock inside the
// file still calls the (watched) Lock, and sync's Mutex gains no field.
func TestRename(t *testing.T) {
	src := `package sync

type Mutex struct {
	mu int
}

func (m *Mutex) Lock() { m.mu++ }

func (m *Mutex) Unlock() { m.mu-- }

func (m *Mutex) Locked() { m.Lock(); m.Unlock() }
`
	out, err := rename("sync/mutex.go", []byte(src), []string{"Mutex.Lock", "Mutex.Unlock"})
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	for _, want := range []string{"func (m *Mutex) lockUnwatched()", "func (m *Mutex) unlockUnwatched()",
		"func (m *Mutex) Locked() { m.Lock(); m.Unlock() }", "type Mutex struct {\n\tmu int\n}"} {
		if !strings.Contains(got, want) {
			t.Errorf("renamed source lacks %q:\n%s", want, got)
		}
	}
}

// TestRenameRefusesOtherSources: a toolchain whose sync declares no
// Mutex.Lock cannot be watched, and says which file and method.
func TestRenameRefusesOtherSources(t *testing.T) {
	_, err := rename("sync/mutex.go", []byte("package sync\n\ntype Mutex struct{}\n\nfunc (m *Mutex) lock() {}\n"), []string{"Mutex.Lock"})
	var cannot *CannotWatch
	if !errors.As(err, &cannot) || !strings.Contains(err.Error(), "sync/mutex.go declares no Mutex.Lock") {
		t.Errorf("err = %v, want a CannotWatch naming sync/mutex.go and Mutex.Lock", err)
	}
	if _, err := Overlay(t.TempDir(), t.TempDir()); !errors.As(err, &cannot) {
		t.Errorf("an empty GOROOT: err = %v, want a CannotWatch", err)
	}
}

// TestMembers: the locks a site takes, told from its address bits.
func TestMembers(t *testing.T) {
	var s Site
	s.Addrs[0] = 1
	if n := s.Addrs.distinct(); n != 1 {
		t.Errorf("one bit: %d members, want 1", n)
	}
	s.Addrs[0], s.Addrs[3] = 1<<64-1, 1
	if n := s.Addrs.distinct(); n != 65 || s.Addrs.exact() {
		t.Errorf("65 bits: %d members, exact %v; want 65, an estimate", n, s.Addrs.exact())
	}
	for i := range s.Addrs {
		s.Addrs[i] = 1<<64 - 1
	}
	if n := s.Addrs.distinct(); n != MaxMembers {
		t.Errorf("every bit: %d members, want %d", n, MaxMembers)
	}
	s.Addrs = Bits{}
	for i := range 10 {
		s.Addrs[i] = 1<<64 - 1 // 640 of 1024 bits: linear counting
	}
	if n := s.Addrs.distinct(); n < 900 || n > 1100 || s.Addrs.exact() {
		t.Errorf("640 of 1024 bits: %d members, exact %v; want about 1004, an estimate", n, s.Addrs.exact())
	}
	// Halves that agree count, on few things; on many they estimate.
	for _, c := range []struct {
		bits  int
		exact bool
	}{{1, true}, {exactCount, true}, {exactCount + 1, false}, {64, false}} {
		var h [16]uint64
		for i := range c.bits {
			h[i%16] |= 1 << (i / 16 * 3)
		}
		if b := twice(h); b.distinct() != c.bits || b.exact() != c.exact {
			t.Errorf("%d bits in each half: %d, exact %v; want %d, exact %v", c.bits, b.distinct(), b.exact(), c.bits, c.exact)
		}
	}
	// Two locks whose hashes' top ten bits agree and whose next ten do
	// not: two, not one.
	s.Addrs = Bits{}
	s.Addrs[0], s.Addrs[16], s.Addrs[17] = 1, 1, 1
	if n := s.Addrs.distinct(); n != 2 {
		t.Errorf("one bit in the first half, two in the second: %d members, want 2", n)
	}
}

// twice is a sketch whose halves both hold h.
func twice(h [16]uint64) (b Bits) {
	copy(b[:16], h[:])
	copy(b[16:], h[:])
	return b
}

// TestGroups: two sites that take the same lock are one group, one
// machine, their uses and holds summed, an RWMutex's readers with its
// writers; a site whose locks mostly overlap a group's joins it.
func TestGroups(t *testing.T) {
	lock := twice([16]uint64{1 << 9})
	run := Run{N: 100, Ns: 1000, Sites: []Site{
		{Func: "m.get", File: "/m/c.go", Line: 10, Kind: 1, Locks: 90, HeldNs: 90, Addrs: lock},
		{Func: "m.add", File: "/m/c.go", Line: 20, Kind: 1, Locks: 10, HeldNs: 110, Addrs: lock},
		{Func: "m.peek", File: "/m/c.go", Line: 30, Kind: 3, Locks: 5, Addrs: lock},
		{Func: "m.other", File: "/m/c.go", Line: 40, Kind: 1, Locks: 7, HeldNs: 7, Addrs: twice([16]uint64{1 << 3})},
	}}
	gs := Groups(run)
	if len(gs) != 2 || gs[0].Name != "get at c.go:10 + add at c.go:20 + 1 more" || gs[0].Target() != "/m/c.go:10,/m/c.go:20,/m/c.go:30" {
		t.Fatalf("groups %+v", gs)
	}
	ms := Machines(run)
	if len(ms) != 2 || ms[0].Uses != 105 || ms[0].Reads != 5 || ms[0].BusyFrac != 0.2 || ms[0].Kind != "rwmutex" {
		t.Errorf("machines %+v, want the shared lock's 105 uses (5 reads) held 0.2 of the window, an rwmutex", ms)
	}

	// Shards seen by two sites, each sampling most of them: one group.
	a, b := twice([16]uint64{0xffff_ffff}), twice([16]uint64{0xffff_fff0, 1})
	if gs := Groups(Run{Ns: 1, Sites: []Site{{Line: 1, Kind: 2, Locks: 1, Addrs: a}, {Line: 2, Kind: 3, Locks: 1, Addrs: b}}}); len(gs) != 1 {
		t.Errorf("two sites of mostly the same 32 shards: %d groups, want 1", len(gs))
	}
	// One lock whose bit falls among 32 shards' is a group of its own.
	if gs := Groups(Run{Ns: 1, Sites: []Site{{Line: 1, Kind: 1, Locks: 1, Addrs: a}, {Line: 2, Kind: 1, Locks: 1, Addrs: twice([16]uint64{1 << 5})}}}); len(gs) != 2 {
		t.Errorf("one lock among 32 shards' bits: %d groups, want 2", len(gs))
	}
	// Two locks alike in one half of their sketches only: two groups.
	one, other := twice([16]uint64{1 << 7}), twice([16]uint64{1 << 7})
	other[16] = 1 << 8
	if gs := Groups(Run{Ns: 1, Sites: []Site{{Line: 1, Kind: 1, Locks: 1, Addrs: one}, {Line: 2, Kind: 1, Locks: 1, Addrs: other}}}); len(gs) != 2 {
		t.Errorf("two locks whose hashes agree in ten bits of twenty: %d groups, want 2", len(gs))
	}
}

// TestTakers: how many goroutines take each lock, from the (lock,
// goroutine) pairs: one a lock where each goroutine has its own, all
// where they share one.
func TestTakers(t *testing.T) {
	bitsOf := func(n int) Bits {
		var b [16]uint64
		for i := range n {
			b[i/64] |= 1 << (i % 64)
		}
		return twice(b)
	}
	for _, c := range []struct {
		what               string
		locks, gors, pairs int
		wantTakers         float64
	}{
		{"one lock, four goroutines", 1, 4, 4, 4},
		{"a lock each", 4, 4, 4, 1},
		{"32 shards, two goroutines", 32, 2, 64, 2},
	} {
		g := Group{Sites: []Site{{Addrs: bitsOf(c.locks), Goroutines: bitsOf(c.gors), Pairs: bitsOf(c.pairs)}}}
		if locks, _ := g.Members(); g.Takers() != c.wantTakers || g.Goroutines() != c.gors || locks != c.locks {
			t.Errorf("%s: takers %v, goroutines %d, locks %d", c.what, g.Takers(), g.Goroutines(), locks)
		}
	}
}

// TestMachines: a site of k locks is k machines of one group, each an
// equal share, its holds less what the watcher's timing adds to each: an
// empty hold's time, or a clock read in runs written before that was read.
func TestMachines(t *testing.T) {
	run := Run{Name: "BenchmarkX", N: 1000, Ns: 1e6, ClockNs: 20, EmptyHoldNs: 30, Sites: []Site{
		{Func: "example.com/m/book.(*Book).Place", File: "/src/book/book.go", Line: 42, Kind: 1, Locks: 1000, HeldNs: 120000, WaitNs: 5000, Addrs: twice([16]uint64{0b1111}),
			Follows: 800, Handoffs: 400, Contended: 80, WaitedHeldNs: 2000, WaitedTimed: 10},
		{Func: "example.com/m/book.read", File: "/src/book/book.go", Line: 50, Kind: 3, Locks: 10, HeldNs: 99},
	}}
	ms := Machines(run)
	if len(ms) != 5 {
		t.Fatalf("%d machines, want 4 of the sharded site and 1 of the readers': %+v", len(ms), ms)
	}
	if ms[0].Name != "(*Book).Place at book.go:42#1" || ms[3].Name != "(*Book).Place at book.go:42#4" || ms[0].Kind != "mutex" {
		t.Errorf("names %q … %q, kind %q", ms[0].Name, ms[3].Name, ms[0].Kind)
	}
	// (120000 − 1000 × 30) ns over 4 locks and 1 ms.
	if ms[0].Uses != 250 || ms[0].BusyFrac != 0.0225 || ms[0].MeanWaitMs != 5e-6 {
		t.Errorf("first member %+v, want 250 uses, busy 0.0225, mean wait 5e-6 ms", ms[0])
	}
	older := run
	older.EmptyHoldNs = 0
	if m := Machines(older)[0]; m.BusyFrac != 0.025 || m.AfterWaitHoldNs != 180 {
		t.Errorf("a run without its empty hold's time: %+v, want busy 0.025 and 180 ns after a wait, a clock read (20 ns) off each hold", m)
	}
	if h, ok := ms[0].HandoffShare(); ms[0].Follows != 200 || ms[0].Handoffs != 100 || !ok || h != 0.5 {
		t.Errorf("first member %+v: want 200 follows and 100 handoffs, a share of 0.5", ms[0])
	}
	// After a wait: 2000 ns over 10 holds, less the empty hold's 30;
	// free: the rest of HeldNs (less the waited holds' weight of 8 each)
	// over the 920 locks that did not wait.
	if ms[0].AfterWaitTimed != 10 || ms[0].AfterWaitHoldNs != 170 || math.Abs(ms[0].FreeHoldNs-(104000.0/920-30)) > 1e-9 {
		t.Errorf("first member %+v: want 10 holds after a wait of 170 ns, free ones %.2f ns", ms[0], 104000.0/920-30)
	}
	if ms[4].AfterWaitTimed != 0 || ms[4].FreeHoldNs != 0 {
		t.Errorf("readers' site %+v: holds after a wait or free, where none was timed", ms[4])
	}
	if _, ok := ms[4].HandoffShare(); ok {
		t.Errorf("readers' site %+v: a handoff share where no follow was counted", ms[4])
	}
	if ms[0].Via != "" || ms[0].Estimated {
		t.Errorf("via %q, estimated %v: want no wrapper, 4 locks counted (4 bits in each half)", ms[0].Via, ms[0].Estimated)
	}
	if ms[4].Kind != "rwmutex" || ms[4].BusyFrac != 0 || ms[4].Name != "read at book.go:50" || ms[4].Reads != 10 {
		t.Errorf("readers' site %+v: want an rwmutex with no hold timed", ms[4])
	}
}

// TestWatchedBenchmarks builds testdata/watched's test binary with the
// overlay of this toolchain and checks what it records of each
// benchmark's run: the sites by function and line, their kinds and
// estimated counts, one group of 64 for the shards, nothing before
// ResetTimer, and nothing at all unless asked.
func TestWatchedBenchmarks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the standard library's sync and testing with an overlay")
	}
	goroot := strings.TrimSpace(goEnv(t, "GOROOT"))
	dir := t.TempDir()
	overlay, err := Overlay(goroot, dir)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "watched.test")
	build := exec.Command("go", "test", "-c", "-o", bin, "-overlay", overlay, "./testdata/watched")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go test -c with the overlay: %v\n%s", err, out)
	}
	lines := siteLines(t)

	path := filepath.Join(dir, "locks.jsonl")
	run := func(env ...string) string {
		cmd := exec.Command(bin, "-test.run=^$", "-test.bench=.", "-test.benchtime=100000x", "-test.cpu=1,2")
		cmd.Dir = "testdata/watched"
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %v\n%s", env, err, out)
		}
		return string(out)
	}
	// A watched Mutex is laid out as an unwatched one, and locks.
	layout, err := exec.Command(bin, "-test.run=^(TestLayout|TestContended)$", "-test.v", "-test.cpu=1,2,4").CombinedOutput()
	if want := fmt.Sprintf("sizes %d %d", unsafe.Sizeof(sync.Mutex{}), unsafe.Sizeof(sync.RWMutex{})); err != nil || !strings.Contains(string(layout), want) {
		t.Errorf("watched build's locks: %v\n%s\nwant %q (unwatched)", err, layout, want)
	}
	run() // not asked: nothing written
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("without %s the binary wrote %s (%v)", Env, path, err)
	}
	run(Env + "=" + path)
	runs, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	last := map[string]Run{} // each benchmark's run of 100000, by name and GOMAXPROCS
	for _, r := range runs {
		if r.N == 100000 {
			last[r.Name+"-"+string(rune('0'+r.Procs))] = r
		}
	}
	site := func(r Run, name string) Site {
		for _, s := range r.Sites {
			if s.Line == lines[name] && strings.HasSuffix(s.File, "watched_test.go") {
				return s
			}
		}
		t.Errorf("%s: no site at line %d (%s): %+v", r.Name, lines[name], name, r.Sites)
		return Site{}
	}
	within := func(what string, got, want, tol float64) {
		if got < want*(1-tol) || got > want*(1+tol) {
			t.Errorf("%s: %v, want %v within %.0f %%", what, got, want, 100*tol)
		}
	}
	one := last["BenchmarkOne-1"]
	if s := site(one, "one"); s.Func != "github.com/brewput/brewput/measure/lockwatch/testdata/watched.lockOne" || s.Kind != 1 || s.Addrs.distinct() != 1 {
		t.Errorf("BenchmarkOne's site: %+v (%d members), want lockOne's Mutex, one lock", s, s.Addrs.distinct())
	} else {
		within("BenchmarkOne's locks (sampled 1 in 256)", float64(s.Locks), 100000, 0.2)
	}
	// Who holds a lock next: the same goroutine, every time, in
	// BenchmarkOne; the other one, every time, in BenchmarkTurns. (A
	// sampled hold's follow may cross into the next run's goroutine:
	// one sample's weight of 256 in about 100000.)
	handoffs := func(s Site) float64 { return float64(s.Handoffs) / float64(s.Follows) }
	if s := site(one, "one"); s.Follows < 50000 || handoffs(s) > 0.01 {
		t.Errorf("BenchmarkOne: %d follows, %d handoffs; want about 100000, none", s.Follows, s.Handoffs)
	}
	for _, procs := range []string{"1", "2"} {
		if s := site(last["BenchmarkTurns-"+procs], "turns"); s.Follows < 50000 || handoffs(s) < 0.99 {
			t.Errorf("BenchmarkTurns-%s: %d follows, %d handoffs; want about 100000, each a handoff", procs, s.Follows, s.Handoffs)
		}
	}
	// Each timed hold includes a clock read, and the watcher's steps.
	if one.ClockNs <= 0 || one.EmptyHoldNs < one.ClockNs || one.EmptyHoldNs > 10000 {
		t.Errorf("BenchmarkOne's run: a clock read %d ns, an empty hold %d ns: want 0 < clock ≤ empty hold < 10 µs", one.ClockNs, one.EmptyHoldNs)
	}
	// Holds timed after a wait: none where the lock is never waited for;
	// BenchmarkWaited's, each 50 µs, where every one is (one noted in
	// WaitEvery, of up to 800).
	if s := site(one, "one"); s.WaitedTimed != 0 {
		t.Errorf("BenchmarkOne: %d holds timed after a wait, want none", s.WaitedTimed)
	}
	for _, procs := range []string{"1", "2"} {
		r := last["BenchmarkWaited-"+procs]
		s := site(r, "waited")
		if s.WaitedTimed < 40 || s.WaitedTimed > 800 {
			t.Errorf("BenchmarkWaited-%s: %d holds timed after a wait, want about %d", procs, s.WaitedTimed, 800/WaitEvery)
			continue
		}
		if mean := float64(s.WaitedHeldNs) / float64(s.WaitedTimed); mean < 50000 || mean > 1e6 {
			t.Errorf("BenchmarkWaited-%s: holds after a wait %.0f ns on average, want 50 µs or a little more", procs, mean)
		}
		for _, m := range Machines(r) {
			if strings.Contains(m.Name, "BenchmarkWaited") && m.Kind == meter.KindMutex && (m.AfterWaitTimed != int64(s.WaitedTimed) || m.AfterWaitHoldNs < 50000-float64(r.EmptyHoldNs)) {
				t.Errorf("BenchmarkWaited-%s's machine %+v: want its %d holds after a wait, 50 µs or more each", procs, m, s.WaitedTimed)
			}
		}
	}
	if len(one.Sites) != 1 {
		t.Errorf("BenchmarkOne: %d sites, want 1: %+v", len(one.Sites), one.Sites)
	}
	if s := site(last["BenchmarkShards-1"], "shards"); s.Addrs.distinct() < 56 || s.Addrs.distinct() > 72 {
		t.Errorf("BenchmarkShards' site: %d members, want about 64", s.Addrs.distinct())
	}
	// Shards used alike are as many machines; a site that one of its
	// eight locks all but made is that one lock's.
	if g := Groups(last["BenchmarkShards-1"]); len(g) != 1 || g[0].OneMade() || len(Machines(last["BenchmarkShards-1"])) < 56 {
		t.Errorf("BenchmarkShards: one lock made its takes, or fewer than 56 machines: %+v", Machines(last["BenchmarkShards-1"]))
	}
	if n, _ := Groups(last["BenchmarkHotShard-1"])[0].Members(); n < 2 {
		t.Errorf("BenchmarkHotShard's site: %d members seen, want several of its 8", n)
	}
	if m := Machines(last["BenchmarkHotShard-1"]); len(m) != 1 {
		t.Errorf("BenchmarkHotShard: %d machines, want one, the lock that made 95 %% of its takes", len(m))
	}
	rwRun := last["BenchmarkRW-1"]
	if w, r := site(rwRun, "writers"), site(rwRun, "readers"); w.Kind != 2 || r.Kind != 3 || r.HeldNs != 0 {
		t.Errorf("BenchmarkRW: writers %+v, readers %+v; want kinds 2 and 3, readers' holds untimed", w, r)
	} else {
		within("BenchmarkRW's writers", float64(w.Locks), 10000, 0.5)
		within("BenchmarkRW's readers", float64(r.Locks), 90000, 0.2)
	}
	if gs := Groups(rwRun); len(gs) != 1 || len(gs[0].Sites) != 2 {
		t.Errorf("BenchmarkRW: groups %+v, want its writers and readers one group", gs)
	}
	// Who takes each lock: one shared by two goroutines, and a lock each.
	for _, c := range []struct {
		bench  string
		locks  int
		takers float64
	}{{"BenchmarkShared-2", 1, 2}, {"BenchmarkPrivate-2", 2, 1}, {"BenchmarkOne-1", 1, 1}} {
		gs := Groups(last[c.bench])
		if len(gs) != 1 || members(gs[0]) != c.locks || gs[0].Takers() != c.takers || gs[0].Goroutines() != int(c.takers)*c.locks {
			t.Errorf("%s: groups %+v, want one of %d locks taken by %v goroutines each", c.bench, gs, c.locks, c.takers)
		}
	}
	// A channel's sends and receives take its lock, which the runtime's
	// watch sees: one channel both goroutines take, and one each.
	shared := last["BenchmarkChanShared-2"]
	if get, put := site(shared, "changet"), site(shared, "chanput"); get.Kind != 5 || put.Kind != 4 {
		t.Errorf("BenchmarkChanShared: its receive's kind %d and its send's %d, want 5 and 4", get.Kind, put.Kind)
	} else {
		within("BenchmarkChanShared's receives (sampled 1 in 256)", float64(get.Locks), 100000, 0.2)
	}
	if gs := Groups(shared); len(gs) != 1 || len(gs[0].Sites) != 2 || members(gs[0]) != 1 || gs[0].Takers() != 2 || gs[0].Stretchable() {
		t.Errorf("BenchmarkChanShared: groups %+v, want one, its two sites on one channel both goroutines take, not stretchable", gs)
	}
	if ms := Machines(shared); len(ms) != 1 || ms[0].Kind != meter.KindReceive && ms[0].Kind != meter.KindSend {
		t.Errorf("BenchmarkChanShared: machines %+v, want one, a channel's", ms)
	}
	// A send that blocked, till the other's receive gave the ticket back,
	// is counted and timed: a microsecond or more each. Whether one blocks
	// at all is the scheduler's: on a busy machine the two goroutines may
	// take turns on one CPU and never meet (1 run in 3 at load 5-8).
	switch s := site(last["BenchmarkChanTicket-2"], "chanticket"); {
	case s.Contended == 0:
		t.Logf("BenchmarkChanTicket on 2 CPUs: no send blocked in this run")
	case float64(s.WaitNs) < 1000*float64(s.Contended):
		t.Errorf("BenchmarkChanTicket on 2 CPUs: %d sends blocked, %d ns; want a microsecond or more each", s.Contended, s.WaitNs)
	}
	if gs := Groups(last["BenchmarkChanPrivate-2"]); len(gs) != 1 || members(gs[0]) != 2 || gs[0].Takers() != 1 {
		t.Errorf("BenchmarkChanPrivate: groups %+v, want one of two channels, each taken by one goroutine", gs)
	}
	// sync.Map's hash-trie locks a node of its own above each key: seen
	// as a site of many locks, though internal/sync's, not sync's.
	var mapSites []Site
	for _, s := range last["BenchmarkMapStore-1"].Sites {
		if strings.Contains(s.Func, "HashTrieMap") {
			mapSites = append(mapSites, s)
		}
	}
	if len(mapSites) == 0 || mapSites[0].Kind != 1 || mapSites[0].Addrs.distinct() < 4 {
		t.Errorf("BenchmarkMapStore: sites %+v, want sync.Map's hash-trie's, a mutex of several locks", last["BenchmarkMapStore-1"].Sites)
	}
	if s := site(last["BenchmarkLocker-1"], "locker"); !strings.HasSuffix(s.Func, "watched.BenchmarkLocker") {
		t.Errorf("BenchmarkLocker: site %+v, want named at the call through sync.Locker", s)
	}
	// A wrapper's callers are its sites, the wrapper their detail.
	wr := last["BenchmarkWrapped-1"]
	if a, b := site(wr, "wrappedA"), site(wr, "wrappedB"); a.Via() != fmt.Sprintf("(*wrap).Lock at watched_test.go:%d", lines["wrapper"]) ||
		!strings.HasSuffix(a.Where(), fmt.Sprintf("watched_test.go:%d", lines["wrapper"])) || b.Via() != a.Via() ||
		a.Func != "github.com/brewput/brewput/measure/lockwatch/testdata/watched.BenchmarkWrapped" {
		t.Errorf("BenchmarkWrapped: sites %+v and %+v, want named at the calls to wrap.Lock, through it", a, b)
	}
	if gs := Groups(wr); len(gs) != 1 || len(gs[0].Sites) != 2 || strings.Count(gs[0].Target(), ",") != 0 || gs[0].Via() != site(wr, "wrappedA").Via() {
		t.Errorf("BenchmarkWrapped: groups %+v, want one, stretched at the wrapper, through it once", gs)
	}
	if ms, via := Machines(wr), site(wr, "wrappedA").Via(); len(ms) != 1 || ms[0].Via != via {
		t.Errorf("BenchmarkWrapped: machines %+v, want one, through %s", ms, via)
	}
	for _, s := range rwRun.Sites {
		if strings.HasPrefix(s.Func, "sync.") {
			t.Errorf("BenchmarkRW: a site of sync's own: %+v", s)
		}
	}
	// The cleaner an earlier benchmark started takes its lock all through
	// BenchmarkAfterCleaner, on the other P where there are two: not its.
	for _, procs := range []string{"1", "2"} {
		if s := last["BenchmarkAfterCleaner-"+procs].Sites; len(s) != 0 {
			t.Errorf("BenchmarkAfterCleaner on %s CPUs took no lock, yet has sites %+v", procs, s)
		}
	}
	if s := last["BenchmarkCleanerStarts-2"]; !slices.ContainsFunc(s.Sites, func(s Site) bool { return s.Line == lines["cleaner"] }) {
		t.Errorf("BenchmarkCleanerStarts on 2 CPUs started the cleaner, yet its lock is not among its sites %+v", s.Sites)
	}
	if s := last["BenchmarkSetup-1"].Sites; len(s) != 0 {
		t.Errorf("BenchmarkSetup locked only before ResetTimer, yet has sites %+v", s)
	}
	if p := last["BenchmarkParallel-2"]; p.Parallel != 2 || p.Workers() != 2 {
		t.Errorf("BenchmarkParallel on 2 CPUs: %d goroutines (workers %d), want b.RunParallel's 2", p.Parallel, p.Workers())
	}
	two := last["BenchmarkTwoSites-1"]
	if gs := Groups(two); len(gs) != 1 || len(gs[0].Sites) != 2 || !strings.Contains(gs[0].Name, " + ") ||
		strings.Count(gs[0].Target(), ",") != 1 {
		t.Errorf("BenchmarkTwoSites: groups %+v, want one of its two sites", gs)
	}
	if w := one.Workers(); w != 1 {
		t.Errorf("BenchmarkOne on 1 CPU: %d workers, want 1", w)
	}

	// A lock held 1.2 ms every time, as around I/O: its holds over a
	// millisecond are its own, weighed as any other, not counted once as
	// a holder stopped by the garbage collector is.
	os.Remove(path)
	longRun := exec.Command(bin, "-test.run=^$", "-test.bench=^BenchmarkLongHold$", "-test.benchtime=600x", "-test.cpu=1")
	longRun.Dir = "testdata/watched"
	longRun.Env = append(os.Environ(), Env+"="+path, "LONGHOLD=1")
	if out, err := longRun.CombinedOutput(); err != nil {
		t.Fatalf("BenchmarkLongHold: %v\n%s", err, out)
	}
	if runs, err := Read(path); err != nil {
		t.Error(err)
	} else {
		for _, r := range runs {
			if r.Name != "BenchmarkLongHold" || r.N != 600 {
				continue
			}
			s := site(r, "long")
			// One to three holds of 600 are timed, each standing for 256:
			// wide bounds, where counting them once gives 0.2 %.
			if held := s.Held(); s.LongN == 0 || held < 0.05*float64(r.Ns) || held > 8*float64(r.Ns) {
				t.Errorf("BenchmarkLongHold: held %.3g ns of a run of %d ns (%d holds timed, %d over a millisecond); want about all of it", held, r.Ns, s.Timed, s.LongN)
			}
		}
	}

	// A stretch runs, and a malformed one is refused before any benchmark.
	os.Remove(path)
	run(Env+"="+path, StretchEnv+"="+NoStretch)
	// Under a stretch every Lock looks its site up, one through an
	// interface by its caller's frame: named as it is unstretched.
	if runs, err := Read(path); err != nil {
		t.Error(err)
	} else {
		for _, r := range runs {
			if r.Name == "BenchmarkLocker" && r.N == 100000 {
				if s := site(r, "locker"); !strings.HasSuffix(s.Func, "watched.BenchmarkLocker") {
					t.Errorf("BenchmarkLocker under a stretch: site %+v, want named at the call through sync.Locker", s)
				}
			}
		}
	}
	run(Env+"="+path, StretchEnv+"=50 outside")
	run(Env+"="+path, StretchEnv+"=50 "+Groups(two)[0].Target())
	if runs, err := Read(path); err != nil || len(runs) == 0 {
		t.Errorf("stretched runs: %d read, %v", len(runs), err)
	}
	cmd := exec.Command(bin, "-test.run=^$", "-test.bench=.", "-test.benchtime=10x")
	cmd.Env = append(os.Environ(), StretchEnv+"=soon")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(string(out), StretchEnv) {
		t.Errorf("a malformed stretch: %v\n%s", err, out)
	}
}

// TestHeld: holds over a millisecond count as the holds they stand for
// where they are the site's own (one in a hundred of its timed holds or
// more), once where they are a short hold's rare stop.
func TestHeld(t *testing.T) {
	own := Site{HeldNs: 0, Timed: 3, LongNs: 3_600_000, LongN: 3, LongW: 768}
	if got, want := own.Held(), 3_600_000.0*256; got != want {
		t.Errorf("every timed hold 1.2 ms: held %v, want %v (each weighed 256)", got, want)
	}
	rare := Site{HeldNs: 51_200_000, Timed: 1000, LongNs: 5_000_000, LongN: 1, LongW: 1024}
	if got, want := rare.Held(), 51_200_000.0+5_000_000; got != want {
		t.Errorf("one hold of 5 ms in 1000 timed of 50 ns: held %v, want %v (counted once)", got, want)
	}
	var none Site
	if none.Held() != 0 {
		t.Errorf("no holds: held %v", none.Held())
	}
}

// siteLines finds the lines of testdata/watched marked "// site: NAME".
func siteLines(t *testing.T) map[string]int {
	f, err := os.Open("testdata/watched/watched_test.go")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]int{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if _, name, ok := strings.Cut(sc.Text(), "// site: "); ok {
			out[name] = n
		}
	}
	return out
}

func goEnv(t *testing.T, key string) string {
	out, err := exec.Command("go", "env", key).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", key, err)
	}
	return string(out)
}

// TestSampleEvery: the Go side's SampleEvery and WaitEvery are the
// overlay's watchEvery and watchWaitEvery, which its countdowns and
// draws use.
func TestSampleEvery(t *testing.T) {
	syncWatch, err := overlays.ReadFile("overlay/sync.go.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{fmt.Sprintf("watchEvery = %d ", SampleEvery), fmt.Sprintf("watchWaitEvery = %d ", WaitEvery)} {
		if !bytes.Contains(syncWatch, []byte(want)) {
			t.Errorf("the sync overlay does not declare %q", want)
		}
	}
}

func members(g Group) int {
	n, _ := g.Members()
	return n
}

// TestWaits: the mutex profile's stacks of the runtime's locks, told
// apart by the runtime's frames and named by the first frame of the
// program's own, longest first.
func TestWaits(t *testing.T) {
	r := Run{Contention: []Contention{
		{Count: 3, Ns: 9000, Frames: []string{"runtime.unlock /go/src/runtime/lock_spinbit.go:261", "runtime.chanrecv /go/src/runtime/chan.go:690",
			"runtime.selectnbrecv /go/src/runtime/chan.go:805", "example.com/pool.(*Pool).Get /src/pool/pool.go:31", "testing.(*B).RunParallel.func1 /go/src/testing/benchmark.go:930"}},
		{Count: 2, Ns: 1000, Frames: []string{"runtime.unlock /go/src/runtime/lock_spinbit.go:261", "runtime.chansend /go/src/runtime/chan.go:300",
			"runtime.selectnbsend /go/src/runtime/chan.go:785", "example.com/pool.(*Pool).Get /src/pool/pool.go:31"}},
		{Count: 4, Ns: 19000, Frames: []string{"runtime.unlock /go/src/runtime/lock_spinbit.go:261", "runtime.findRunnable /go/src/runtime/proc.go:3400",
			"runtime.schedule /go/src/runtime/proc.go:4100", "runtime.mcall /go/src/runtime/asm_amd64.s:458"}},
		// A P's timers, run by the scheduler: the runtime's own.
		{Count: 1, Ns: 1000, Frames: []string{"runtime.unlock /go/src/runtime/lock_spinbit.go:261", "runtime.(*timers).run /go/src/runtime/time.go:1000",
			"runtime.findRunnable /go/src/runtime/proc.go:3400", "runtime.mcall /go/src/runtime/asm_amd64.s:458"}},
	}}
	got := r.Waits(1000)
	want := []results.Wait{
		{Kind: results.WaitRuntimeLock, Site: "findRunnable at proc.go:3400", Count: 4, TotalMs: 0.019, PerOpMs: 0.000019},
		{Kind: results.WaitChanLock, Site: "(*Pool).Get at pool.go:31", Count: 5, TotalMs: 0.01, PerOpMs: 0.00001},
		{Kind: results.WaitRuntimeLock, Site: "(*timers).run at time.go:1000", Count: 1, TotalMs: 0.001, PerOpMs: 0.000001},
	}
	if len(got) != len(want) {
		t.Fatalf("waits %+v, want %+v", got, want)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Kind != w.Kind || g.Site != w.Site || g.Count != w.Count || math.Abs(g.TotalMs-w.TotalMs) > 1e-12 || math.Abs(g.PerOpMs-w.PerOpMs) > 1e-15 {
			t.Errorf("wait %d: %+v, want %+v", i, g, w)
		}
	}
}
