// Command refcurves writes the contention curves brewput predicts with
// where no calibration of the machine predicted for holds them
// (model/curves/reference.json): the cells of package curves that the
// 16-vCPU lendings' primitives (testdata/manycore, manycore2, manycore3:
// primitives.txt, go test -bench of manycore/primitives_test.go) measured,
// each lending's median a repeat. The primitives' local work is the loop
// curves.Work runs, so that a cell's nanoseconds are that loop's rounds
// there (PrivateWork's 100 rounds).
//
//	go run ./refcurves [-check]
//
// -check compares the file with what it would write and exits 1 where
// they differ (go test ./refcurves runs it).
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/brewput/brewput/model/curves"
	"github.com/brewput/brewput/validation/internal/benchtext"
	"github.com/brewput/brewput/validation/internal/cmdline"
)

// lendings are the folders whose primitives.txt the curves are read from.
var lendings = []string{"manycore", "manycore2", "manycore3"}

// cell is a primitive benchmark and the cell it measured: its hold and
// work outside in rounds of the work loop.
type cell struct {
	bench        string
	shape        curves.Shape
	hold, rounds int
}

var cells = []cell{
	{"Mutex/goroutines=1P", curves.Mutex, 0, 0},
	{"MutexShortHold", curves.Mutex, 20, 20},
	{"MutexWork", curves.Mutex, 0, 100},
	{"RWMutex/ReadOnly", curves.RWMutex, 0, 0},
	{"RWMutex/WorkReadOnly", curves.RWMutex, 100, 0},
	{"Counter/atomic", curves.Word, 0, 0},
	{"CounterVisits/gap=20", curves.Word, 0, 20},
	{"CounterVisits/gap=100", curves.Word, 0, 100},
	{"PrivateWork", curves.Alloc, 0, 100},
}

// About says what machine the curves are of, for predict's answer.
const About = "a 16-vCPU Intel Xeon (model 207) KVM guest, measured on three lendings"

func main() {
	check := flag.Bool("check", false, "compare the file with what would be written; exit 1 where they differ")
	cmdline.Parse()
	c, err := build("testdata")
	cmdline.Check(err)
	js, err := json.MarshalIndent(c, "", " ")
	cmdline.Check(err)
	js = append(js, '\n')
	path := filepath.Join("..", "model", "curves", "reference.json")
	if *check {
		was, err := os.ReadFile(path)
		cmdline.Check(err)
		if !bytes.Equal(was, js) {
			fmt.Fprintf(os.Stderr, "refcurves: %s is not what the lendings' primitives give; run go run ./refcurves\n", path)
			os.Exit(1)
		}
		return
	}
	cmdline.Check(os.WriteFile(path, js, 0o644))
}

// build reads each lending's primitives under dir into one set of curves.
func build(dir string) (*curves.Curves, error) {
	out := &curves.Curves{About: About}
	byKey := map[string]int{} // a point's index, by cell and count
	var perIter []float64
	for _, l := range lendings {
		m, err := benchtext.Medians(filepath.Join(dir, l, "primitives.txt"), nil)
		if err != nil {
			return nil, err
		}
		pw, ok := m["PrivateWork"][1]
		if !ok {
			return nil, fmt.Errorf("%s: no PrivateWork on 1 CPU", l)
		}
		it := pw / 100
		perIter = append(perIter, it)
		for _, c := range cells {
			counts := m[c.bench]
			if len(counts) == 0 {
				continue // the first lendings ran no CounterVisits
			}
			var ns []int
			for n := range counts {
				ns = append(ns, n)
			}
			slices.Sort(ns)
			for _, n := range ns {
				key := fmt.Sprintf("%s/%d", c.bench, n)
				i, ok := byKey[key]
				if !ok {
					// A cell's nanoseconds are the first lending's rounds.
					cl := curves.Cell{Shape: c.shape, Hold: int(float64(c.hold)*perIter[0] + 0.5), Outside: int(float64(c.rounds)*perIter[0] + 0.5)}
					out.Points = append(out.Points, curves.Point{Cell: cl, CPUs: n})
					i = len(out.Points) - 1
					byKey[key] = i
				}
				out.Points[i].Rates = append(out.Points[i].Rates, 1e9/counts[n])
			}
		}
	}
	slices.Sort(perIter)
	out.NsPerIter = perIter[len(perIter)/2]
	return out, nil
}
