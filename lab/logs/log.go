package logs

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Log is an append-only log of byte values, numbered from 0. Each kind is
// safe for concurrent use and serial: one lock is held across an append
// (the write, and the fsync when syncing), so that an append's index and
// its place on disk agree, and a log cut short by a crash is a prefix of
// the appends made.
type Log interface {
	// Open opens or creates the log at path and reads what is there; an
	// open log must be closed before it is opened again.
	Open(path string) error
	// Append adds a copy of value at the end of the log and returns its
	// index; the value is then in the log, as durably as the kind says.
	Append(value []byte) (index int, err error)
	// Get returns a copy of the value at index; an index outside 0 to
	// Len()-1 is an error that wraps ErrNoEntry.
	Get(index int) ([]byte, error)
	// Len is the number of values in the log, 0 when it is not open.
	Len() int
	// Close closes the log; its files stay. Closing a log that is not
	// open returns ErrClosed.
	Close() error
}

// The errors a Log's methods wrap.
var (
	// ErrClosed is the error of every method but Open on a log that is not
	// open: never opened, or closed.
	ErrClosed = errors.New("log is not open")
	// ErrOpen is the error of Open on a log that is open.
	ErrOpen = errors.New("log is already open")
	// ErrNoEntry is wrapped by the error of Get for an index the log does
	// not hold.
	ErrNoEntry = errors.New("no entry at that index")
	// ErrNotLog is wrapped by the error of Open on a file or database that
	// was not written by a Log of the same kind; Open leaves it as it is.
	ErrNotLog = errors.New("not a log of this kind")
	// ErrCorrupt is wrapped by the error of Get when what is stored at an
	// index fails its check: changed on disk since Open read it.
	ErrCorrupt = errors.New("log entry corrupt")
)

// MaxValueBytes is the largest value Append takes: the file kind's
// length field holds more, but a value this large is a mistake.
const MaxValueBytes = 64 << 20

// Kind is a kind of log: where its values live.
type Kind string

// The kinds of log.
const (
	// Memory keeps the values in a slice: nothing on disk, and nothing
	// left after Close. Its path is ignored, and it has nothing to sync.
	Memory Kind = "memory"
	// File writes each value to the end of one file, a record with its
	// length and checksum, one write per append (and an fsync, syncing).
	File Kind = "file"
	// LevelDB puts each value in a LevelDB database (goleveldb) in the
	// directory at path, under its index as the key.
	LevelDB Kind = "leveldb"
)

// Kinds lists every kind, in the order the lab sweeps them by default.
func Kinds() []Kind { return []Kind{Memory, File, LevelDB} }

// kindNames is "memory, file or leveldb", for messages.
func kindNames() string {
	ks := Kinds()
	names := make([]string, len(ks))
	for i, k := range ks {
		names[i] = string(k)
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
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

// MemoryLog is the Memory kind: the values in a slice under a lock, the
// reference for what the lock alone costs. Its zero value is closed.
type MemoryLog struct {
	mu     sync.RWMutex
	open   bool
	values [][]byte
}

// Open makes the log open and empty; the path is ignored, as nothing of a
// memory log outlives Close.
func (l *MemoryLog) Open(string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open {
		return ErrOpen
	}
	l.open, l.values = true, nil
	return nil
}

// Append adds a copy of value and returns its index.
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

// Get returns a copy of the value at index.
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

// Len is the number of values, 0 when the log is not open.
func (l *MemoryLog) Len() int {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return len(l.values)
}

// Close closes the log and drops its values.
func (l *MemoryLog) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.open {
		return ErrClosed
	}
	l.open, l.values = false, nil
	return nil
}
