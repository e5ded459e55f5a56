package lessons

import (
	"context"
	"testing"
	"time"

	"github.com/brewput/brewput/results/lesson"
)

type startTeller struct{ start lesson.Start }

func (s *startTeller) Start(st lesson.Start) { s.start = st }
func (*startTeller) Reached(lesson.Reached)  {}

// TestAtMostCountsTheLastVerdict: a run is told it takes its budget and
// the last verdict at most (report/text's TestTimeLeftKeepsTheLimit holds
// the time left to it).
func TestAtMostCountsTheLastVerdict(t *testing.T) {
	var tell startTeller
	if _, err := RunTelling(context.Background(), nil, Options{Level: Quick}, &tell, nil); err != nil {
		t.Fatal(err)
	}
	if got, want := tell.start.AtMost, time.Minute; got != want {
		t.Errorf("a quick run is told it takes at most %v; want %v, its 55 s budget and the last verdict", got, want)
	}
}
