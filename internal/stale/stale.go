// Package stale names temporary files and folders after the process that
// makes them, so that those a killed process left are removed by the next
// run that makes one in the same place.
package stale

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Pattern is the pattern of a temporary name that starts with prefix and
// names this process, for os.CreateTemp and os.MkdirTemp:
// "prefix12345-*suffix".
func Pattern(prefix, suffix string) string {
	return fmt.Sprintf("%s%d-*%s", prefix, os.Getpid(), suffix)
}

// Remove removes the entries of dir named by Pattern(prefix, suffix) for a
// process that no longer runs, and returns how many.
func Remove(dir, prefix, suffix string) int {
	matches, err := filepath.Glob(filepath.Join(dir, globEscape(prefix)+"*-*"+globEscape(suffix)))
	if err != nil {
		return 0
	}
	n := 0
	for _, m := range matches {
		rest := strings.TrimPrefix(filepath.Base(m), prefix)
		pid, err := strconv.Atoi(rest[:strings.IndexByte(rest, '-')])
		if err != nil || pid <= 0 || alive(pid) {
			continue
		}
		if os.RemoveAll(m) == nil {
			n++
		}
	}
	return n
}

// globEscape escapes the characters filepath.Match treats as special.
func globEscape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, "*", `\*`, "?", `\?`, "[", `\[`)
	return r.Replace(s)
}
