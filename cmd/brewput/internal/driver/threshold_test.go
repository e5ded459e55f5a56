package driver

import (
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/brewput/brewput/results"
)

// TestHelpNamesDisturbedCPUs: the help texts that say when a point or a
// sample is disturbed name the one threshold's value, results.DisturbedCPUs.
func TestHelpNamesDisturbedCPUs(t *testing.T) {
	want := fmt.Sprintf("more than %g CPU", results.DisturbedCPUs)
	for _, name := range []string{"help/run.txt", "help/study/measure.txt"} {
		b, err := fs.ReadFile(helpFiles, name)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(strings.Join(strings.Fields(string(b)), " "), want) {
			t.Errorf("%s does not say %q", name, want)
		}
	}
	b, _ := fs.ReadFile(helpFiles, "help/lessons.txt")
	if s := fmt.Sprintf("and %g more", results.DisturbedCPUs); !strings.Contains(strings.Join(strings.Fields(string(b)), " "), s) {
		t.Errorf("help/lessons.txt does not say %q", s)
	}
}
