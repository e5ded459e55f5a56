package text

import (
	"strings"
	"testing"
)

// The line says how far answers like these were checked, and where asked
// past the target's curves, how it carries them and how far that was
// checked; not asked past them, nothing of it.
func TestWriteTarget(t *testing.T) {
	checked := map[string]Checked{"one lock": {Held: 9, Points: 10, Err: 1.2}}
	past := map[string]Checked{"one lock": {Held: 4, Points: 5, Err: 1.5}}
	for _, c := range []struct {
		farthest  int
		past      map[string]Checked
		want, not string
	}{
		{16, past, "their points ×1.20 off (geometric mean).", "past its"},
		{64, past, "past its 16 CPUs each curve is carried by its serial time and its work apart (Amdahl's law), the band to that serial time growing with each contender: on published tables of real code on 32–64 CPUs, bands like these held 4 of 5 points (80 %), their points ×1.50 off.", "nothing has checked"},
		{64, nil, "growing with each contender, which nothing has checked.", "published"},
	} {
		var b strings.Builder
		WriteTarget(&b, Target{About: "the reference", Here: 2, Measured: 16, Farthest: c.farthest, Checked: checked, CheckedCPUs: 16, Past: c.past, PastCPUs: [2]int{32, 64}})
		flat := strings.Join(strings.Fields(b.String()), " ")
		if !strings.HasPrefix(flat, "Past this machine's 2 CPUs, predicted for the reference (--calibration FILE: for yours): on kept measurements of real code on 4–16 CPUs, bands like these held 9 of 10 points (90 %)") ||
			!strings.Contains(flat, c.want) || strings.Contains(flat, c.not) {
			t.Errorf("farthest %d:\n%s\nwant %q, not %q", c.farthest, b.String(), c.want, c.not)
		}
	}
}

// A prediction from the user's own calibration cites how such ones held,
// and does not offer the flag it was given.
func TestWriteTargetCalibrated(t *testing.T) {
	var b strings.Builder
	WriteTarget(&b, Target{About: "vm", Calibrated: true, Here: 2, Measured: 16, Farthest: 16, Checked: map[string]Checked{"one lock": {Held: 7, Points: 10, Err: 1.3}}, CheckedCPUs: 16})
	flat := strings.Join(strings.Fields(b.String()), " ")
	if want := "predicted for vm: on kept measurements of real code on 4–16 CPUs, bands like these, from a machine's own calibration, held 7 of 10 points (70 %)"; !strings.Contains(flat, want) || strings.Contains(flat, "--calibration") {
		t.Errorf("got\n%s\nwant %q", b.String(), want)
	}
}
