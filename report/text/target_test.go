package text

import (
	"strings"
	"testing"
)

// The first line says how far answers like these were checked, and where
// they stop: past the counts checked, or, where the machine's curves end
// sooner than asked, there alone.
func TestWriteTarget(t *testing.T) {
	checked := map[string]Checked{"one lock": {Held: 9, Points: 10, Err: 1.2}}
	for _, c := range []struct {
		past      int
		want, not string
	}{
		{0, "their points ×1.20 off (geometric mean); past 16 CPUs nothing has checked them.", "curves end"},
		{17, "(geometric mean); none past 16 CPUs, where the machine's curves end.", "nothing has checked"},
	} {
		var b strings.Builder
		WriteTarget(&b, Target{About: "the reference", Here: 2, Past: c.past, Checked: checked, CheckedCPUs: 16})
		flat := strings.Join(strings.Fields(b.String()), " ")
		if !strings.HasPrefix(flat, "Past this machine's 2 CPUs, predicted for the reference (--calibration FILE: for yours): on kept measurements of real code on 4–16 CPUs, bands like these held 9 of 10 points (90 %)") ||
			!strings.Contains(flat, c.want) || strings.Contains(flat, c.not) {
			t.Errorf("past %d:\n%s\nwant %q, not %q", c.past, b.String(), c.want, c.not)
		}
	}
}

// A prediction from the user's own calibration cites how such ones held,
// and does not offer the flag it was given.
func TestWriteTargetCalibrated(t *testing.T) {
	var b strings.Builder
	WriteTarget(&b, Target{About: "vm", Calibrated: true, Here: 2, Checked: map[string]Checked{"one lock": {Held: 7, Points: 10, Err: 1.3}}, CheckedCPUs: 16})
	flat := strings.Join(strings.Fields(b.String()), " ")
	if want := "predicted for vm: on kept measurements of real code on 4–16 CPUs, bands like these, from a machine's own calibration, held 7 of 10 points (70 %)"; !strings.Contains(flat, want) || strings.Contains(flat, "--calibration") {
		t.Errorf("got\n%s\nwant %q", b.String(), want)
	}
}
