package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// TempPattern is a temporary name's pattern for os.CreateTemp and
// os.MkdirTemp, naming this process: "prefix12345-*suffix".
func TempPattern(prefix, suffix string) string {
	return fmt.Sprintf("%s%d-*%s", prefix, os.Getpid(), suffix)
}

// RemoveStale removes dir's TempPattern(prefix, suffix) entries of
// processes no longer running (killed), and returns how many.
func RemoveStale(dir, prefix, suffix string) int {
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
