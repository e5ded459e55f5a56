//go:build linux || darwin

package format

import (
	"syscall"
	"unsafe"
)

// terminalColumns is the width of the terminal fd is, 0 where it is none
// (as golang.org/x/term's, but this package keeps to the standard library).
func terminalColumns(fd uintptr) int {
	var size struct{ rows, cols, x, y uint16 }
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, uintptr(syscall.TIOCGWINSZ), uintptr(unsafe.Pointer(&size)))
	if errno != 0 {
		return 0
	}
	return int(size.cols)
}
