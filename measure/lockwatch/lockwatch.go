// Package lockwatch sees every sync.Mutex and sync.RWMutex in a Go
// benchmark's process without a change to its code: Overlay writes a go
// build -overlay of the toolchain's sync and testing sources whose Lock,
// Unlock and RLock tally each lock site (the first frame that locks), and
// whose benchmark timer appends each run's tallies to the file Env names.
// Read reads them back; Machines turns a run into a point's machines, a
// group per lock, which why and predict read as a study's meters.
//
// The overlay watches internal/sync's own mutexes too (sync.Map's, in its
// hash-trie) as sync's, and the runtime's channel operations (each takes
// the channel's lock), sampled alike: sites of kind 4 and 5, whose holds
// are not timed. Go's mutex profile, on in a watched run, records the
// waits for the runtime's other locks (Run.Waits).
//
// Watching samples, so that the fast path writes no shared cache line:
// one Lock in SampleEvery is counted and timed, and after a site's first
// 256 timed holds one sampled hold in 4, weighed 1024 times (a clock read
// on every sampled hold cost 2.5 % more CPU). One contended Lock in
// WaitEvery is counted WaitEvery times, lest clock reads lengthen
// contended sections. Counts, holds and waits are therefore estimates;
// readers' holds are not timed. Watching adds no field to a Mutex and
// writes none of its state (records are kept by hash of the address), so
// locks lie in memory and share cache lines as unwatched, and inlined
// fast paths stay inlined.
package lockwatch

import (
	"cmp"
	"embed"
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

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/measure/meter"
	"github.com/brewput/brewput/results"
)

// The watched binary's environment: Env names the file it appends runs
// to; StretchEnv, "NS file:line" or "NS outside", holds one site's locks NS
// (fractional) ns longer, or adds NS of work before every lock; NoStretch
// does all an experiment does but stretch.
const (
	Env        = "BREWPUT_LOCKS"
	StretchEnv = "BREWPUT_LOCKS_STRETCH"
	NoStretch  = "0 none"
)

// SampleEvery is how often watching samples a lock, on average (the
// overlay's watchEvery).
const SampleEvery = 256

// WaitEvery is how many Locks that wait one counted one stands for (the
// overlay's watchWaitEvery).
const WaitEvery = 8

// overlays are the files an overlay adds to the toolchain's sources.
//
//go:embed overlay/*.txt
var overlays embed.FS

// renames are the methods ("Type.Method") and functions an overlay
// renames to …Unwatched, by source file; the added files define the
// watched ones under the old names.
func renames() map[string][]string {
	return map[string][]string{
		"sync/mutex.go":          {"Mutex.Lock", "Mutex.Unlock"},
		"sync/rwmutex.go":        {"RWMutex.Lock", "RWMutex.RLock"},
		"internal/sync/mutex.go": {"Mutex.Lock", "Mutex.Unlock"},
		"runtime/chan.go":        {"chansend", "chanrecv"},
		"runtime/select.go":      {"selectgo"},
		"testing/benchmark.go":   {"B.StartTimer", "B.StopTimer", "B.ResetTimer", "B.runN", "B.RunParallel"},
	}
}

// CannotWatch says the toolchain's sync or testing differs from what an
// overlay can be made of.
type CannotWatch struct{ Err error }

func (e *CannotWatch) Error() string {
	return "cannot watch the locks with this Go toolchain: " + e.Err.Error()
}

// Unwrap is why the locks cannot be watched.
func (e *CannotWatch) Unwrap() error { return e.Err }

// Overlay writes into dir the watched sources made from goroot's and the
// overlay file for go build -overlay, and returns that file's path.
func Overlay(goroot, dir string) (string, error) {
	replace := map[string]string{}
	put := func(file string, text []byte) error {
		dst := filepath.Join(dir, strings.ReplaceAll(file, "/", "_"))
		replace[filepath.Join(goroot, "src", filepath.FromSlash(file))] = dst
		return os.WriteFile(dst, text, 0o644)
	}
	for file, methods := range renames() {
		src := filepath.Join(goroot, "src", filepath.FromSlash(file))
		text, err := os.ReadFile(src)
		if err != nil {
			return "", &CannotWatch{Err: fmt.Errorf("read %s: %w", src, err)}
		}
		out, err := rename(file, text, methods)
		if err == nil {
			err = put(file, out)
		}
		if err != nil {
			return "", err
		}
	}
	added := map[string]string{"sync/brewput_watch.go": "sync", "testing/brewput_watch.go": "testing", "runtime/brewput_watch.go": "runtime",
		"internal/sync/brewput_watch.go": "isync", "testing/brewput_watch_cpu_unix.go": "testing_cpu_unix", "testing/brewput_watch_cpu_other.go": "testing_cpu_other"}
	for file, name := range added {
		text, err := overlays.ReadFile("overlay/" + name + ".go.txt")
		if err == nil {
			err = put(file, text)
		}
		if err != nil {
			return "", err
		}
	}
	js, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "overlay.json")
	return path, os.WriteFile(path, js, 0o644)
}

// rename renames methods and functions to their …Unwatched names (Lock →
// lockUnwatched, chansend → chansendUnwatched) without adding a field,
// lest watching move locks across cache lines.
func rename(file string, text []byte, methods []string) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, text, parser.SkipObjectResolution)
	if err != nil {
		return nil, &CannotWatch{Err: fmt.Errorf("parse %s: %w", file, err)}
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
		if !ok {
			continue
		}
		key := fn.Name.Name
		if fn.Recv != nil {
			if len(fn.Recv.List) != 1 {
				continue
			}
			star, ok := fn.Recv.List[0].Type.(*ast.StarExpr)
			if !ok {
				continue
			}
			typ, ok := star.X.(*ast.Ident)
			if !ok {
				continue
			}
			key = typ.Name + "." + key
		}
		if !slices.Contains(methods, key) {
			continue
		}
		name := fn.Name.Name
		edits = append(edits, edit{at: fset.Position(fn.Name.Pos()).Offset, drop: len(name),
			text: strings.ToLower(name[:1]) + name[1:] + "Unwatched"})
		found[key] = true
	}
	for _, m := range methods {
		if !found[m] {
			return nil, &CannotWatch{Err: fmt.Errorf("%s declares no %s", file, m)}
		}
	}
	slices.SortFunc(edits, func(a, b edit) int { return b.at - a.at })
	out := slices.Clone(text)
	for _, e := range edits {
		out = slices.Concat(out[:e.at], []byte(e.text), out[e.at+e.drop:])
	}
	return out, nil
}

// Run is one run of a benchmark's b.N iterations: its sites' tallies over
// the time its timer ran.
type Run struct {
	// Name is b.Name() without the -N suffix.
	Name  string `json:"name"`
	N     int64  `json:"n"`
	Procs int    `json:"procs"`
	// Ns is the timer's time, CPUNs the process's CPU time in it (0 where not
	// read), Parallel b.RunParallel's goroutines (0 where not called).
	Ns       int64 `json:"ns"`
	CPUNs    int64 `json:"cpu_ns"`
	Parallel int   `json:"workers"`
	// ClockNs is a clock read's cost; EmptyHoldNs what a timed empty critical
	// section reads. Machines takes the latter (else, 0 on a coarse clock,
	// the former) off each timed hold.
	ClockNs     int64  `json:"clock_ns"`
	EmptyHoldNs int64  `json:"empty_hold_ns,omitempty"`
	Sites       []Site `json:"sites"`
	// Contention is what Go's mutex profile recorded of the locks the
	// watch does not see, the runtime's own (a channel's, a timer's, the
	// scheduler's), over the run: by stack.
	Contention []Contention `json:"contention,omitempty"`
}

// Contention is one stack's waits for a lock of the runtime's, as the
// mutex profile records them: only where a waiter slept, not where it
// spun (so seldom on 2 CPUs), its delay in ns, its frames innermost first,
// "function file:line".
type Contention struct {
	Count  int64    `json:"count"`
	Ns     int64    `json:"ns"`
	Frames []string `json:"frames"`
}

// Waits are r's waits for the runtime's locks, a line per kind
// (results.WaitChanLock …) and site (the first frame outside the runtime,
// sync and the testing package; where there is none, the runtime's that
// let the lock go), longest first, over ops operations.
func (r Run) Waits(ops int64) []results.Wait {
	type key struct{ kind, site string }
	sum := map[key]*results.Wait{}
	var keys []key
	for _, c := range r.Contention {
		k := key{kind: results.WaitRuntimeLock}
		for _, f := range c.Frames {
			fn, where, _ := strings.Cut(f, " ")
			switch {
			case strings.HasPrefix(fn, "runtime.chan") || strings.HasPrefix(fn, "runtime.select") || fn == "runtime.closechan":
				k.kind = results.WaitChanLock
			case strings.Contains(fn, "(*timer") || strings.HasPrefix(fn, "time."):
				k.kind = results.WaitTimerLock
			}
			if k.site == "" && !internalFunc(fn) {
				k.site = fmt.Sprintf("%s at %s", shortFunc(fn), filepath.Base(where))
			}
		}
		// The runtime's own lock alone (its scheduler's, which may run a
		// P's timers or hand a channel's value on): the runtime's, named
		// by the function that let it go.
		if k.site == "" {
			k.kind = results.WaitRuntimeLock
		}
		for _, f := range c.Frames {
			if fn, where, _ := strings.Cut(f, " "); k.site == "" && !strings.HasPrefix(fn, "runtime.unlock") {
				k.site = fmt.Sprintf("%s at %s", shortFunc(fn), filepath.Base(where))
			}
		}
		w := sum[k]
		if w == nil {
			w = &results.Wait{Kind: k.kind, Site: k.site}
			sum[k] = w
			keys = append(keys, k)
		}
		w.Count += c.Count
		w.TotalMs += float64(c.Ns) / 1e6
	}
	var out []results.Wait
	for _, k := range keys {
		w := *sum[k]
		if ops > 0 {
			w.PerOpMs = w.TotalMs / float64(ops)
		}
		out = append(out, w)
	}
	slices.SortFunc(out, func(a, b results.Wait) int {
		return cmp.Or(cmp.Compare(b.TotalMs, a.TotalMs), cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Site, b.Site))
	})
	return out
}

// internalFunc says whether fn is the runtime's, sync's or the testing
// package's: how a lock is waited for, not where.
func internalFunc(fn string) bool {
	return slices.ContainsFunc([]string{"runtime.", "sync.", "internal/", "testing.", "time."},
		func(pkg string) bool { return strings.HasPrefix(fn, pkg) })
}

// timingNs is what timing adds to each timed hold.
func (r Run) timingNs() float64 {
	if r.EmptyHoldNs > 0 {
		return float64(r.EmptyHoldNs)
	}
	return float64(r.ClockNs)
}

// Site is one lock site: the call to Lock or RLock at File:Line in Func,
// the first frame outside sync and the lock's wrappers.
type Site struct {
	Func string `json:"func"`
	File string `json:"file"`
	Line int    `json:"line"`
	// ViaFunc, ViaFile, ViaLine and At ("file:line") are the wrapper it locks
	// through (as logrus's mutexWrap); empty where Func calls Lock itself.
	ViaFunc string `json:"via_func,omitempty"`
	ViaFile string `json:"via_file,omitempty"`
	ViaLine int    `json:"via_line,omitempty"`
	At      string `json:"at,omitempty"`
	// Kind is 1 for a sync.Mutex, 2 an RWMutex's writers, 3 its readers,
	// 4 a channel's sends and 5 its receives (the runtime's watch: each
	// takes the channel's lock, whose holds are not timed; Contended and
	// WaitNs, estimated from samples, are those that blocked, a
	// microsecond or more, till another goroutine's readied them).
	Kind int `json:"kind"`
	// Locks and HeldNs are estimated from samples; Contended and WaitNs count
	// every lock that waited.
	Locks     uint64 `json:"locks"`
	Contended uint64 `json:"contended"`
	WaitNs    uint64 `json:"wait_ns"`
	HeldNs    uint64 `json:"held_ns"`
	// Follows are the sampled holds whose lock's next hold was seen, Handoffs
	// those whose next hold was another goroutine's: moves of the lock that
	// Contended misses where it is free whenever tried.
	Follows  uint64 `json:"follows"`
	Handoffs uint64 `json:"handoffs"`
	// Timed counts the timed sampled holds; LongNs, LongN and LongW are those
	// over a millisecond (apart from HeldNs): their time, number, and the
	// holds they stand for (see Held).
	Timed  uint64 `json:"timed,omitempty"`
	LongNs uint64 `json:"long_ns,omitempty"`
	LongN  uint64 `json:"long_n,omitempty"`
	LongW  uint64 `json:"long_w,omitempty"`
	// WaitedHeldNs and WaitedTimed are the time and number of holds timed
	// after a wait, under a millisecond (results.Machine's AfterWaitHoldNs).
	WaitedHeldNs uint64 `json:"waited_held_ns,omitempty"`
	WaitedTimed  uint64 `json:"waited_timed,omitempty"`
	// Addrs, Goroutines and Pairs sketch the sampled locks' addresses, their
	// goroutines, and the two together.
	Addrs      Bits `json:"addrs"`
	Goroutines Bits `json:"goroutines"`
	Pairs      Bits `json:"pairs"`
	// Shares are the sampled locks' weight by two hashes of their address,
	// 32 buckets each: how far one lock made the site's takes.
	Shares [64]uint64 `json:"shares"`
}

// Workers is how many goroutines ran r's iterations: b.RunParallel's, else
// the busy CPUs plus lock waits over the window, rounded; at least 1.
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
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var runs []Run
	dec := json.NewDecoder(f)
	for line := 1; dec.More(); line++ {
		var r Run
		if err := dec.Decode(&r); err != nil {
			return nil, fmt.Errorf("%s, line %d: %w", path, line, err)
		}
		r.Sites = mergeSites(r.Sites)
		runs = append(runs, r)
	}
	return runs, nil
}

// mergeSites merges sites that are one call (the compiler copied it, or
// its fast and slow paths return to different addresses).
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
		for k := range o.Shares {
			o.Shares[k] += s.Shares[k]
		}
	}
	return out
}

// LongHoldsOwn: where at least one in this many timed holds is over a
// millisecond, those are the program's own and weighed as the rest; a short
// hold stopped that long (descheduled, GC) is far rarer.
const LongHoldsOwn = 100

// Held is the site's estimated time held, in ns, long holds weighed as
// LongHoldsOwn says.
func (s Site) Held() float64 {
	long := float64(s.LongNs)
	if s.LongN > 0 && LongHoldsOwn*s.LongN >= s.Timed {
		long *= float64(s.LongW) / float64(s.LongN)
	}
	return float64(s.HeldNs) + long
}

// Where is the site's "file:line" as StretchEnv names it (its wrapper's,
// where it has one).
func (s Site) Where() string { return cmp.Or(s.At, fmt.Sprintf("%s:%d", s.File, s.Line)) }

// Name is "(*Book).Place at book.go:42".
func (s Site) Name() string {
	return fmt.Sprintf("%s at %s:%d", shortFunc(s.Func), filepath.Base(s.File), s.Line)
}

// Via names the site's wrapper, "" for none.
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

// MaxMembers is the most locks a site can be told to take (1024 bits set).
const MaxMembers = 7100

// Bits sketches what a site saw: two 1024-bit halves, each a bit per hash
// (of different bits of it), so two things collide only where both halves
// say so, about once in a million.
type Bits [32]uint64

func (b Bits) halves() [2][16]uint64 {
	return [2][16]uint64{[16]uint64(b[:16]), [16]uint64(b[16:])}
}

// distinct estimates how many things b saw: the larger half's count (a
// collision only hides one).
func (b Bits) distinct() int {
	h := b.halves()
	return max(distinct(h[0]), distinct(h[1]))
}

func ones(half [16]uint64) int {
	n := 0
	for _, w := range half {
		n += bits.OnesCount64(w)
	}
	return n
}

// exactCount is the most things a sketch counts exactly where both halves
// agree: n random addresses collide in a half with odds about n²/2048.
const exactCount = 16

// exact says whether distinct's count is exact, not an estimate (1024
// shards read as 886).
func (b Bits) exact() bool {
	h := b.halves()
	n := ones(h[0])
	return n == ones(h[1]) && n <= exactCount
}

// distinct counts the bits set while at most half are, else estimates by
// linear counting: strided locks (array shards) hash to distinct bits,
// which linear counting would overcount (74 of 64).
func distinct(bitset [16]uint64) int {
	const m = 1024
	switch set := ones(bitset); {
	case set == m:
		return MaxMembers
	case set <= m/2:
		return max(1, set)
	default:
		return int(math.Round(math.Log(float64(m-set)/m) / math.Log(float64(m-1)/m)))
	}
}

// Group is the sites that take the same locks, an RWMutex's readers and
// writers together, named by its sites joined by " + ".
type Group struct {
	Name  string
	Sites []Site
}

// Stretchable says whether a stretch can lengthen the group's holds: a
// channel's, the runtime's lock, cannot.
func (g Group) Stretchable() bool {
	return !slices.ContainsFunc(g.Sites, func(s Site) bool { return s.Kind >= 4 })
}

// Target is what StretchEnv names to stretch the group: its sites' distinct
// "file:line", joined by commas.
func (g Group) Target() string { return strings.Join(g.distinctBy(Site.Where), ",") }

// distinctBy is what f says of the group's sites, each once, "" left out.
func (g Group) distinctBy(f func(Site) string) []string {
	var out []string
	for _, s := range g.Sites {
		if v := f(s); v != "" {
			out = collect.AppendNew(out, v)
		}
	}
	return out
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

// Via names the group's distinct wrappers, joined by " and ".
func (g Group) Via() string { return strings.Join(g.distinctBy(Site.Via), " and ") }

// Members is how many locks the group's sites take, and whether that is
// a count, not an estimate.
func (g Group) Members() (n int, exact bool) {
	addrs := g.union(func(s *Site) *Bits { return &s.Addrs })
	return addrs.distinct(), addrs.exact()
}

// Goroutines is how many goroutines took the group's sampled locks.
func (g Group) Goroutines() int {
	return g.union(func(s *Site) *Bits { return &s.Goroutines }).distinct()
}

// Takers is distinct (lock, goroutine) pairs over locks: 1 where each
// goroutine has its own locks. Of a group that one lock all but made
// (OneMade), it is that lock's, the others taken by one goroutine each.
func (g Group) Takers() float64 {
	pairs := g.union(func(s *Site) *Bits { return &s.Pairs }).distinct()
	locks, _ := g.Members()
	if g.OneMade() {
		return float64(max(1, pairs-(locks-1)))
	}
	return float64(pairs) / float64(locks)
}

// OneLockShare is the share of a group's takes that says one of its
// locks made them, the rest another copy's taken rarely (as a closed
// database's cleanup goroutine took its own lock once).
const OneLockShare = 0.9

// OneMade says whether one lock made OneLockShare of the group's sampled
// takes: the largest bucket holds that share in both hashes (two locks
// used alike share both buckets one time in 1024).
func (g Group) OneMade() bool {
	var shares [64]uint64
	for _, s := range g.Sites {
		for k, n := range s.Shares {
			shares[k] += n
		}
	}
	for _, half := range [][]uint64{shares[:32], shares[32:]} {
		var sum, top uint64
		for _, n := range half {
			sum, top = sum+n, max(top, n)
		}
		if sum == 0 || float64(top) < OneLockShare*float64(sum) {
			return false
		}
	}
	return true
}

// Groups are run's sites that took a lock, grouped by sameLocks.
func Groups(run Run) []Group {
	sites := slices.DeleteFunc(slices.Clone(run.Sites), func(s Site) bool { return s.Locks == 0 })
	// Union-find: a site joins the groups it overlaps, which merge.
	parent := make([]int, len(sites))
	for i := range parent {
		parent[i] = i
	}
	root := func(i int) int {
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
		out[i].Name = out[i].name()
	}
	return out
}

// sameLocks says whether two sites take the same locks: in both halves,
// their bits overlap in at least half of the fewer's. A one-lock site
// matches only another one-lock site: its bit falls among 64 shards' bits
// one time in 16 by chance (sync.Pool's lock beside a sharded book's).
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

// name joins the first two site names and counts the rest, lest a lock
// taken in many places make a name no table holds.
func (g Group) name() string {
	names := g.distinctBy(Site.Name)
	if len(names) > 2 {
		return fmt.Sprintf("%s + %s + %d more", names[0], names[1], len(names)-2)
	}
	return strings.Join(names, " + ")
}

// Machines are run's lock groups as a point's machines: a group of k locks
// is k machines ("name#1" …) sharing its uses and holds equally, as a
// study's sharded meters are, and one where one lock made them (OneMade).
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
			locks += float64(s.Locks)
			follows += float64(s.Follows)
			handoffs += float64(s.Handoffs)
			wait += float64(s.WaitNs)
			if s.Kind == 3 {
				reads += float64(s.Locks)
			} else {
				held += max(0, s.Held()-float64(s.Locks)*run.timingNs())
				waitedNs += float64(s.WaitedHeldNs)
				waitedN += float64(s.WaitedTimed)
				freeNs += float64(s.HeldNs) - WaitEvery*float64(s.WaitedHeldNs)
				freeN += float64(s.Locks) - float64(s.Contended)
			}
			switch s.Kind {
			case 2, 3:
				kind = meter.KindRWMutex
			case 4:
				kind = meter.KindSend
			case 5:
				kind = meter.KindReceive
			}
		}
		k, exact := g.Members()
		if g.OneMade() {
			k = 1 // the others' few takes counted as its
		}
		m := results.Machine{Name: g.Name, Kind: kind, Uses: int64(math.Round(locks / float64(k))),
			BusyFrac: held / float64(k) / float64(window), MeanWaitMs: wait / locks / 1e6,
			Reads: int64(math.Round(reads / float64(k))), Takers: g.Takers(), Goroutines: g.Goroutines(), Estimated: !exact,
			Follows: int64(math.Round(follows / float64(k))), Handoffs: int64(math.Round(handoffs / float64(k))),
			Via: g.Via()}
		if waitedN > 0 {
			m.AfterWaitHoldNs = max(0, waitedNs/waitedN-run.timingNs())
			m.AfterWaitTimed = int64(waitedN)
			if freeN > 0 && freeNs > 0 {
				m.FreeHoldNs = max(0, freeNs/freeN-run.timingNs())
			}
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
