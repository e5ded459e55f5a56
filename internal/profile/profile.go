package profile

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"strings"
	"time"

	"github.com/google/pprof/profile"
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

// FilesFor names the files of a session with the base path base, e.g.
// "prof/finelocking-2cpu" gives "prof/finelocking-2cpu.trace" and so on.
func FilesFor(base string) Files {
	return Files{Trace: base + TraceExt, CPU: base + CPUExt, Block: base + BlockExt, Mutex: base + MutexExt}
}

func (f Files) all() []string { return []string{f.Trace, f.CPU, f.Block, f.Mutex} }

// CheckBase tells whether base can name a session's files: a path whose
// last element is a name (not a folder), in a folder that exists. It
// creates nothing.
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
// is traced and its CPU, block and mutex profiles recorded. Only one can
// run in a process at a time, as the runtime allows one CPU profile and
// one trace. Its methods must be called from one goroutine at a time.
type Session struct {
	files      Files
	trace, cpu *tempFile // written while the session runs
	// blockBefore and mutexBefore are the runtime's cumulative profiles at
	// the start, which Stop subtracts from those at the end.
	blockBefore, mutexBefore []byte
	start                    time.Time
	mutexRate                int // to restore
	ended                    bool
}

// Start begins profiling: an execution trace and a CPU profile, written
// as they go to temporary files beside base, and block and mutex profiling
// of every event. It fails, having changed nothing, when base's folder
// cannot be written or when this process is already tracing or
// CPU-profiling.
func Start(base string) (*Session, error) {
	if err := CheckBase(base); err != nil {
		return nil, err
	}
	s := &Session{files: FilesFor(base)}
	var err error
	if s.trace, err = newTemp(s.files.Trace); err != nil {
		return nil, err
	}
	if s.cpu, err = newTemp(s.files.CPU); err != nil {
		s.trace.remove()
		return nil, err
	}
	// The snapshots come before the rates go up, so that they hold only
	// what was recorded before the window (nothing, in a fresh process).
	var block, mutex bytes.Buffer
	if err := errors.Join(pprof.Lookup("block").WriteTo(&block, 0), pprof.Lookup("mutex").WriteTo(&mutex, 0)); err != nil {
		s.removeTemps()
		return nil, fmt.Errorf("profile: snapshot the block and mutex profiles: %w", err)
	}
	s.blockBefore, s.mutexBefore = block.Bytes(), mutex.Bytes()
	s.start = time.Now()
	runtime.SetBlockProfileRate(1)
	s.mutexRate = runtime.SetMutexProfileFraction(1)
	if err := pprof.StartCPUProfile(s.cpu); err != nil {
		s.restoreRates()
		s.removeTemps()
		return nil, fmt.Errorf("profile: start the CPU profile: %w (only one can run in a process)", err)
	}
	if err := trace.Start(s.trace); err != nil {
		pprof.StopCPUProfile()
		s.restoreRates()
		s.removeTemps()
		return nil, fmt.Errorf("profile: start the execution trace: %w (only one can run in a process)", err)
	}
	return s, nil
}

// Stop ends the session and writes its four files, each whole or not at
// all: on an error, none is left behind. Block profiling is turned off
// again (the runtime cannot say what its rate was before) and the mutex
// profile's fraction set back to what it was.
func (s *Session) Stop() (Files, error) {
	if s.ended {
		return Files{}, errors.New("profile: session already stopped")
	}
	s.ended = true
	// The block and mutex profiles first: the window ends now, not after
	// the trace and the CPU profile have been flushed.
	var block, mutex bytes.Buffer
	snapErr := errors.Join(pprof.Lookup("block").WriteTo(&block, 0), pprof.Lookup("mutex").WriteTo(&mutex, 0))
	end := time.Now()
	s.restoreRates()
	trace.Stop() // returns once the trace is written
	pprof.StopCPUProfile()
	traceErr, cpuErr := s.trace.close(), s.cpu.close()
	if err := errors.Join(snapErr, wrote(s.files.Trace, traceErr), wrote(s.files.CPU, cpuErr)); err != nil {
		s.removeTemps()
		return Files{}, fmt.Errorf("profile: %w", err)
	}

	temps := []*tempFile{s.trace, s.cpu}
	fail := func(err error) (Files, error) {
		for _, t := range temps {
			t.remove()
		}
		return Files{}, err
	}
	for _, w := range []struct {
		path          string
		before, after []byte
	}{{s.files.Block, s.blockBefore, block.Bytes()}, {s.files.Mutex, s.mutexBefore, mutex.Bytes()}} {
		data, err := window(w.before, w.after, s.start, end)
		if err != nil {
			return fail(fmt.Errorf("profile: %s: %w", w.path, err))
		}
		t, err := newTemp(w.path)
		if err != nil {
			return fail(err)
		}
		temps = append(temps, t)
		t.Write(data) // an error is kept, and close reports it
		if err := wrote(w.path, t.close()); err != nil {
			return fail(fmt.Errorf("profile: %w", err))
		}
	}
	for i, t := range temps {
		if err := t.commit(); err != nil {
			// Take back those already in place: a set is whole or absent.
			for _, done := range temps[:i] {
				os.Remove(done.path)
			}
			return fail(fmt.Errorf("profile: %w", err))
		}
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
	s.trace.close()
	s.cpu.close()
	s.removeTemps()
}

func (s *Session) restoreRates() {
	runtime.SetBlockProfileRate(0)
	runtime.SetMutexProfileFraction(s.mutexRate)
}

func (s *Session) removeTemps() {
	s.trace.remove()
	s.cpu.remove()
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
	kept := w.Sample[:0]
	for _, smp := range w.Sample {
		for _, v := range smp.Value {
			if v != 0 {
				kept = append(kept, smp)
				break
			}
		}
	}
	w.Sample = kept
	w = w.Compact()
	w.TimeNanos, w.DurationNanos = start.UnixNano(), end.Sub(start).Nanoseconds()
	var buf bytes.Buffer
	if err := w.Write(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// tempFile is a file written under a temporary name beside path and
// renamed to path once complete. It keeps the first write error, as the
// runtime's trace and CPU profile writers drop theirs.
type tempFile struct {
	path string
	f    *os.File
	err  error
}

func newTemp(path string) (*tempFile, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("profile: create %s: %w", path, err)
	}
	return &tempFile{path: path, f: f}, nil
}

func (t *tempFile) Write(p []byte) (int, error) {
	if t.err != nil {
		return 0, t.err
	}
	n, err := t.f.Write(p)
	t.err = err
	return n, err
}

// close closes the file and reports the first error writing it.
func (t *tempFile) close() error {
	return errors.Join(t.err, t.f.Close())
}

// commit puts the file in place, readable by all like any file a user
// shares (a temporary file is private).
func (t *tempFile) commit() error {
	if err := os.Chmod(t.f.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(t.f.Name(), t.path)
}

func (t *tempFile) remove() { os.Remove(t.f.Name()) }

// wrote names the file an error writing it is about; nil stays nil.
func wrote(path string, err error) error {
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
