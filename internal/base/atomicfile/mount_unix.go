//go:build unix

package atomicfile

import "syscall"

// otherDevice reports whether a and b are on different devices.
func otherDevice(a, b string) bool {
	var sa, sb syscall.Stat_t
	if syscall.Stat(a, &sa) != nil || syscall.Stat(b, &sb) != nil {
		return false
	}
	return sa.Dev != sb.Dev
}
