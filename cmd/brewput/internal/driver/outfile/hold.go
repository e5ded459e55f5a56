package outfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/brewput/brewput/internal/base/atomicfile"
)

// Hold is this process's claim on one output, which keeps two brewput
// processes from writing it: a lock on a file beside it, which the kernel
// releases however the process ends.
type Hold struct {
	Path string // the output, as given
	file string // the lock file beside it
	f    *os.File
	made []string // the folders Take created for the lock file, deepest first
}

// Held is the error of an output another live process holds.
type Held struct {
	Path    string
	PID     int // the holder's, as it wrote them
	Command string
}

func (e *Held) Error() string {
	who := "another brewput process"
	if e.PID > 0 {
		who = fmt.Sprintf("brewput (pid %d: %s)", e.PID, e.Command)
	}
	return fmt.Sprintf("%s is being written by %s; give another --out, or wait for it to finish", e.Path, who)
}

// HoldFile is the lock file of the output at path: beside it, hidden.
func HoldFile(path string) string {
	clean := filepath.Clean(path)
	return filepath.Join(filepath.Dir(clean), "."+filepath.Base(clean)+".brewput-hold")
}

// Take claims the output at path (which need not exist yet) for this
// process: *Held where another live process holds it; a dead process's
// lock file is taken over. An output or lock file that is a symbolic link
// is refused, so that a run writes only where its --out names.
func Take(path string) (*Hold, error) {
	h := &Hold{Path: path, file: HoldFile(path)}
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		target, _ := os.Readlink(path)
		return nil, fmt.Errorf("%s: is a symbolic link (to %s); brewput writes nothing through a link: give the path it points to", path, target)
	}
	for dir := filepath.Dir(h.file); ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(dir); err == nil || filepath.Dir(dir) == dir {
			break
		}
		h.made = append(h.made, dir)
	}
	if err := os.MkdirAll(filepath.Dir(h.file), 0o755); err != nil {
		return nil, fmt.Errorf("%s: cannot hold it: %w", path, atomicfile.WithoutPath(err))
	}
	const tries = 10
	for try := range tries {
		// Refused before the open, and by it (noFollow) where a link is
		// planted between the two.
		linked := func() bool {
			fi, err := os.Lstat(h.file)
			return err == nil && fi.Mode()&os.ModeSymlink != 0
		}
		if linked() {
			return nil, h.linkedLock()
		}
		f, err := os.OpenFile(h.file, os.O_RDWR|os.O_CREATE|noFollow, 0o644)
		if err != nil {
			if linked() {
				return nil, h.linkedLock()
			}
			return nil, fmt.Errorf("%s: cannot hold it: %w", path, atomicfile.WithoutPath(err))
		}
		got, err := lock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: cannot hold it: %w", path, err)
		}
		if !got {
			held := holder(f)
			f.Close()
			// A killed holder's lock outlives it for as long as a child it
			// was starting has not yet exec'd, which closes the file.
			if gone(held.PID) && try < tries-1 {
				time.Sleep(100 * time.Millisecond)
				continue
			}
			held.Path = path
			return nil, held // the folders it made are the holder's now
		}
		// The holder before may have removed the file between our open and
		// our lock: open the name again.
		if same(f, h.file) {
			h.f = f
			if err := h.sign(); err != nil {
				h.Release()
				return nil, fmt.Errorf("%s: cannot hold it: %w", path, err)
			}
			return h, nil
		}
		f.Close()
	}
	return nil, fmt.Errorf("%s: cannot hold it: its lock file %s keeps changing", path, h.file)
}

// linkedLock is the error of a lock file that is a symbolic link.
func (h *Hold) linkedLock() error {
	return fmt.Errorf("%s: cannot hold it: its lock file %s is a symbolic link, which brewput does not follow; remove it", h.Path, h.file)
}

// sign writes this process's pid and command line into the lock file.
func (h *Hold) sign() error {
	if err := h.f.Truncate(0); err != nil {
		return err
	}
	_, err := h.f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"+strings.Join(os.Args, " ")+"\n"), 0)
	return err
}

// Release removes the lock file and gives the hold up; again, or on nil,
// it does nothing.
func (h *Hold) Release() {
	if h == nil || h.f == nil {
		return
	}
	// Removed while still locked: a process that opened it meanwhile finds
	// its lock on a file the name no longer leads to, and opens again.
	os.Remove(h.file)
	h.f.Close()
	h.f = nil
	for _, dir := range h.made {
		os.Remove(dir) // only where empty: the run wrote nothing there
	}
}

func holder(f *os.File) *Held {
	b := make([]byte, 4096)
	n, _ := f.ReadAt(b, 0)
	pid, command, _ := strings.Cut(string(b[:n]), "\n")
	held := &Held{Command: strings.TrimSpace(command)}
	held.PID, _ = strconv.Atoi(strings.TrimSpace(pid))
	return held
}

// same reports whether the open file f is the file now at path.
func same(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(path)
	return err == nil && os.SameFile(a, b)
}
