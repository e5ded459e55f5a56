// Package benchtext reads go test -bench's text output as the lendings
// kept it (primitives.txt, libraries.txt): each benchmark's ns/op by CPU
// count, the median of its runs.
package benchtext

import (
	"bufio"
	"os"
	"regexp"
	"slices"
	"strconv"
)

// line is a line of go test -bench's output: the name, its -cpu suffix,
// and ns/op.
var line = regexp.MustCompile(`^Benchmark(\S+?)(?:-(\d+))?\s+\d+\s+([0-9.]+) ns/op`)

// Medians reads the file at path: for each benchmark (its name without
// Benchmark and without its -cpu suffix) and CPU count (that suffix, 1
// without one), the median ns/op of its runs. key, where not nil, gives
// the name and count a row is kept under (a series over workers counts
// them in its name).
func Medians(path string, key func(name string, cpus int) (string, int)) (map[string]map[int]float64, error) {
	runs, err := Runs(path, key)
	if err != nil {
		return nil, err
	}
	out := map[string]map[int]float64{}
	for name, byCPUs := range runs {
		out[name] = map[int]float64{}
		for n, vs := range byCPUs {
			vs = slices.Sorted(slices.Values(vs))
			med := vs[len(vs)/2]
			if len(vs)%2 == 0 {
				med = (vs[len(vs)/2-1] + vs[len(vs)/2]) / 2
			}
			out[name][n] = med
		}
	}
	return out, nil
}

// Runs reads the file at path as Medians does: each run's ns/op, in the
// file's order.
func Runs(path string, key func(name string, cpus int) (string, int)) (map[string]map[int][]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	runs := map[string]map[int][]float64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		name, cpus := m[1], 1
		if m[2] != "" {
			cpus, _ = strconv.Atoi(m[2])
		}
		if key != nil {
			name, cpus = key(name, cpus)
		}
		v, err := strconv.ParseFloat(m[3], 64)
		if err != nil {
			continue
		}
		if runs[name] == nil {
			runs[name] = map[int][]float64{}
		}
		runs[name][cpus] = append(runs[name][cpus], v)
	}
	return runs, sc.Err()
}
