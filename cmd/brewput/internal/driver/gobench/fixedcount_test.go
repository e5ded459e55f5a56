package gobench

import (
	"strings"
	"testing"
)

func TestFixedCountNote(t *testing.T) {
	for _, c := range []struct {
		benchtime string
		cpus      []int
		note      bool
	}{
		{"1000x", []int{1, 2}, true},
		{"1000x", []int{4}, true},
		{"1000x", []int{1}, false}, // one worker contends with nobody
		{"1x", []int{2}, false},    // no iterations to hand out
		{"500ms", []int{1, 2}, false},
		{"", []int{2}, false},
	} {
		note := Config{Benchtime: c.benchtime, CPUs: c.cpus}.FixedCountNote()
		if got := note != ""; got != c.note {
			t.Errorf("benchtime %q on %v CPUs: note %q, want one: %v", c.benchtime, c.cpus, note, c.note)
		}
		if c.note && (!strings.Contains(note, "-benchtime "+c.benchtime) || !strings.Contains(note, "golang/go#37996")) {
			t.Errorf("benchtime %q: note %q names neither the flag's value nor the Go issue", c.benchtime, note)
		}
	}
}
