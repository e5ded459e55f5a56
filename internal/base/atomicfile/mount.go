package atomicfile

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// MountPoint reports whether path is a mount point (a bind mount
// included), which no rename can replace: as /proc/self/mountinfo lists
// it, else as its device differs from its parent's.
func MountPoint(path string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	if data, err := os.ReadFile("/proc/self/mountinfo"); err == nil {
		return slices.ContainsFunc(strings.Split(string(data), "\n"), func(line string) bool {
			fields := strings.Fields(line)
			return len(fields) > 4 && unescapeMount(fields[4]) == abs
		})
	}
	return otherDevice(abs, filepath.Dir(abs))
}

// unescapeMount undoes mountinfo's octal escapes: "\040" is a space.
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
