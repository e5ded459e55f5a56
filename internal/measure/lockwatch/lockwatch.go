// Package lockwatch sees every sync.Mutex and sync.RWMutex in a Go
// benchmark's process without a change to its code: Overlay writes a
// go build -overlay of the toolchain's own sync and testing sources whose
// Lock, Unlock and RLock note each lock site (the function and file:line
// that locks), and whose benchmark timer writes the sites' tallies of each
// run to the file Env names. Read reads them back; Machines turns a run
// into a point's machines, one group per site, so that why and predict
// read them as they read a study's meters.
//
// Watching samples, so that it adds no write to a shared cache line on
// the fast path: one Lock in 256 on average (a random gap, counted down
// per goroutine, so that sites that take one lock in turn are all
// sampled) is counted and its lock and goroutine noted, and timed; once
// a site has had 256 timed, one such sampled hold in 4 (a goroutine's
// every fourth) is, weighed 1024 times: a clock read costs 40-70 ns on this VM, and timing every sampled
// hold cost one goroutine's lock and unlock 2.5 % more CPU time (interval
// 1.7-3.9 %). A Lock that finds its lock taken tries it once more,
// reading it before it writes, then waits as sync's does, and one such
// Lock in 8 is counted 8 times, its wait and hold timed, lest every
// contended lock lengthen its critical section by clock reads and a
// write to its site's tallies. A site's counts, holds and waits are
// estimates. A timed hold longer than a millisecond counts once, not
// 1024 times, where such holds are rare at its site (its holder
// descheduled, or stopped for the garbage collector), and as the others
// where they are its program's (Site.Held). A reader's hold is not timed
// (readers share the lock). A
// sampled hold's record stays, once it ends, for the lock's next Unlock
// to say whether it is another goroutine's (a handoff: Site.Handoffs).
// Watching adds no field to a Mutex and no write of its state (a noted
// lock's record is kept aside, by hash of its address, and Unlock reads
// it), so that the locks of a program watched lie in memory as they do
// unwatched, share a cache line with what they share it with unwatched,
// and move between CPUs as often. Sync's Lock, Unlock and
// RLock keep fast paths the compiler inlines where it inlines sync's own;
// where a call cannot be inlined (through an interface), the site is
// still the caller.
package lockwatch

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/brewput/brewput/measure/meter"
	"github.com/brewput/brewput/results"
)

// The environment variables the watched test binary reads: Env names
// the file it appends its runs to; StretchEnv, "NS file:line" or "NS
// outside", holds one site's locks NS nanoseconds longer (a fraction
// kept: "1.6"), or adds NS of work before every lock (an experiment of
// why); NoStretch does what an experiment does to every lock but
// stretch it.
const (
	Env        = "BREWPUT_LOCKS"
	StretchEnv = "BREWPUT_LOCKS_STRETCH"
	NoStretch  = "0 none"
)

// SampleEvery is how often watching samples a lock, on average: no
// goroutine takes 2×SampleEvery−1 locks in a row unsampled (the
// overlay's watchEvery).
const SampleEvery = 256

// WaitEvery is how many of the Locks that wait one noted lock counts, its
// hold weighed as many in HeldNs (the overlay's watchWaitEvery).
const WaitEvery = 8

//go:embed overlay/sync.go.txt
var syncWatch []byte

//go:embed overlay/testing.go.txt
var testingWatch []byte

//go:embed overlay/isync.go.txt
var isyncWatch []byte

//go:embed overlay/runtime.go.txt
var runtimeWatch []byte

//go:embed overlay/testing_cpu_unix.go.txt
var testingCPUUnix []byte

//go:embed overlay/testing_cpu_other.go.txt
var testingCPUOther []byte

// renames are the methods an overlay renames to …Unwatched, by file of
// the toolchain's sources, as "Type.Method"; the added files define the
// watched ones under the old names.
func renames() map[string][]string {
	return map[string][]string{
		"sync/mutex.go":        {"Mutex.Lock", "Mutex.Unlock"},
		"sync/rwmutex.go":      {"RWMutex.Lock", "RWMutex.RLock"},
		"testing/benchmark.go": {"B.StartTimer", "B.StopTimer", "B.ResetTimer", "B.runN", "B.RunParallel"},
	}
}

// CannotWatch says the toolchain's sources are not what an overlay can
// be made of: a Go version whose sync or testing differs.
type CannotWatch struct{ Reason string }

func (e *CannotWatch) Error() string {
	return "cannot watch the locks with this Go toolchain: " + e.Reason
}

// Overlay writes into dir the watched sources made from the toolchain at
// goroot, and the overlay file go build -overlay reads; it returns that
// file's path.
func Overlay(goroot, dir string) (string, error) {
	replace := map[string]string{}
	for file, methods := range renames() {
		src := filepath.Join(goroot, "src", filepath.FromSlash(file))
		text, err := os.ReadFile(src)
		if err != nil {
			return "", &CannotWatch{Reason: fmt.Sprintf("read %s: %v", src, err)}
		}
		out, err := rename(file, text, methods)
		if err != nil {
			return "", err
		}
		dst := filepath.Join(dir, strings.ReplaceAll(file, "/", "_"))
		if err := os.WriteFile(dst, out, 0o644); err != nil {
			return "", err
		}
		replace[src] = dst
	}
	added := map[string][]byte{"sync/brewput_watch.go": syncWatch, "testing/brewput_watch.go": testingWatch, "runtime/brewput_watch.go": runtimeWatch,
		"internal/sync/brewput_watch.go":    isyncWatch,
		"testing/brewput_watch_cpu_unix.go": testingCPUUnix, "testing/brewput_watch_cpu_other.go": testingCPUOther}
	for file, text := range added {
		dst := filepath.Join(dir, strings.ReplaceAll(file, "/", "_"))
		if err := os.WriteFile(dst, text, 0o644); err != nil {
			return "", err
		}
		replace[filepath.Join(goroot, "src", filepath.FromSlash(file))] = dst
	}
	js, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "overlay.json")
	return path, os.WriteFile(path, js, 0o644)
}

// rename renames each of methods declared in the file to its …Unwatched
// name (runN → runNUnwatched, Lock → lockUnwatched). It adds no field:
// a watched Mutex is laid out as an unwatched one, lest watching move
// locks onto or off each other's cache lines.
func rename(file string, text []byte, methods []string) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, text, parser.SkipObjectResolution)
	if err != nil {
		return nil, &CannotWatch{Reason: fmt.Sprintf("parse %s: %v", file, err)}
	}
	type edit struct {
		at   int
		drop int
		text string
	}
	var edits []edit
	found := map[string]bool{}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv == nil || len(fn.Recv.List) != 1 {
			continue
		}
		star, ok := fn.Recv.List[0].Type.(*ast.StarExpr)
		if !ok {
			continue
		}
		typ, ok := star.X.(*ast.Ident)
		if !ok || !slices.Contains(methods, typ.Name+"."+fn.Name.Name) {
			continue
		}
		name := fn.Name.Name
		edits = append(edits, edit{at: fset.Position(fn.Name.Pos()).Offset, drop: len(name),
			text: strings.ToLower(name[:1]) + name[1:] + "Unwatched"})
		found[typ.Name+"."+name] = true
	}
	for _, m := range methods {
		if !found[m] {
			return nil, &CannotWatch{Reason: fmt.Sprintf("%s declares no %s", file, m)}
		}
	}
	slices.SortFunc(edits, func(a, b edit) int { return b.at - a.at })
	out := slices.Clone(text)
	for _, e := range edits {
		out = slices.Concat(out[:e.at], []byte(e.text), out[e.at+e.drop:])
	}
	return out, nil
}

// Run is one run of a benchmark's b.N iterations, as the watched test
// binary writes it: its sites' tallies over the time its timer ran.
type Run struct {
	// Name is the benchmark's, as b.Name() is, without the -N suffix.
	Name  string `json:"name"`
	N     int64  `json:"n"`
	Procs int    `json:"procs"`
	// Ns is the time its timer ran, CPUNs the process's CPU time in it
	// (0 where not read); Parallel b.RunParallel's goroutines, 0 where
	// it was not called.
	Ns       int64 `json:"ns"`
	CPUNs    int64 `json:"cpu_ns"`
	Parallel int   `json:"workers"`
	// ClockNs is what a clock read costs, which a timed hold includes
	// once; EmptyHoldNs what a timed hold of an empty critical section
	// reads, the clock's read and the watcher's own steps (0 in runs
	// written before it was read). Machines takes the latter off each
	// timed hold, else the former.
	ClockNs     int64  `json:"clock_ns"`
	EmptyHoldNs int64  `json:"empty_hold_ns,omitempty"`
	Sites       []Site `json:"sites"`
}

// timingNs is what the watcher's timing adds to each timed hold.
func (r Run) timingNs() float64 {
	if r.EmptyHoldNs > 0 {
		return float64(r.EmptyHoldNs)
	}
	return float64(r.ClockNs)
}

// Site is one lock site: the call to Lock or RLock at File:Line in Func,
// the first frame outside package sync and the lock's wrappers.
type Site struct {
	Func string `json:"func"`
	File string `json:"file"`
	Line int    `json:"line"`
	// ViaFunc, ViaFile and ViaLine are the wrapper it locks through, a
	// method named Lock or RLock inlined into Func (logrus's mutexWrap),
	// and At that wrapper's "file:line", where a stretch finds the site;
	// all empty where it calls sync's Lock itself.
	ViaFunc string `json:"via_func,omitempty"`
	ViaFile string `json:"via_file,omitempty"`
	ViaLine int    `json:"via_line,omitempty"`
	At      string `json:"at,omitempty"`
	// Kind is 1 for a sync.Mutex, 2 an RWMutex's writers, 3 its readers.
	Kind int `json:"kind"`
	// Locks and HeldNs are estimated from the sampled locks; Contended
	// and WaitNs count every lock that waited.
	Locks     uint64 `json:"locks"`
	Contended uint64 `json:"contended"`
	WaitNs    uint64 `json:"wait_ns"`
	HeldNs    uint64 `json:"held_ns"`
	// Follows are the sampled holds whose lock's next hold was seen end,
	// weighed as the sampled locks are; Handoffs those of them whose next
	// hold was another goroutine's: Handoffs over Follows is the share of
	// acquisitions that moved the lock between goroutines (on a busy
	// short lock, between CPUs), a contention that Contended, which
	// counts a lock found taken, does not see where the lock is free
	// whenever it is tried.
	Follows  uint64 `json:"follows"`
	Handoffs uint64 `json:"handoffs"`
	// Timed is how many sampled holds were timed; LongNs the time of
	// those over a millisecond, apart from HeldNs, each counted once,
	// LongN how many they were and LongW how many holds they stand for
	// (see Held).
	Timed  uint64 `json:"timed,omitempty"`
	LongNs uint64 `json:"long_ns,omitempty"`
	LongN  uint64 `json:"long_n,omitempty"`
	LongW  uint64 `json:"long_w,omitempty"`
	// WaitedHeldNs is the time of the holds timed after a wait (under a
	// millisecond), each once, and WaitedTimed how many they were: holds
	// of a lock that came from another goroutine's hold, and with it what
	// it guards, which a lock taken free mostly has from its own last
	// hold (results.Machine's AfterWaitHoldNs and FreeHoldNs).
	WaitedHeldNs uint64 `json:"waited_held_ns,omitempty"`
	WaitedTimed  uint64 `json:"waited_timed,omitempty"`
	// Addrs has a bit per hash of a sampled lock's address, Goroutines
	// per hash of the goroutine that took it, Pairs per hash of the two:
	// how many locks, how many goroutines, and how many goroutines each
	// lock (Pairs over Addrs).
	Addrs      Bits `json:"addrs"`
	Goroutines Bits `json:"goroutines"`
	Pairs      Bits `json:"pairs"`
}

// Workers is how many goroutines ran r's iterations: b.RunParallel's;
// else the CPUs the process kept busy plus its goroutines' time waiting
// for the locks, over the window, rounded (a benchmark that runs its own
// goroutines); at least 1.
func (r Run) Workers() int {
	if r.Parallel > 0 {
		return r.Parallel
	}
	if r.Ns <= 0 {
		return 1
	}
	busy := float64(r.CPUNs)
	for _, s := range r.Sites {
		busy += float64(s.WaitNs)
	}
	return max(1, int(math.Round(busy/float64(r.Ns))))
}

// Read reads the runs a watched test binary wrote to path.
func Read(path string) ([]Run, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var runs []Run
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for line := 1; sc.Scan(); line++ {
		var r Run
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s, line %d: %w", path, line, err)
		}
		r.Sites = mergeSites(r.Sites)
		runs = append(runs, r)
	}
	return runs, sc.Err()
}

// mergeSites merges the sites that are one call: named alike, of one
// kind (a call the compiler copied, or whose fast and slow paths return
// to different addresses).
func mergeSites(sites []Site) []Site {
	var out []Site
	for _, s := range sites {
		i := slices.IndexFunc(out, func(o Site) bool {
			return o.Func == s.Func && o.File == s.File && o.Line == s.Line && o.Kind == s.Kind && o.Where() == s.Where()
		})
		if i < 0 {
			out = append(out, s)
			continue
		}
		o := &out[i]
		o.Locks += s.Locks
		o.Contended += s.Contended
		o.WaitNs += s.WaitNs
		o.HeldNs += s.HeldNs
		o.Follows += s.Follows
		o.Handoffs += s.Handoffs
		o.Timed += s.Timed
		o.LongNs += s.LongNs
		o.LongN += s.LongN
		o.LongW += s.LongW
		o.WaitedHeldNs += s.WaitedHeldNs
		o.WaitedTimed += s.WaitedTimed
		for k := range o.Addrs {
			o.Addrs[k] |= s.Addrs[k]
			o.Goroutines[k] |= s.Goroutines[k]
			o.Pairs[k] |= s.Pairs[k]
		}
	}
	return out
}

// LongHoldsOwn is how many of a site's timed holds must be over a
// millisecond for those to be its program's holds, weighed as the rest:
// one in a hundred. A short hold stopped for the garbage collector or
// descheduled that long is far rarer (a hold of 100 ns on a CPU switching
// a hundred times a second is one in 100,000), and counted once.
const LongHoldsOwn = 100

// Held is the site's estimated time held, in ns: HeldNs, and its holds
// timed over a millisecond weighed for the holds they stand for where
// they are at least one in LongHoldsOwn of its timed holds (a lock held
// around I/O), else each once.
func (s Site) Held() float64 {
	long := float64(s.LongNs)
	if s.LongN > 0 && LongHoldsOwn*s.LongN >= s.Timed {
		long *= float64(s.LongW) / float64(s.LongN)
	}
	return float64(s.HeldNs) + long
}

// Where is the site's "file:line", as StretchEnv names it: its wrapper's
// where it locks through one.
func (s Site) Where() string {
	if s.At != "" {
		return s.At
	}
	return fmt.Sprintf("%s:%d", s.File, s.Line)
}

// Name names the site for people: "(*Book).Place at book.go:42", the
// function without its package path.
func (s Site) Name() string {
	return fmt.Sprintf("%s at %s:%d", shortFunc(s.Func), filepath.Base(s.File), s.Line)
}

// Via names the wrapper the site locks through, "" for none:
// "(*mutexWrap).Lock at logger.go:70".
func (s Site) Via() string {
	if s.ViaFunc == "" {
		return ""
	}
	return fmt.Sprintf("%s at %s:%d", shortFunc(s.ViaFunc), filepath.Base(s.ViaFile), s.ViaLine)
}

// shortFunc is a function's name without its package path.
func shortFunc(fn string) string {
	if i := strings.LastIndex(fn, "/"); i >= 0 {
		fn = fn[i+1:]
	}
	if _, rest, ok := strings.Cut(fn, "."); ok {
		fn = rest
	}
	return fn
}

// MaxMembers is the most locks a site can be told to take: more read as
// this many (its 1024 bits all set).
const MaxMembers = 7100

// Members estimates how many locks the site takes from its address bits.
func (s Site) Members() int { return s.Addrs.distinct() }

// Bits is a sketch of the things a site saw (locks, goroutines, lock and
// goroutine pairs): in its first 1024 bits a bit per hash of each, in its
// second 1024 a bit per other bits of the same hash. Two things look like
// one only where both halves say so, about once in a million where one
// half alone would once in 1024.
type Bits [32]uint64

// halves are b's two 1024-bit sketches.
func (b Bits) halves() [2][16]uint64 {
	return [2][16]uint64{[16]uint64(b[:16]), [16]uint64(b[16:])}
}

// distinct estimates how many things b saw: the more of its halves' counts
// (a collision only ever hides a thing).
func (b Bits) distinct() int {
	h := b.halves()
	return max(distinct(h[0]), distinct(h[1]))
}

// exactCount is the most things a sketch says it counted, not estimated,
// where both halves saw as many: two of n things at random addresses
// collide in a half with odds about n²/2048, and alike in both (a count
// one short that both halves agree on) about once in 100 runs at 16.
const exactCount = 16

// exact says whether distinct's count is a count: its halves agree, and
// on few enough things (exactCount); else it is an estimate, maybe short
// of the truth (1024 shards read as 886).
func (b Bits) exact() bool {
	h := b.halves()
	n := [2]int{}
	for i := range h {
		for _, w := range h[i] {
			n[i] += bits.OnesCount64(w)
		}
	}
	return n[0] == n[1] && n[0] <= exactCount
}

// distinct estimates how many distinct things hashed to bits: the bits
// set while at most half are, else by linear counting. Locks laid out at
// a regular stride (shards in an array) hash to distinct bits, where
// linear counting, made for random hashes, would count 74 of 64; random
// addresses collide a little (about 62 of 64).
func distinct(bitset [16]uint64) int {
	const m = 1024
	set := 0
	for _, w := range bitset {
		set += bits.OnesCount64(w)
	}
	switch {
	case set == m:
		return MaxMembers
	case set <= m/2:
		return max(1, set)
	}
	return int(math.Round(math.Log(float64(m-set)/m) / math.Log(float64(m-1)/m)))
}

// Group is the sites that take the same locks, as their address bits
// tell, an RWMutex's readers and writers together: a lock taken at two
// sites is one resource, its sites' names joined by " + ". A site whose
// locks no other site takes is a group of its own.
type Group struct {
	Name  string
	Sites []Site
}

// Target is what StretchEnv names to stretch the group: its sites'
// "file:line", joined by commas, each once.
func (g Group) Target() string {
	var out []string
	for _, s := range g.Sites {
		if !slices.Contains(out, s.Where()) {
			out = append(out, s.Where())
		}
	}
	return strings.Join(out, ",")
}

// union ORs the group's sites' bitsets that field picks.
func (g Group) union(field func(*Site) *Bits) Bits {
	var out Bits
	for i := range g.Sites {
		for k, w := range field(&g.Sites[i]) {
			out[k] |= w
		}
	}
	return out
}

// Via names the wrappers the group's sites lock through, each once,
// joined by " and "; "" where none does.
func (g Group) Via() string {
	var out []string
	for _, s := range g.Sites {
		if v := s.Via(); v != "" && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return strings.Join(out, " and ")
}

// Members is how many locks the group's sites take.
func (g Group) Members() int { return g.union(func(s *Site) *Bits { return &s.Addrs }).distinct() }

// MembersExact says whether Members is a count, not an estimate.
func (g Group) MembersExact() bool { return g.union(func(s *Site) *Bits { return &s.Addrs }).exact() }

// Goroutines is how many distinct goroutines took the group's sampled
// locks.
func (g Group) Goroutines() int {
	return g.union(func(s *Site) *Bits { return &s.Goroutines }).distinct()
}

// Takers is how many goroutines took each of the group's locks, on
// average: distinct (lock, goroutine) pairs over locks; 1 where each
// goroutine has locks of its own, the goroutines where they all share
// one; 0 where the run did not say (an older watcher's).
func (g Group) Takers() float64 {
	pairs := g.union(func(s *Site) *Bits { return &s.Pairs })
	if pairs == (Bits{}) {
		return 0
	}
	return float64(pairs.distinct()) / float64(g.Members())
}

// Groups are run's sites that took a lock, grouped by the locks they take:
// two sites whose address bits mostly overlap (at least half of the
// fewer's) take the same locks (two distinct locks whose addresses hash
// alike, 1 in 1024 for single locks, would be taken for one).
func Groups(run Run) []Group {
	var sites []Site
	for _, s := range run.Sites {
		if s.Locks > 0 {
			sites = append(sites, s)
		}
	}
	// Union-find over the sites: a site joins the first group it overlaps,
	// and groups it bridges merge.
	parent := make([]int, len(sites))
	for i := range parent {
		parent[i] = i
	}
	var root func(int) int
	root = func(i int) int {
		for parent[i] != i {
			i = parent[i]
		}
		return i
	}
	for i := range sites {
		for j := range i {
			if sameLocks(sites[i].Addrs, sites[j].Addrs) {
				parent[root(i)] = root(j)
			}
		}
	}
	var out []Group
	index := map[int]int{}
	for i, s := range sites {
		r := root(i)
		k, ok := index[r]
		if !ok {
			k = len(out)
			index[r] = k
			out = append(out, Group{})
		}
		out[k].Sites = append(out[k].Sites, s)
	}
	for i := range out {
		out[i].Name = groupName(out[i].Sites)
	}
	return out
}

// sameLocks says whether two sites' address bits overlap in at least half
// of the fewer's, in both halves of their sketches: both take the same
// locks. A site of one lock is the same as another of one lock only: its
// one bit falls among a set of 64 shards' bits one time in 16 by chance
// (sync.Pool's lock among a sharded book's), which no bit can tell from
// taking one of the shards.
func sameLocks(a, b Bits) bool {
	ha, hb := a.halves(), b.halves()
	for h := range ha {
		na, nb, both := 0, 0, 0
		for k := range ha[h] {
			na += bits.OnesCount64(ha[h][k])
			nb += bits.OnesCount64(hb[h][k])
			both += bits.OnesCount64(ha[h][k] & hb[h][k])
		}
		if min(na, nb) == 1 && max(na, nb) > 1 || both == 0 || 2*both < min(na, nb) {
			return false
		}
	}
	return true
}

// groupName names a group by its sites, joined by " + ": the first two,
// and how many more, lest a lock taken at many places make a name no
// table can hold.
func groupName(sites []Site) string {
	var names []string
	for _, s := range sites {
		if n := s.Name(); !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	if len(names) > 2 {
		return fmt.Sprintf("%s + %s + %d more", names[0], names[1], len(names)-2)
	}
	return strings.Join(names, " + ")
}

// Machines are run's lock groups as a point's machines: a group of k
// locks is k machines ("name#1" …) with an equal share of its sites' uses
// and holds, as a study's sharded meters are; each says how many
// goroutines took it, how many of its uses were readers', whether k is
// an estimate, and the wrappers its sites lock through.
func Machines(run Run) []results.Machine {
	window := time.Duration(run.Ns)
	if window <= 0 {
		return nil
	}
	var out []results.Machine
	for _, g := range Groups(run) {
		var locks, reads, held, wait, follows, handoffs float64
		var waitedNs, waitedN, freeNs, freeN float64
		kind := meter.KindMutex
		for _, s := range g.Sites {
			if s.Kind != 3 {
				waitedNs += float64(s.WaitedHeldNs)
				waitedN += float64(s.WaitedTimed)
				freeNs += float64(s.HeldNs) - WaitEvery*float64(s.WaitedHeldNs)
				freeN += float64(s.Locks) - float64(s.Contended)
			}
			locks += float64(s.Locks)
			follows += float64(s.Follows)
			handoffs += float64(s.Handoffs)
			wait += float64(s.WaitNs)
			if s.Kind == 3 {
				reads += float64(s.Locks)
			} else {
				held += max(0, s.Held()-float64(s.Locks)*run.timingNs())
			}
			if s.Kind != 1 {
				kind = meter.KindRWMutex
			}
		}
		k := g.Members()
		m := results.Machine{Name: g.Name, Kind: kind, Uses: int64(math.Round(locks / float64(k))),
			BusyFrac: held / float64(k) / float64(window), MeanWaitMs: wait / locks / 1e6,
			Reads: int64(math.Round(reads / float64(k))), Takers: g.Takers(), Goroutines: g.Goroutines(), Estimated: !g.MembersExact(),
			Follows: int64(math.Round(follows / float64(k))), Handoffs: int64(math.Round(handoffs / float64(k))),
			Via: g.Via()}
		if waitedN > 0 {
			m.AfterWaitHoldNs = max(0, waitedNs/waitedN-run.timingNs())
			m.AfterWaitTimed = int64(waitedN)
			if freeN > 0 && freeNs > 0 {
				m.FreeHoldNs = max(0, freeNs/freeN-run.timingNs())
			}
		}
		if m.Takers == 0 {
			m.Goroutines = 0
		}
		if k == 1 {
			out = append(out, m)
			continue
		}
		for i := range k {
			mi := m
			mi.Name = fmt.Sprintf("%s#%d", m.Name, i+1)
			out = append(out, mi)
		}
	}
	return out
}
