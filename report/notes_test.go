package report

import (
	"strings"
	"testing"

	"github.com/brewput/brewput/results"
)

// TestDisturbedNoteCountsMeasuredPoints: the page's note on disturbed
// points counts them among the measured points, which alone can be
// disturbed, not among the model's predictions beside them.
func TestDisturbedNoteCountsMeasuredPoints(t *testing.T) {
	t.Parallel()
	var quiet, disturbed, predicted results.Point
	quiet.Mode, quiet.CPUs = "locking", 1
	disturbed.Mode, disturbed.CPUs, disturbed.Disturbed = "locking", 2, true
	predicted.Mode, predicted.CPUs, predicted.Source = "locking", 4, results.SourceModel
	for _, c := range []struct {
		points []results.Point
		want   string
	}{
		{[]results.Point{quiet, disturbed}, "× 1 of the 2 points was disturbed"},
		{[]results.Point{quiet, disturbed, predicted, predicted}, "× 1 of the 2 measured points was disturbed"},
		{[]results.Point{disturbed, disturbed, predicted}, "× 2 of the 2 runs measured at 1 point were disturbed"},
		// Runs repeated at a point (issue 42: "13 of the 90 points" where
		// 18 were drawn).
		{[]results.Point{quiet, quiet, disturbed, disturbed, disturbed, predicted}, "× 3 of the 5 runs measured at 2 points were disturbed"},
	} {
		notes := pageNotes(c.points, Options{}, true)
		if len(notes) != 1 || !strings.HasPrefix(notes[0], c.want+":") {
			t.Errorf("%d points: notes %q, want one starting %q", len(c.points), notes, c.want)
		}
	}
	if notes := pageNotes([]results.Point{quiet, predicted}, Options{}, true); len(notes) != 0 {
		t.Errorf("no point disturbed: notes %q", notes)
	}
}

// TestDisturbedNoteNamesThePagesPictures: the note names the map of
// limits only on a page that has one (a bench's page has none).
func TestDisturbedNoteNamesThePagesPictures(t *testing.T) {
	t.Parallel()
	var disturbed results.Point
	disturbed.Mode, disturbed.CPUs, disturbed.Disturbed = "Book", 2, true
	for _, hasMap := range []bool{false, true} {
		notes := pageNotes([]results.Point{disturbed}, Options{}, hasMap)
		if len(notes) != 1 || strings.Contains(notes[0], "map of limits") != hasMap || !strings.Contains(notes[0], "the charts") {
			t.Errorf("a page with a map %v: notes %q", hasMap, notes)
		}
	}
}
