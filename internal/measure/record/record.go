// Package record records what a measured window did and answers where
// its goroutines waited.
//
// Start, at the window's start, begins an execution trace and a CPU
// profile and turns on block and mutex profiling; Stop writes BASE.trace,
// BASE.cpu.pprof, BASE.block.pprof and BASE.mutex.pprof (for go tool trace
// and go tool pprof), the block and mutex profiles less what they held at
// Start, so that they cover the window alone.
//
// Summarize reads a block profile and says, per place in the code and
// kind of wait (mutex, channel, select, …), how many times goroutines
// waited there, for how long in all and per operation. The block profile
// records every park on a lock, channel, select, sync.Cond or WaitGroup,
// from parking until woken, summed over goroutines (so a total can exceed
// the window); it leaves out the wait for a CPU after waking, spinning,
// sleep and system calls, which the trace and a machine's meter show.
// Profiling costs something: compare points measured the same way.
package record

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"strings"
	"time"

	"github.com/google/pprof/profile"

	"github.com/brewput/brewput/internal/base/atomicfile"
)

// The extensions of a session's files, after its base path.
const (
	TraceExt = ".trace"
	CPUExt   = ".cpu.pprof"
	BlockExt = ".block.pprof"
	MutexExt = ".mutex.pprof"
)

// Files are the paths of the four files a Session writes.
type Files struct {
	// Trace is the execution trace, for go tool trace.
	Trace string
	// CPU, Block and Mutex are the profiles, for go tool pprof.
	CPU, Block, Mutex string
}

// FilesFor names the files of a session with the base path base.
func FilesFor(base string) Files {
	return Files{Trace: base + TraceExt, CPU: base + CPUExt, Block: base + BlockExt, Mutex: base + MutexExt}
}

// CheckBase tells whether base can name a session's files: a name in a
// folder that exists. It creates nothing.
func CheckBase(base string) error {
	name := filepath.Base(base)
	if base == "" || strings.HasSuffix(base, "/") || strings.HasSuffix(base, string(filepath.Separator)) || name == "." || name == ".." {
		return fmt.Errorf("profile base %q: want a path that names the files, such as prof/finelocking-2cpu", base)
	}
	dir := filepath.Dir(base)
	info, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("profile base %q: its folder: %w", base, err)
	}
	if !info.IsDir() {
		return fmt.Errorf("profile base %q: %s is not a folder", base, dir)
	}
	return nil
}

// Session is a window being profiled: between Start and Stop, the process
// is traced and its CPU, block and mutex profiles recorded. One runs in a
// process at a time, as the runtime allows one CPU profile and one trace.
type Session struct {
	files      Files
	trace, cpu *atomicfile.File // written while the session runs
	// blockBefore and mutexBefore are the cumulative profiles at the
	// start, which Stop subtracts from those at the end.
	blockBefore, mutexBefore []byte
	start                    time.Time
	mutexRate                int // to restore
	ended                    bool
}

// Start begins profiling: an execution trace and a CPU profile, written
// as they go beside base, and block and mutex profiling of every event.
// It fails, having changed nothing, when base's folder cannot be written
// or this process is already tracing or CPU-profiling.
func Start(base string) (*Session, error) {
	if err := CheckBase(base); err != nil {
		return nil, err
	}
	s := &Session{files: FilesFor(base)}
	var err error
	if s.trace, err = create(s.files.Trace); err != nil {
		return nil, fmt.Errorf("profile: %w", err)
	}
	if s.cpu, err = create(s.files.CPU); err != nil {
		s.trace.Discard()
		return nil, fmt.Errorf("profile: %w", err)
	}
	// The snapshots come before the rates go up, so that they hold only
	// what was recorded before the window (nothing, in a fresh process).
	var block, mutex bytes.Buffer
	if err := errors.Join(pprof.Lookup("block").WriteTo(&block, 0), pprof.Lookup("mutex").WriteTo(&mutex, 0)); err != nil {
		s.discard()
		return nil, fmt.Errorf("profile: snapshot the block and mutex profiles: %w", err)
	}
	s.blockBefore, s.mutexBefore = block.Bytes(), mutex.Bytes()
	s.start = time.Now()
	runtime.SetBlockProfileRate(1)
	s.mutexRate = runtime.SetMutexProfileFraction(1)
	if err := pprof.StartCPUProfile(s.cpu); err != nil {
		s.restoreRates()
		s.discard()
		return nil, fmt.Errorf("profile: start the CPU profile: %w (only one can run in a process)", err)
	}
	if err := trace.Start(s.trace); err != nil {
		pprof.StopCPUProfile()
		s.restoreRates()
		s.discard()
		return nil, fmt.Errorf("profile: start the execution trace: %w (only one can run in a process)", err)
	}
	return s, nil
}

// Stop ends the session and writes its four files, all or none. Block
// profiling is turned off (the runtime cannot say its rate before) and the
// mutex profile's fraction set back.
func (s *Session) Stop() (Files, error) {
	if s.ended {
		return Files{}, errors.New("profile: session already stopped")
	}
	s.ended = true
	// The block and mutex profiles first: the window ends now, not after
	// the trace and the CPU profile have been flushed.
	var block, mutex bytes.Buffer
	err := errors.Join(pprof.Lookup("block").WriteTo(&block, 0), pprof.Lookup("mutex").WriteTo(&mutex, 0))
	end := time.Now()
	s.restoreRates()
	trace.Stop() // returns once the trace is written
	pprof.StopCPUProfile()
	files := []*atomicfile.File{s.trace, s.cpu}
	for _, w := range []struct {
		path          string
		before, after []byte
	}{{s.files.Block, s.blockBefore, block.Bytes()}, {s.files.Mutex, s.mutexBefore, mutex.Bytes()}} {
		data, werr := window(w.before, w.after, s.start, end)
		if werr != nil {
			werr = fmt.Errorf("%s: %w", w.path, werr)
		}
		f, cerr := create(w.path)
		if cerr == nil {
			files = append(files, f)
			f.Write(data) // an error is kept, and Commit returns it
		}
		err = errors.Join(err, werr, cerr)
	}
	for i, f := range files {
		if err != nil {
			f.Discard()
			continue
		}
		if err = f.Commit(); err != nil {
			err = fmt.Errorf("write %s: %w", f.Path(), err)
			for _, done := range files[:i] { // a set is whole or absent
				os.Remove(done.Path())
			}
		}
	}
	if err != nil {
		return Files{}, fmt.Errorf("profile: %w", err)
	}
	return s.files, nil
}

// Abort ends a session that is not to be kept, say when the measurement
// failed, and removes its temporary files. It does nothing after Stop.
func (s *Session) Abort() {
	if s.ended {
		return
	}
	s.ended = true
	s.restoreRates()
	trace.Stop()
	pprof.StopCPUProfile()
	s.discard()
}

func (s *Session) restoreRates() {
	runtime.SetBlockProfileRate(0)
	runtime.SetMutexProfileFraction(s.mutexRate)
}

func (s *Session) discard() {
	s.trace.Discard()
	s.cpu.Discard()
}

// create begins one of a session's files.
func create(path string) (*atomicfile.File, error) {
	f, err := atomicfile.Create(path)
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	return f, nil
}

// window turns two snapshots of a cumulative profile (block or mutex),
// taken at start and end, into the profile of the window between them.
func window(before, after []byte, start, end time.Time) ([]byte, error) {
	b, err := profile.ParseData(before)
	if err != nil {
		return nil, fmt.Errorf("read the snapshot at the start: %w", err)
	}
	if len(b.Sample) == 0 {
		// Nothing was recorded before the window (the usual case, a fresh
		// process): the runtime's own bytes are the window's profile.
		return after, nil
	}
	a, err := profile.ParseData(after)
	if err != nil {
		return nil, fmt.Errorf("read the profile at the end: %w", err)
	}
	b.Scale(-1)
	w, err := profile.Merge([]*profile.Profile{a, b})
	if err != nil {
		return nil, fmt.Errorf("subtract the snapshot at the start: %w", err)
	}
	w.Sample = slices.DeleteFunc(w.Sample, func(smp *profile.Sample) bool {
		return !slices.ContainsFunc(smp.Value, func(v int64) bool { return v != 0 })
	})
	w = w.Compact()
	w.TimeNanos, w.DurationNanos = start.UnixNano(), end.Sub(start).Nanoseconds()
	var buf bytes.Buffer
	if err := w.Write(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// CheckDir tells, before anything is measured, whether dir can take each
// point's trace and profiles: a folder that exists and is writable, or can
// be made. It creates nothing. Its errors name --profile, as the command
// lines that take the folder call it.
func CheckDir(dir string) error {
	if dir == "" {
		return fmt.Errorf("--profile: want a folder for the profiles, such as prof")
	}
	if info, err := os.Stat(dir); err == nil && !info.IsDir() {
		return fmt.Errorf("--profile %s: is a file; want a folder for the profiles", dir)
	}
	if err := atomicfile.CheckDir(dir, "the profiles"); err != nil {
		return fmt.Errorf("--profile %s: %w", dir, err)
	}
	return nil
}
