package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// CheckDir tells, before anything is written, whether dir can take
// files: a writable folder, or one that can be created. It creates
// nothing. what names what the folder is for ("the report").
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
		// A path through a file fails with "not a directory"; walk up to
		// the file to say so.
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

// Probe proves that files can be written in dir by creating and removing
// one there.
func Probe(dir string) error {
	tmp, err := os.CreateTemp(dir, ".brewput-probe-*")
	if err != nil {
		return fmt.Errorf("cannot write in %s: %w", dir, WithoutPath(err))
	}
	tmp.Close()
	return os.Remove(tmp.Name())
}

// WithoutPath drops a *fs.PathError's operation and path, which name a
// file (a temporary one, a probe) that means nothing to a user.
func WithoutPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
