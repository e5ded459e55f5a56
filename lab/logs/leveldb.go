package logs

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"github.com/syndtr/goleveldb/leveldb"
	"github.com/syndtr/goleveldb/leveldb/opt"
)

// LevelDBLog is the LevelDB kind: each value under its index, 8 bytes
// big-endian so that the keys sort in order. A put is in LevelDB's journal
// before it returns, so a value survives the process being killed; with
// Sync, the journal is fsynced too. Its zero value is closed and unsynced.
type LevelDBLog struct {
	Sync bool // write every value with WriteOptions.Sync; set before Open

	mu sync.RWMutex
	db *leveldb.DB
	n  int
}

func key(index int) []byte { return binary.BigEndian.AppendUint64(nil, uint64(index)) }

// Open opens or creates the database at path and counts its values; one
// with other keys than 0, 1, 2 … is not a log.
func (l *LevelDBLog) Open(path string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.db != nil {
		return ErrOpen
	}
	db, err := leveldb.OpenFile(path, nil)
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	n, err := count(db)
	if err != nil {
		db.Close()
		return fmt.Errorf("open %s: %w", path, err)
	}
	l.db, l.n = db, n
	return nil
}

func count(db *leveldb.DB) (int, error) {
	it := db.NewIterator(nil, nil)
	defer it.Release()
	n := 0
	for it.Next() {
		k := it.Key()
		if len(k) != 8 || binary.BigEndian.Uint64(k) != uint64(n) {
			return 0, fmt.Errorf("%w: key %x where index %d was due", ErrNotLog, k, n)
		}
		n++
	}
	return n, it.Error()
}

func (l *LevelDBLog) Append(value []byte) (int, error) {
	if len(value) > MaxValueBytes {
		return 0, fmt.Errorf("append: value of %d bytes, want at most %d", len(value), MaxValueBytes)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.db == nil {
		return 0, ErrClosed
	}
	if err := l.db.Put(key(l.n), value, &opt.WriteOptions{Sync: l.Sync}); err != nil {
		return 0, fmt.Errorf("append: %w", err)
	}
	l.n++
	return l.n - 1, nil
}

func (l *LevelDBLog) Get(index int) ([]byte, error) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if l.db == nil {
		return nil, ErrClosed
	}
	if index < 0 || index >= l.n {
		return nil, fmt.Errorf("get %d: %w (the log holds %d)", index, ErrNoEntry, l.n)
	}
	v, err := l.db.Get(key(index), nil)
	if errors.Is(err, leveldb.ErrNotFound) {
		return nil, fmt.Errorf("get %d: %w: deleted since Open", index, ErrCorrupt)
	}
	if err != nil {
		return nil, fmt.Errorf("get %d: %w", index, err)
	}
	return v, nil // a copy: goleveldb's Get returns its own
}

func (l *LevelDBLog) Len() int {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.n
}

func (l *LevelDBLog) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.db == nil {
		return ErrClosed
	}
	err := l.db.Close()
	l.db, l.n = nil, 0
	return err
}
