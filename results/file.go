package results

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile writes points to path in format f all at once: to a temporary
// file beside it, renamed into place when complete, so that no reader
// ever sees half a file.
func WriteFile(path string, f Format, points []Point) error {
	var buf bytes.Buffer
	if err := Write(&buf, f, points); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	_, err = tmp.Write(buf.Bytes())
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// CheckFile tells, before anything is measured, whether WriteFile can
// write path: not a folder, in a folder that exists and takes files. It
// leaves nothing behind.
func CheckFile(path string) error {
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return errors.New("is a directory; want a file name")
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the temporary name means nothing to the user
		}
		return fmt.Errorf("cannot write in %s: %w", dir, err)
	}
	tmp.Close()
	return os.Remove(tmp.Name())
}
