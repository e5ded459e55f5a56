package text

import (
	"fmt"
	"io"
	"math"

	"github.com/brewput/brewput/internal/base/format"
)

// Target is what a prediction of user code past this machine is for,
// and how far answers of its kinds were shown to hold.
type Target struct {
	About      string // the machine, in words
	Calibrated bool   // its curves are its own calibration's
	Here       int    // this machine's CPUs
	// Measured is the most CPUs the target's curves were measured on,
	// Farthest the most CPUs asked.
	Measured, Farthest int
	// Checked is, by kind read, how its answers held on the kept many-core
	// measurements, up to CheckedCPUs; Past, on published tables of real
	// code past the curves' CPUs, PastCPUs[0] to PastCPUs[1].
	Checked     map[string]Checked
	CheckedCPUs int
	Past        map[string]Checked
	PastCPUs    [2]int
}

// Checked is how answers of a kind held where checked: points their bands
// held, of all, and how far their points lay (×, geometric mean).
type Checked struct {
	Held, Points int
	Err          float64
}

// WriteTarget writes what a prediction is for, how far such ones held,
// and how it carries past the target's curves where asked to.
func WriteTarget(w io.Writer, t Target) {
	s := fmt.Sprintf("Past this machine's %s, predicted for %s", format.Count(t.Here, "CPU"), t.About)
	if !t.Calibrated {
		s += " (--calibration FILE: for yours)"
	}
	like := "bands like these"
	if t.Calibrated {
		like += ", from a machine's own calibration,"
	}
	if held, all, e := tally(t.Checked); all > 0 {
		s += fmt.Sprintf(": on kept measurements of real code on 4–%d CPUs, %s held %d of %d points (%s), their points ×%.2f off (geometric mean)",
			t.CheckedCPUs, like, held, all, format.Percent(float64(held)/float64(all), 0), e)
	}
	if t.Farthest > t.Measured {
		s += fmt.Sprintf("; past its %s each curve is carried by its serial time and its work apart (Amdahl's law), the band "+
			"to that serial time growing with each contender", format.Count(t.Measured, "CPU"))
		if held, all, e := tally(t.Past); all > 0 {
			s += fmt.Sprintf(": on published tables of real code on %d–%d CPUs, bands like these held %d of %d points (%s), their points ×%.2f off",
				t.PastCPUs[0], t.PastCPUs[1], held, all, format.Percent(float64(held)/float64(all), 0), e)
		} else {
			s += ", which nothing has checked"
		}
	}
	fmt.Fprintln(w, format.Wrap(s+".", format.Width(w), ""))
}

// tally is the points held of all checked, and their error's geometric
// mean.
func tally(checked map[string]Checked) (held, all int, err float64) {
	logErr := 0.0
	for _, c := range checked {
		held, all, logErr = held+c.Held, all+c.Points, logErr+float64(c.Points)*math.Log(c.Err)
	}
	if all == 0 {
		return 0, 0, 0
	}
	return held, all, math.Exp(logErr / float64(all))
}
