package lessons

import (
	"testing"
	"time"
)

// TestAtMostCountsTheLastVerdict: a run is told it takes its budget and
// the last verdict at most (report/text's TestTimeLeftKeepsTheLimit holds
// the time left to it).
func TestAtMostCountsTheLastVerdict(t *testing.T) {
	if got, want := (Options{Level: Quick}).atMost(), time.Minute; got != want {
		t.Errorf("a quick run is told it takes at most %v; want %v, its 55 s budget and the last verdict", got, want)
	}
}
