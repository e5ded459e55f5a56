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
// files: a folder that exists and is writable, or one that can be
// created. It creates nothing, so a run that measures nothing leaves no
// trace. what names what the folder is for ("the report"), in the error
// of a file in its place.
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
	tmp, err := os.CreateTemp(probe, ".brewput-probe-*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the probe's name means nothing to the user
		}
		return fmt.Errorf("cannot write in %s: %w", probe, err)
	}
	tmp.Close()
	return os.Remove(tmp.Name())
}
