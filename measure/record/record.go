// Package record records a measured window and says where its goroutines
// waited. Start begins an execution trace and a CPU profile and turns on
// block and mutex profiling; Stop writes BASE.trace, BASE.cpu.pprof,
// BASE.block.pprof and BASE.mutex.pprof, the last two less what they held
// at Start, so that they cover the window alone.
//
// Summarize says, per site and kind of wait, how often and how long
// goroutines parked on a lock, channel, select, sync.Cond or WaitGroup,
// summed over goroutines (a total can exceed the window); not the wait for
// a CPU, spinning, sleep or system calls, which the trace and meters show.
// Profiling costs something: compare points measured alike.
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

// The extensions of a session's files.
const (
	TraceExt = ".trace"
	CPUExt   = ".cpu.pprof"
	BlockExt = ".block.pprof"
	MutexExt = ".mutex.pprof"
)

// Files are the paths of a Session's files: the trace (go tool trace) and
// the profiles (go tool pprof).
type Files struct {
	Trace             string
	CPU, Block, Mutex string
}

func FilesFor(base string) Files {
	return Files{Trace: base + TraceExt, CPU: base + CPUExt, Block: base + BlockExt, Mutex: base + MutexExt}
}

// CheckBase tells, creating nothing, whether base can name a session's
// files: a name in a folder that exists.
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

// Session is a window being profiled, one per process at a time, as the
// runtime allows one CPU profile and one trace.
type Session struct {
	files                    Files
	trace, cpu               *atomicfile.File // written while the session runs
	blockBefore, mutexBefore []byte           // the profiles at Start, which Stop subtracts
	start                    time.Time
	mutexRate                int // to restore
	ended                    bool
}

// Start begins profiling: a trace and a CPU profile, written beside base
// as they go, and every block and mutex event. It fails having changed
// nothing where base's folder is not writable or the process already
// traces or profiles.
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
	// Snapshots before the rates go up hold only what came before the window.
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
// profiling is turned off (its old rate cannot be read), the mutex
// fraction restored.
func (s *Session) Stop() (Files, error) {
	if s.ended {
		return Files{}, errors.New("profile: session already stopped")
	}
	s.ended = true
	// Block and mutex profiles first: the window ends now, not after the
	// trace and CPU profile are flushed.
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

// Abort ends a session not to be kept, removing its temporary files; it
// does nothing after Stop.
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

func create(path string) (*atomicfile.File, error) {
	f, err := atomicfile.Create(path)
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	return f, nil
}

// window is the profile of the window between two snapshots of a
// cumulative block or mutex profile.
func window(before, after []byte, start, end time.Time) ([]byte, error) {
	b, err := profile.ParseData(before)
	if err != nil {
		return nil, fmt.Errorf("read the snapshot at the start: %w", err)
	}
	if len(b.Sample) == 0 {
		return after, nil // nothing before the window (a fresh process)
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

// CheckDir tells, creating nothing, whether dir can take each point's
// trace and profiles; its errors name --profile.
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
