// Package atomicfile writes files and folders all at once: the data goes
// to a temporary file (or folder) beside the destination, named after its
// process, put in place only when complete.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// File is a file being written; creating it first finds an unwritable
// path before anything is measured. It keeps its first write error for
// Commit, for writers that drop theirs (the runtime's trace and profile).
type File struct {
	path string
	tmp  *os.File
	err  error
}

// Create starts the file at path; its errors name the path, not the
// temporary name, which means nothing to a user.
func Create(path string) (*File, error) {
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return nil, fmt.Errorf("is a directory; want a file name")
	}
	dir := filepath.Dir(path)
	// The temporary name says its process: one a killed process left goes.
	RemoveStale(dir, "."+filepath.Base(path)+".", ".tmp")
	tmp, err := os.CreateTemp(dir, TempPattern("."+filepath.Base(path)+".", ".tmp"))
	if err != nil {
		return nil, fmt.Errorf("cannot write in %s: %w", dir, WithoutPath(err))
	}
	// CreateTemp makes the file private; a results file is for sharing.
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return nil, fmt.Errorf("cannot write in %s: %w", dir, err)
	}
	return &File{path: path, tmp: tmp}, nil
}

// Path is where the file goes once committed.
func (f *File) Path() string { return f.path }

func (f *File) Write(p []byte) (int, error) {
	if f.err != nil {
		return 0, f.err
	}
	n, err := f.tmp.Write(p)
	f.err = err
	return n, err
}

// Commit renames the finished file into place, or removes it where
// writing failed.
func (f *File) Commit() error {
	err := errors.Join(f.err, f.tmp.Close())
	if err == nil {
		err = os.Rename(f.tmp.Name(), f.path)
	}
	if err != nil {
		os.Remove(f.tmp.Name())
	}
	return err
}

// Discard removes the temporary file.
func (f *File) Discard() {
	f.tmp.Close()
	os.Remove(f.tmp.Name())
}

// WriteFile writes data to path all at once, with os.WriteFile's mode.
func WriteFile(path string, data []byte) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Discard()
		return err
	}
	return f.Commit()
}

// CheckDir tells, creating nothing, whether dir can take files: a
// writable folder, or one that can be created; what names its use ("the
// report").
func CheckDir(dir, what string) error {
	probe := dir
	for {
		info, err := os.Stat(probe)
		if err == nil {
			if !info.IsDir() {
				if probe == dir {
					return fmt.Errorf("%s is a file; want a folder for %s", dir, what)
				}
				return fmt.Errorf("cannot create %s: %s is a file", dir, probe)
			}
			break
		}
		// A path through a file fails ENOTDIR: walk up to say which.
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			return fmt.Errorf("cannot use %s: %w", dir, err)
		}
		parent := filepath.Dir(probe)
		if parent == probe {
			break
		}
		probe = parent
	}
	return Probe(probe)
}

// Probe proves files can be written in dir by creating and removing one.
func Probe(dir string) error {
	tmp, err := os.CreateTemp(dir, ".brewput-probe-*")
	if err != nil {
		return fmt.Errorf("cannot write in %s: %w", dir, WithoutPath(err))
	}
	tmp.Close()
	return os.Remove(tmp.Name())
}

// WithoutPath drops a *fs.PathError's operation and path, which name a
// file (a temporary one, a probe) meaningless to a user.
func WithoutPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// StagingDir is where dir is assembled before replacing it whole: beside
// it, dir.partial, where a user finds what a run cut short left.
func StagingDir(dir string) string {
	dir = filepath.Clean(dir)
	if base := filepath.Base(dir); base == "." || base == ".." {
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs // "." names no folder beside which to assemble it
		}
	}
	return dir + ".partial"
}

// DestOf is the folder staging is assembled for: staging without its
// ".partial"; ok is false for another name.
func DestOf(staging string) (dir string, ok bool) {
	clean := filepath.Clean(staging)
	dir, ok = strings.CutSuffix(clean, ".partial")
	return dir, ok && filepath.Base(clean) != ".partial"
}

// ReplaceDir puts staging in dir's place in one step: where dir exists,
// the two are exchanged (at once, on Linux), the old folder's entries that
// keep names are moved into the new one, and the old one is removed. A
// failure before the exchange leaves dir as it was.
func ReplaceDir(staging, dir string, keep func(name string) bool) error {
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		if err := os.Rename(staging, dir); err != nil {
			return fmt.Errorf("put %s in place: %w", dir, err)
		}
		return nil
	}
	if err := exchange(staging, dir); err != nil {
		return fmt.Errorf("put %s in place: %w", dir, err)
	}
	old := staging // the exchange left the old folder under staging's name
	entries, err := os.ReadDir(old)
	if err != nil {
		return fmt.Errorf("read the replaced %s: %w", dir, err)
	}
	for _, e := range entries {
		if keep(e.Name()) {
			if err := os.Rename(filepath.Join(old, e.Name()), filepath.Join(dir, e.Name())); err != nil {
				return fmt.Errorf("keep %s in %s: %w", e.Name(), dir, err)
			}
		}
	}
	if err := os.RemoveAll(old); err != nil {
		return fmt.Errorf("remove the replaced %s: %w", dir, err)
	}
	return nil
}

// exchangeByRenames swaps a and b in two renames through a third name
// (where, killed between them, b's old content stays).
func exchangeByRenames(a, b string) error {
	tmp, err := os.MkdirTemp(filepath.Dir(b), "."+filepath.Base(b)+".old-*")
	if err != nil {
		return err
	}
	if err := os.Remove(tmp); err != nil {
		return err
	}
	if err := os.Rename(b, tmp); err != nil {
		return err
	}
	if err := os.Rename(a, b); err != nil {
		os.Rename(tmp, b)
		return err
	}
	return os.Rename(tmp, a)
}
