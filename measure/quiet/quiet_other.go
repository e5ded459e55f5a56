//go:build !linux

package quiet

func readCPU(*CPUs) (c counters, ok bool) { return c, false }

func ownCPUs() CPUs { return CPUs{} }
