//go:build !unix

package outfile

import "os"

// noFollow is nothing where opening cannot refuse a link; Take still
// refuses a lock file that is one before it opens it.
const noFollow = 0

// lock holds nothing where there is no flock: every run may write, as if
// there were no other.
func lock(*os.File) (bool, error) { return true, nil }

// gone is false where no lock is held.
func gone(int) bool { return false }
