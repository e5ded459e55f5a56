package logs

import (
	"fmt"
	"slices"
	"sync"
)

// MemoryLog is the Memory kind: the values in a slice under a lock. It
// is the lab's reference for what the lock alone costs. Its zero value is
// a closed log.
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
