//go:build !linux && !darwin

package format

// terminalColumns is 0: no terminal's width is known here.
func terminalColumns(uintptr) int { return 0 }
