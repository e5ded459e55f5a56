package logs

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/syndtr/goleveldb/leveldb"
	"go.uber.org/goleak"

	"github.com/brewput/brewput/internal/base/race"
)

// TestMain checks with goleak, after all tests, that every writer and
// every LevelDB goroutine is gone, cancelled runs included. It gives them
// up to 3 seconds, where goleak.VerifyTestMain gives half of one: each
// goleveldb v1.0.0 database leaves a goroutine (mpoolDrain) that Close
// does not wait for, and that ends up to a second after it.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		deadline := time.Now().Add(3 * time.Second)
		for {
			err := goleak.Find()
			if err == nil {
				break
			}
			if time.Now().After(deadline) {
				fmt.Fprintf(os.Stderr, "goleak: goroutines left after the tests: %v\n", err)
				code = 1
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	os.Exit(code)
}

// kindCases are every kind, with and without sync.
var kindCases = []struct {
	kind Kind
	sync bool
}{{Memory, false}, {File, false}, {File, true}, {LevelDB, false}, {LevelDB, true}}

// open returns a new open log of kind in a temporary folder, and its
// path.
func open(t *testing.T, kind Kind, sync bool) (Log, string) {
	t.Helper()
	lg, err := New(kind, sync)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "log")
	if err := lg.Open(path); err != nil {
		t.Fatal(err)
	}
	return lg, path
}

// testValue is the i-th value the tests append: i bytes long, so that
// lengths vary from empty up, and different at every index.
func testValue(i int) []byte { return []byte(fmt.Sprintf("%0*d", i, i))[:i] }

// TestAppendGet: values come back as they were appended, at the index
// Append returned, from the open log and, but for memory, after a reopen.
// Neither Append nor Get shares memory with its caller.
func TestAppendGet(t *testing.T) {
	for _, kc := range kindCases {
		t.Run(Variant(kc.kind, kc.sync), func(t *testing.T) {
			lg, path := open(t, kc.kind, kc.sync)
			const n = 40
			for i := range n {
				v := testValue(i)
				index, err := lg.Append(v)
				if err != nil || index != i {
					t.Fatalf("Append #%d: index %d, %v", i, index, err)
				}
				if len(v) > 0 {
					v[0] ^= 0xff // Append must have taken a copy
				}
			}
			readAll := func(lg Log) {
				t.Helper()
				if got := lg.Len(); got != n {
					t.Fatalf("Len %d, want %d", got, n)
				}
				for i := range n {
					got, err := lg.Get(i)
					if err != nil || !bytes.Equal(got, testValue(i)) {
						t.Fatalf("Get(%d) = %q, %v; want %q", i, got, err, testValue(i))
					}
					if len(got) > 0 {
						got[0] ^= 0xff // and Get must have returned one
					}
				}
				for _, bad := range []int{-1, n, n + 100} {
					if _, err := lg.Get(bad); !errors.Is(err, ErrNoEntry) {
						t.Errorf("Get(%d) of %d: %v, want ErrNoEntry", bad, n, err)
					}
				}
			}
			readAll(lg)
			readAll(lg)
			if err := lg.Close(); err != nil {
				t.Fatal(err)
			}
			again, _ := New(kc.kind, kc.sync)
			if err := again.Open(path); err != nil {
				t.Fatal(err)
			}
			defer again.Close()
			if kc.kind == Memory {
				if again.Len() != 0 {
					t.Errorf("a memory log reopened holds %d values, want none", again.Len())
				}
				return
			}
			readAll(again)
			if index, err := again.Append([]byte("more")); err != nil || index != n {
				t.Errorf("Append after reopening: index %d, %v; want %d", index, err, n)
			}
		})
	}
}

// TestCloseAndOpen: a log that is not open refuses everything but Open,
// an open log refuses Open, and a closed log can be opened again.
func TestCloseAndOpen(t *testing.T) {
	for _, kc := range kindCases {
		t.Run(Variant(kc.kind, kc.sync), func(t *testing.T) {
			zero, _ := New(kc.kind, kc.sync)
			if _, err := zero.Append([]byte("x")); !errors.Is(err, ErrClosed) {
				t.Errorf("Append before Open: %v, want ErrClosed", err)
			}
			if err := zero.Close(); !errors.Is(err, ErrClosed) {
				t.Errorf("Close before Open: %v, want ErrClosed", err)
			}
			lg, path := open(t, kc.kind, kc.sync)
			if err := lg.Open(path); !errors.Is(err, ErrOpen) {
				t.Errorf("Open of an open log: %v, want ErrOpen", err)
			}
			if _, err := lg.Append([]byte("x")); err != nil {
				t.Fatal(err)
			}
			if err := lg.Close(); err != nil {
				t.Fatalf("Close: %v", err)
			}
			if err := lg.Close(); !errors.Is(err, ErrClosed) {
				t.Errorf("second Close: %v, want ErrClosed", err)
			}
			if _, err := lg.Append([]byte("x")); !errors.Is(err, ErrClosed) {
				t.Errorf("Append after Close: %v, want ErrClosed", err)
			}
			if _, err := lg.Get(0); !errors.Is(err, ErrClosed) {
				t.Errorf("Get after Close: %v, want ErrClosed", err)
			}
			if n := lg.Len(); n != 0 {
				t.Errorf("Len after Close: %d, want 0", n)
			}
			if err := lg.Open(path); err != nil {
				t.Fatalf("Open after Close: %v", err)
			}
			defer lg.Close()
			if want := map[bool]int{true: 0, false: 1}[kc.kind == Memory]; lg.Len() != want {
				t.Errorf("Len after Close and Open: %d, want %d", lg.Len(), want)
			}
		})
	}
	if _, err := New("tape", false); err == nil {
		t.Error(`New("tape") succeeded`)
	}
	if _, err := (&MemoryLog{}).Append(make([]byte, MaxValueBytes+1)); err == nil {
		t.Error("a value over MaxValueBytes was taken")
	}
}

// TestConcurrent: writers appending at once, beside readers, each get
// distinct indices, and every value is where its index says; under the
// race detector this also checks the locking.
func TestConcurrent(t *testing.T) {
	writers, each := 8, 300
	if race.Enabled {
		each = 60
	}
	for _, kc := range kindCases {
		t.Run(Variant(kc.kind, kc.sync), func(t *testing.T) {
			each := each
			if kc.sync {
				each /= 6 // every append waits for the disk
			}
			lg, _ := open(t, kc.kind, kc.sync)
			defer lg.Close()
			ws := make([]*writer, writers)
			for i := range ws {
				ws[i] = newWriter(i, each, 32, kc.sync)
			}
			gate := make(chan struct{})
			stop := make(chan struct{})
			var wg, readers sync.WaitGroup
			for _, w := range ws {
				wg.Go(func() { w.run(t.Context(), lg, gate) })
			}
			readers.Go(func() {
				for {
					select {
					case <-stop:
						return
					default:
					}
					if n := lg.Len(); n > 0 {
						if _, err := lg.Get(n - 1); err != nil {
							t.Errorf("Get(%d) while %d held: %v", n-1, n, err)
							return
						}
					}
				}
			})
			close(gate)
			wg.Wait()
			close(stop)
			readers.Wait()
			for _, w := range ws {
				if w.err != nil {
					t.Fatal(w.err)
				}
			}
			if err := check(lg, ws, writers*each, 32); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestCheckCatches: the check after each run fails on a log that lost,
// duplicated or changed an append, so that its passing means something.
func TestCheckCatches(t *testing.T) {
	const each = 5
	build := func() (Log, []*writer) {
		lg := &MemoryLog{}
		lg.Open("")
		ws := []*writer{newWriter(0, each, 16, false), newWriter(1, each, 16, false)}
		gate := make(chan struct{})
		close(gate)
		for _, w := range ws {
			w.run(t.Context(), lg, gate)
		}
		return lg, ws
	}
	lg, ws := build()
	if err := check(lg, ws, 2*each, 16); err != nil {
		t.Fatalf("a good log fails the check: %v", err)
	}
	for name, spoil := range map[string]func(lg Log, ws []*writer){
		"an extra value":         func(lg Log, ws []*writer) { lg.Append(make([]byte, 16)) },
		"an index given twice":   func(lg Log, ws []*writer) { ws[1].indices[2] = ws[0].indices[3] },
		"an index out of range":  func(lg Log, ws []*writer) { ws[0].indices[0] = 2 * each },
		"a value at wrong index": func(lg Log, ws []*writer) { ws[0].indices[1], ws[1].indices[1] = ws[1].indices[1], ws[0].indices[1] },
		"an append lost":         func(lg Log, ws []*writer) { ws[1].indices = ws[1].indices[:each-1] },
		"a value changed":        func(lg Log, ws []*writer) { lg.(*MemoryLog).values[4][9] ^= 1 },
	} {
		lg, ws := build()
		spoil(lg, ws)
		if err := check(lg, ws, 2*each, 16); err == nil {
			t.Errorf("%s: the check passed", name)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
}

// TestFileTornTail: a file cut anywhere inside its last record, or with
// garbage after its last whole record, or with its last record garbled,
// opens with the records before it, cuts the rest, and takes appends
// after them.
func TestFileTornTail(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "log")
	const n = 5
	lg := &FileLog{}
	if err := lg.Open(path); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if _, err := lg.Append(testValue(i + 3)); err != nil {
			t.Fatal(err)
		}
	}
	last := lg.offsets[n-1]
	lg.Close()
	whole, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	reopen := func(content []byte, wantLen int, wantCut int64, what string) {
		t.Helper()
		p := filepath.Join(dir, "torn")
		if err := os.WriteFile(p, content, 0o644); err != nil {
			t.Fatal(err)
		}
		lg := &FileLog{}
		if err := lg.Open(p); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if cut := max(int64(len(content))-lg.size, 0); lg.Len() != wantLen || cut != wantCut {
			t.Errorf("%s: Len %d, cut %d; want %d, %d", what, lg.Len(), cut, wantLen, wantCut)
		}
		for i := range wantLen {
			if got, err := lg.Get(i); err != nil || !bytes.Equal(got, testValue(i+3)) {
				t.Errorf("%s: Get(%d) = %q, %v", what, i, got, err)
			}
		}
		if index, err := lg.Append([]byte("after")); err != nil || index != wantLen {
			t.Errorf("%s: Append: %d, %v; want index %d", what, index, err, wantLen)
		}
		lg.Close()
		lg = &FileLog{}
		if err := lg.Open(p); err != nil {
			t.Fatal(err)
		}
		defer lg.Close()
		st, _ := os.Stat(p)
		if got, err := lg.Get(wantLen); err != nil || string(got) != "after" || lg.Len() != wantLen+1 || lg.size != st.Size() {
			t.Errorf("%s: after a cut and an append, reopened: Len %d, end %d of %d bytes, Get(%d) = %q, %v", what, lg.Len(), lg.size, st.Size(), wantLen, got, err)
		}
	}
	reopen(whole, n, 0, "whole")
	for end := last + 1; end < int64(len(whole)); end++ {
		reopen(whole[:end], n-1, end-last, fmt.Sprintf("cut at byte %d of %d", end, len(whole)))
	}
	reopen(whole[:last], n-1, 0, "cut at the last record's start")
	reopen(append(bytes.Clone(whole), "garbage!"...), n, 8, "garbage after the end")
	for _, at := range []int64{last, last + 4, last + recordHeader} {
		garbled := bytes.Clone(whole)
		garbled[at] ^= 0x10
		reopen(garbled, n-1, int64(len(whole))-last, fmt.Sprintf("last record garbled at byte %d", at))
	}
	reopen([]byte(magic[:3]), 0, 0, "header torn")
	reopen(nil, 0, 0, "empty file")
}

// TestNotALog: Open refuses a file or database another program wrote,
// and leaves it as it was.
func TestNotALog(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "notes.txt")
	content := []byte("dear diary\n")
	if err := os.WriteFile(path, content, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := (&FileLog{}).Open(path); !errors.Is(err, ErrNotLog) {
		t.Errorf("file log on a text file: %v, want ErrNotLog", err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, content) {
		t.Errorf("the text file was changed to %q", got)
	}

	dbPath := filepath.Join(dir, "db")
	db, err := leveldb.OpenFile(dbPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	db.Put([]byte("name"), []byte("value"), nil)
	db.Close()
	if err := (&LevelDBLog{}).Open(dbPath); !errors.Is(err, ErrNotLog) {
		t.Errorf("LevelDB log on another database: %v, want ErrNotLog", err)
	}
	// A gap in the indices is not a log either.
	db, _ = leveldb.OpenFile(dbPath, nil)
	db.Delete([]byte("name"), nil)
	db.Put(key(0), []byte("a"), nil)
	db.Put(key(2), []byte("c"), nil)
	db.Close()
	if err := (&LevelDBLog{}).Open(dbPath); !errors.Is(err, ErrNotLog) {
		t.Errorf("LevelDB log with index 1 missing: %v, want ErrNotLog", err)
	}
}
