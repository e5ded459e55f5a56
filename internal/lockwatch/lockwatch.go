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
// the fast path: one Lock in 64 is counted and its hold timed, every
// contended one counted with its wait; a site's uncontended counts and
// its holds are estimates, its waits exact. A sampled hold longer than a
// millisecond (its holder descheduled, or stopped for the garbage
// collector) counts once, not 64 times.
// A reader's hold is not timed (readers share the lock).
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
// outside", holds one site's locks NS longer, or adds NS of work before
// every lock (an experiment of why); NoStretch does what an experiment
// does to every lock but stretch it.
const (
	Env        = "BREWPUT_LOCKS"
	StretchEnv = "BREWPUT_LOCKS_STRETCH"
	NoStretch  = "0 none"
)

//go:embed overlay/sync.go.txt
var syncWatch []byte

//go:embed overlay/testing.go.txt
var testingWatch []byte

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
	added := map[string][]byte{"sync/brewput_watch.go": syncWatch, "testing/brewput_watch.go": testingWatch,
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
// name (runN → runNUnwatched, Lock → lockUnwatched), and gives sync's
// Mutex the fields that time a sampled hold.
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
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil || len(d.Recv.List) != 1 {
				continue
			}
			star, ok := d.Recv.List[0].Type.(*ast.StarExpr)
			if !ok {
				continue
			}
			typ, ok := star.X.(*ast.Ident)
			if !ok || !slices.Contains(methods, typ.Name+"."+d.Name.Name) {
				continue
			}
			name := d.Name.Name
			edits = append(edits, edit{at: fset.Position(d.Name.Pos()).Offset, drop: len(name),
				text: strings.ToLower(name[:1]) + name[1:] + "Unwatched"})
			found[typ.Name+"."+name] = true
		case *ast.GenDecl:
			for _, s := range d.Specs {
				ts, ok := s.(*ast.TypeSpec)
				if !ok || ts.Name.Name != "Mutex" || file != "sync/mutex.go" {
					continue
				}
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					continue
				}
				edits = append(edits, edit{at: fset.Position(st.Fields.Closing).Offset,
					text: "\n\twatchAt, watchWait   int64 // a noted lock's hold start (-1 untimed) and wait (-1 none) (lockwatch)\n\twatchSlot, watchRand uint32\n"})
				found["Mutex{}"] = true
			}
		}
	}
	want := slices.Clone(methods)
	if file == "sync/mutex.go" {
		want = append(want, "Mutex{}")
	}
	for _, m := range want {
		if !found[m] {
			return nil, &CannotWatch{Reason: fmt.Sprintf("%s declares no %s", file, strings.TrimSuffix(m, "{}"))}
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
	// once: Machines takes it off.
	ClockNs int64  `json:"clock_ns"`
	Sites   []Site `json:"sites"`
}

// Site is one lock site: the call to Lock or RLock at File:Line in Func.
type Site struct {
	Func string `json:"func"`
	File string `json:"file"`
	Line int    `json:"line"`
	// Kind is 1 for a sync.Mutex, 2 an RWMutex's writers, 3 its readers.
	Kind int `json:"kind"`
	// Locks and HeldNs are estimated from the sampled locks; Contended
	// and WaitNs count every lock that waited.
	Locks     uint64 `json:"locks"`
	Contended uint64 `json:"contended"`
	WaitNs    uint64 `json:"wait_ns"`
	HeldNs    uint64 `json:"held_ns"`
	// Addrs has a bit per hash of a sampled lock's address.
	Addrs [16]uint64 `json:"addrs"`
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
		runs = append(runs, r)
	}
	return runs, sc.Err()
}

// Where is the site's "file:line", as StretchEnv names it.
func (s Site) Where() string { return fmt.Sprintf("%s:%d", s.File, s.Line) }

// Name names the site for people: "(*Book).Place at book.go:42", the
// function without its package path.
func (s Site) Name() string {
	fn := s.Func
	if i := strings.LastIndex(fn, "/"); i >= 0 {
		fn = fn[i+1:]
	}
	if _, rest, ok := strings.Cut(fn, "."); ok {
		fn = rest
	}
	return fmt.Sprintf("%s at %s:%d", fn, filepath.Base(s.File), s.Line)
}

// MaxMembers is the most locks a site can be told to take: more read as
// this many (its 1024 bits all set).
const MaxMembers = 7100

// Members estimates how many locks the site takes from its 1024 address
// bits: the bits set while at most half are, else by linear counting.
// Locks laid out at a regular stride (shards in an array) hash to
// distinct bits, where linear counting, made for random hashes, would
// count 74 of 64; random addresses collide a little (about 62 of 64).
func (s Site) Members() int {
	const m = 1024
	set := 0
	for _, w := range s.Addrs {
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

// Kind is the site's meter kind.
func (s Site) kind() string {
	if s.Kind == 1 {
		return meter.KindMutex
	}
	return meter.KindRWMutex
}

// Group is the sites that take the same locks, as their address bits
// tell (readers apart from writers): a lock taken at two sites is one
// resource, two sites' names joined by " + ". A site whose locks no other
// site takes is a group of its own.
type Group struct {
	Name  string
	Sites []Site
}

// Target is what StretchEnv names to stretch the group: its sites'
// "file:line", joined by commas.
func (g Group) Target() string {
	var out []string
	for _, s := range g.Sites {
		out = append(out, s.Where())
	}
	return strings.Join(out, ",")
}

// Groups are run's sites that took a lock, grouped by the locks they take
// (two distinct locks whose addresses hash alike, 1 in 1024 for single
// locks, would be taken for one).
func Groups(run Run) []Group {
	var out []Group
	key := func(s Site) [17]uint64 {
		var k [17]uint64
		copy(k[:], s.Addrs[:])
		if s.Kind == 3 {
			k[16] = 1
		}
		return k
	}
	index := map[[17]uint64]int{}
	for _, s := range run.Sites {
		if s.Locks == 0 {
			continue
		}
		k := key(s)
		if i, ok := index[k]; ok && k != ([17]uint64{}) {
			out[i].Sites = append(out[i].Sites, s)
			out[i].Name += " + " + s.Name()
			continue
		}
		index[k] = len(out)
		out = append(out, Group{Name: s.Name(), Sites: []Site{s}})
	}
	return out
}

// Machines are run's lock groups as a point's machines: a group of k
// locks is k machines ("name#1" …) with an equal share of its sites' uses
// and holds, as a study's sharded meters are.
func Machines(run Run) []results.Machine {
	window := time.Duration(run.Ns)
	if window <= 0 {
		return nil
	}
	var out []results.Machine
	for _, g := range Groups(run) {
		var locks, held, wait float64
		k := 1
		for _, s := range g.Sites {
			locks += float64(s.Locks)
			wait += float64(s.WaitNs)
			if s.Kind != 3 {
				held += max(0, float64(s.HeldNs)-float64(s.Locks)*float64(run.ClockNs))
			}
			k = max(k, s.Members())
		}
		m := results.Machine{Name: g.Name, Kind: g.Sites[0].kind(), Uses: int64(math.Round(locks / float64(k))),
			BusyFrac: held / float64(k) / float64(window), MeanWaitMs: wait / locks / 1e6}
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
