package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// StagingDir is where the folder dir is assembled before it replaces dir
// whole: beside it, named dir.partial, so that a run cut short leaves it
// where a user finds it.
func StagingDir(dir string) string {
	dir = filepath.Clean(dir)
	if base := filepath.Base(dir); base == "." || base == ".." {
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs // "." names no folder beside which to assemble it
		}
	}
	return dir + ".partial"
}

// DestOf is the folder that the staging folder staging is assembled for:
// staging without its ".partial"; ok is false for another name.
func DestOf(staging string) (dir string, ok bool) {
	clean := filepath.Clean(staging)
	dir, ok = strings.CutSuffix(clean, ".partial")
	return dir, ok && filepath.Base(clean) != ".partial"
}

// ReplaceDir puts the finished folder staging in dir's place in one step:
// where dir exists, the two are exchanged at once (on Linux), the entries
// of the old folder that keep names (files a user put there) are moved
// into the new one, and the old folder is removed. A failure before the
// exchange leaves dir as it was and staging beside it.
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

// exchangeByRenames swaps a and b in two renames, through a third name
// made for the moment: the fallback where the system cannot exchange two
// names at once. Killed between the renames, dir's old content stays under
// that name.
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
