package text

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results"
)

// Target is what a prediction of user code past this machine is for,
// and how far answers of its kinds were shown to hold.
type Target struct {
	About      string // the machine, in words
	Calibrated bool   // its curves are its own calibration's
	Here       int    // this machine's CPUs
	Past       int    // the first count past the target's curves; 0 where none was asked
	// Checked is, by kind read, how its answers held on the kept many-core
	// measurements, up to CheckedCPUs.
	Checked     map[string]Checked
	CheckedCPUs int
}

// Checked is how answers of a kind held where checked: points their bands
// held, of all, and how far their points lay (×, geometric mean).
type Checked struct {
	Held, Points int
	Err          float64
}

// WriteTarget writes what a prediction is for and how far such ones held.
func WriteTarget(w io.Writer, t Target) {
	s := fmt.Sprintf("Past this machine's %s, predicted for %s", format.Count(t.Here, "CPU"), t.About)
	if !t.Calibrated {
		s += " (--calibration FILE: for yours)"
	}
	held, all, logErr := 0, 0, 0.0
	for _, c := range t.Checked {
		held, all, logErr = held+c.Held, all+c.Points, logErr+float64(c.Points)*math.Log(c.Err)
	}
	if all > 0 {
		like := "bands like these"
		if t.Calibrated {
			like += ", from a machine's own calibration,"
		}
		s += fmt.Sprintf(": on kept measurements of real code on 4–%d CPUs, %s held %d of %d points (%s), their points ×%.2f off (geometric mean)",
			t.CheckedCPUs, like, held, all, format.Percent(float64(held)/float64(all), 0), math.Exp(logErr/float64(all)))
	}
	switch {
	case t.Past > 0:
		s += fmt.Sprintf("; none past %s, where the machine's curves end", format.Count(t.Past-1, "CPU"))
	case all > 0:
		s += fmt.Sprintf("; past %d CPUs nothing has checked them", t.CheckedCPUs)
	}
	fmt.Fprintln(w, format.Wrap(s+".", format.Width(w), ""))
}

// WriteSpeedups writes a benchmark a row under its kind: its throughput
// on one CPU (base), then its speed-up and band on the counts shown.
func WriteSpeedups(w io.Writer, points []results.Point, base map[string]float64, kinds map[string]string, checked map[string]Checked, shown, measuredHere []int) error {
	byMode := map[string]map[int]results.Point{}
	var modes []string
	for _, p := range points {
		if byMode[p.Mode] == nil {
			byMode[p.Mode] = map[int]results.Point{}
			modes = append(modes, p.Mode)
		}
		byMode[p.Mode][p.CPUs] = p
	}
	var counts []int // those shown that some benchmark was predicted on
	for _, n := range shown {
		if n > 1 && slices.ContainsFunc(points, func(p results.Point) bool { return p.CPUs == n }) {
			counts = append(counts, n)
		}
	}
	last := 0
	if len(counts) > 0 {
		last = counts[len(counts)-1]
	}
	ks := slices.Compact(slices.Sorted(maps.Values(kinds)))
	t := format.Table{Align: []format.Align{format.Left, format.Right}, Indent: true, Width: format.Width(w)}
	head := []string{"", "1 CPU"}
	measured := false
	for _, n := range counts {
		h := "×" + strconv.Itoa(n)
		if slices.Contains(measuredHere, n) {
			h, measured = h+"*", true
		}
		head = append(head, h)
	}
	if last > 0 {
		head = append(head, "band ×"+strconv.Itoa(last))
	}
	t.Row(head...)
	for _, k := range ks {
		line := k + ":"
		if c := checked[k]; c.Points > 0 {
			line = fmt.Sprintf("%s (where checked, its bands held %d of %d points):", k, c.Held, c.Points)
		}
		t.Line(line)
		for _, m := range modes {
			at, one := byMode[m], base[m]
			if kinds[m] != k || !(one > 0) {
				continue
			}
			row := []string{m, siRate(one)}
			for _, n := range counts {
				if p, ok := at[n]; ok {
					row = append(row, format.Sig(p.Throughput/one, 2))
				} else {
					row = append(row, "-")
				}
			}
			if p, ok := at[last]; ok && p.Band != nil {
				row = append(row, format.Sig(p.Band.Throughput[0]/one, 2)+"–"+format.Sig(p.Band.Throughput[1]/one, 2))
			}
			t.Row(row...)
		}
	}
	if err := t.Write(w); err != nil {
		return err
	}
	if measured {
		_, err := fmt.Fprintln(w, "  * measured here (the runs' median; the prediction stands on it)")
		return err
	}
	return nil
}
