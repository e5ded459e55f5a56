//go:build !linux

package main

import (
	"errors"
	"runtime"
)

func read() (reading, error) {
	return reading{}, errors.New("reads Linux's CPU accounting (/proc/stat); not available on " + runtime.GOOS)
}
