package logs

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// The file kind's format: a header, magic, then one record per value, in
// index order:
//
//	length   uint32, little-endian: the value's length in bytes
//	checksum uint32, little-endian: CRC-32C of the length's 4 bytes and the value
//	value    length bytes
//
// A record is one write system call: a process killed mid-append leaves at
// most one partial record at the end, and Open cuts the file at the first
// record incomplete or failing its checksum: a prefix of the appends.
const (
	magic        = "BRWLOG1\n"
	recordHeader = 8
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// FileLog is the File kind: one file, a record per value appended at its
// end, each record's offset kept in memory. An appended value survives the
// process being killed; with Sync, the machine failing too. Nothing locks
// the file: one FileLog at a time. Its zero value is closed and unsynced.
type FileLog struct {
	Sync bool // fsync every Append before it returns; set before Open

	mu      sync.RWMutex
	f       *os.File
	offsets []int64 // where each record starts
	size    int64   // the end of the last whole record
}

// Open opens or creates the file at path, reads the offset of every whole
// record, and cuts off a torn or garbled tail; it leaves alone a file
// without the log's header (ErrNotLog).
func (l *FileLog) Open(path string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f != nil {
		return ErrOpen
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	offsets, end, size, err := scan(f)
	switch {
	case err != nil:
	case size < int64(len(magic)):
		// New, or torn while its header was written: write the header.
		if err = f.Truncate(0); err == nil {
			_, err = f.WriteAt([]byte(magic), 0)
		}
		if err == nil {
			end, size = int64(len(magic)), int64(len(magic))
			err = l.syncNew(f, path)
		}
	case end < size:
		// Cut off the torn tail, durably, before a record follows.
		if err = f.Truncate(end); err == nil {
			err = f.Sync()
		}
	}
	if err != nil {
		f.Close()
		return fmt.Errorf("open %s: %w", path, err)
	}
	l.f, l.offsets, l.size = f, offsets, end
	return nil
}

// syncNew makes a new file's header and name durable when the log syncs,
// lest a crash lose the file and every synced append in it.
func (l *FileLog) syncNew(f *os.File, path string) error {
	if !l.Sync {
		return nil
	}
	if err := f.Sync(); err != nil {
		return err
	}
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// scan returns the offset of each whole record of f, where the last one
// ends, and f's size; a prefix of the header counts as empty.
func scan(f *os.File) (offsets []int64, end, size int64, err error) {
	info, err := f.Stat()
	if err != nil {
		return nil, 0, 0, err
	}
	size = info.Size()
	head := make([]byte, min(size, int64(len(magic))))
	if _, err := io.ReadFull(f, head); err != nil {
		return nil, 0, 0, err
	}
	if !bytes.HasPrefix([]byte(magic), head) {
		return nil, 0, 0, fmt.Errorf("%w: the file does not start with %q", ErrNotLog, magic)
	}
	if size < int64(len(magic)) {
		return nil, 0, size, nil
	}
	r := bufio.NewReaderSize(io.NewSectionReader(f, 0, size), 1<<16)
	if _, err := r.Discard(len(magic)); err != nil {
		return nil, 0, 0, err
	}
	end = int64(len(magic))
	var hdr [recordHeader]byte
	var value []byte
	for {
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			break // the end, or a torn header
		}
		n := binary.LittleEndian.Uint32(hdr[0:4])
		if int64(n) > size-end-recordHeader || n > MaxValueBytes {
			break // torn, or a garbled length
		}
		if cap(value) < int(n) {
			value = make([]byte, n)
		}
		value = value[:n]
		if _, err := io.ReadFull(r, value); err != nil {
			return nil, 0, 0, err // the length said it is there
		}
		if checksum(hdr[0:4], value) != binary.LittleEndian.Uint32(hdr[4:8]) {
			break
		}
		offsets = append(offsets, end)
		end += recordHeader + int64(n)
	}
	return offsets, end, size, nil
}

// checksum is a record's CRC-32C: of its length field, then its value.
func checksum(length, value []byte) uint32 {
	return crc32.Update(crc32.Checksum(length, castagnoli), castagnoli, value)
}

func record(value []byte) []byte {
	rec := make([]byte, recordHeader+len(value))
	binary.LittleEndian.PutUint32(rec[0:4], uint32(len(value)))
	copy(rec[recordHeader:], value)
	binary.LittleEndian.PutUint32(rec[4:8], checksum(rec[0:4], value))
	return rec
}

func (l *FileLog) Append(value []byte) (int, error) {
	if len(value) > MaxValueBytes {
		return 0, fmt.Errorf("append: value of %d bytes, want at most %d", len(value), MaxValueBytes)
	}
	rec := record(value) // outside the lock: it needs none
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return 0, ErrClosed
	}
	// A failed write leaves the end where it was, for the next record to
	// overwrite or Open to cut off.
	if _, err := l.f.WriteAt(rec, l.size); err != nil {
		return 0, fmt.Errorf("append: %w", err)
	}
	if l.Sync {
		if err := l.f.Sync(); err != nil {
			return 0, fmt.Errorf("append: %w", err)
		}
	}
	l.offsets = append(l.offsets, l.size)
	l.size += int64(len(rec))
	return len(l.offsets) - 1, nil
}

func (l *FileLog) Get(index int) ([]byte, error) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if l.f == nil {
		return nil, ErrClosed
	}
	if index < 0 || index >= len(l.offsets) {
		return nil, fmt.Errorf("get %d: %w (the log holds %d)", index, ErrNoEntry, len(l.offsets))
	}
	next := l.size
	if index+1 < len(l.offsets) {
		next = l.offsets[index+1]
	}
	rec := make([]byte, next-l.offsets[index])
	if _, err := l.f.ReadAt(rec, l.offsets[index]); err != nil {
		return nil, fmt.Errorf("get %d: %w", index, err)
	}
	value := rec[recordHeader:]
	if int(binary.LittleEndian.Uint32(rec[0:4])) != len(value) || checksum(rec[0:4], value) != binary.LittleEndian.Uint32(rec[4:8]) {
		return nil, fmt.Errorf("get %d: %w", index, ErrCorrupt)
	}
	return value, nil
}

func (l *FileLog) Len() int {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return len(l.offsets)
}

func (l *FileLog) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return ErrClosed
	}
	err := l.f.Close()
	l.f, l.offsets, l.size = nil, nil, 0
	return err
}
