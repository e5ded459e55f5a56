package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// outFile is a results file written all at once: the data goes to a
// temporary file beside it, renamed into place only when complete, so that
// no reader ever sees a half-written file. Creating the temporary file up
// front also finds an unwritable path before anything is measured.
type outFile struct {
	path string
	tmp  *os.File
}

func createOut(path string) (*outFile, error) {
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return nil, fmt.Errorf("is a directory; want a file name")
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the temporary name means nothing to the user
		}
		return nil, fmt.Errorf("cannot write in %s: %w", dir, err)
	}
	// CreateTemp makes the file private (0600); a results file is for
	// sharing, so give it the mode os.Create would (the umask still applies
	// is not applied by Chmod, so this is the usual 0644).
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return nil, fmt.Errorf("cannot write in %s: %w", dir, err)
	}
	return &outFile{path: path, tmp: tmp}, nil
}

// commit renames the finished file into place.
func (o *outFile) commit() error {
	if err := o.tmp.Close(); err != nil {
		os.Remove(o.tmp.Name())
		return err
	}
	if err := os.Rename(o.tmp.Name(), o.path); err != nil {
		os.Remove(o.tmp.Name())
		return err
	}
	return nil
}

// discard removes the temporary file.
func (o *outFile) discard() {
	o.tmp.Close()
	os.Remove(o.tmp.Name())
}
