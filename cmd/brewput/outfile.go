package main

import (
	"fmt"
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
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("cannot write there: %w", err)
	}
	return &outFile{path: path, tmp: tmp}, nil
}

// commit renames the finished file into place.
func (o *outFile) commit() error {
	if err := o.tmp.Close(); err != nil {
		os.Remove(o.tmp.Name())
		return err
	}
	return os.Rename(o.tmp.Name(), o.path)
}

// discard removes the temporary file.
func (o *outFile) discard() {
	o.tmp.Close()
	os.Remove(o.tmp.Name())
}
