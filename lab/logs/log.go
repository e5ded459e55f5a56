package logs

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
)

// Log is an append-only log of byte values, numbered from 0. Each kind is
// safe for concurrent use and serial: one lock is held across an append
// (the write, and the fsync when syncing), so that an index and a place
// on disk agree, and a log cut short by a crash is a prefix of the appends.
type Log interface {
	Open(path string) error                     // opens or creates the log at path
	Append(value []byte) (index int, err error) // a copy of value, as durably as the kind says
	Get(index int) ([]byte, error)              // a copy; ErrNoEntry outside 0 to Len()-1
	Len() int                                   // 0 when not open
	Close() error                               // its files stay
}

// The errors a Log's methods wrap.
var (
	ErrClosed  = errors.New("log is not open")        // every method but Open on a log not open
	ErrOpen    = errors.New("log is already open")    // Open on an open log
	ErrNoEntry = errors.New("no entry at that index") // Get of an index the log does not hold
	ErrNotLog  = errors.New("not a log of this kind") // Open of what another kind wrote, left as it is
	ErrCorrupt = errors.New("log entry corrupt")      // Get of an entry changed on disk since Open
)

// MaxValueBytes is the largest value Append takes: larger is a mistake.
const MaxValueBytes = 64 << 20

// Kind is a kind of log: where its values live.
type Kind string

const (
	Memory  Kind = "memory"  // the values in a slice: nothing to sync, nothing left after Close
	File    Kind = "file"    // a record per value at the end of one file, one write per append
	LevelDB Kind = "leveldb" // a goleveldb database in the directory at path, each value under its index
)

// Kinds lists every kind, in the order the lab sweeps them by default.
func Kinds() []Kind { return []Kind{Memory, File, LevelDB} }

func kindNames() string {
	return format.JoinOr(collect.Mapped(Kinds(), func(k Kind) string { return string(k) }))
}

// New returns a log of kind, not yet open, that syncs each append if
// sync is set (a memory log has nothing to sync).
func New(kind Kind, sync bool) (Log, error) {
	switch kind {
	case Memory:
		return &MemoryLog{}, nil
	case File:
		return &FileLog{Sync: sync}, nil
	case LevelDB:
		return &LevelDBLog{Sync: sync}, nil
	}
	return nil, fmt.Errorf("kind %q: want %s", kind, kindNames())
}

// MemoryLog is the Memory kind: what the lock alone costs. Its zero value
// is closed.
type MemoryLog struct {
	mu     sync.RWMutex
	open   bool
	values [][]byte
}

// Open makes the log open and empty; the path is ignored.
func (l *MemoryLog) Open(string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open {
		return ErrOpen
	}
	l.open, l.values = true, nil
	return nil
}

func (l *MemoryLog) Append(value []byte) (int, error) {
	if len(value) > MaxValueBytes {
		return 0, fmt.Errorf("append: value of %d bytes, want at most %d", len(value), MaxValueBytes)
	}
	v := slices.Clone(value)
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.open {
		return 0, ErrClosed
	}
	l.values = append(l.values, v)
	return len(l.values) - 1, nil
}

func (l *MemoryLog) Get(index int) ([]byte, error) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if !l.open {
		return nil, ErrClosed
	}
	if index < 0 || index >= len(l.values) {
		return nil, fmt.Errorf("get %d: %w (the log holds %d)", index, ErrNoEntry, len(l.values))
	}
	return slices.Clone(l.values[index]), nil
}

func (l *MemoryLog) Len() int {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return len(l.values)
}

func (l *MemoryLog) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.open {
		return ErrClosed
	}
	l.open, l.values = false, nil
	return nil
}
