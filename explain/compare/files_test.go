package compare

import (
	"errors"
	"strings"
	"testing"

	"github.com/brewput/brewput/results"
)

// Files refuses a bad --alpha or --format before reading anything, passes
// a read error on as it is, and reads OLD then NEW.
func TestFiles(t *testing.T) {
	var read []string
	reader := func(fail string) func(string) ([]results.Point, error) {
		return func(path string) ([]results.Point, error) {
			read = append(read, path)
			if path == fail {
				return nil, errors.New("cannot read " + path)
			}
			return nil, nil
		}
	}
	for _, c := range []struct {
		opts   Options
		format string
		fail   string
		want   string
		reads  int
	}{
		{Options{Alpha: 2}, "table", "", "--alpha: alpha 2", 0},
		{Options{}, "yaml", "", `--format: unknown format "yaml"`, 0},
		{Options{}, "json", "new", "cannot read new", 2},
	} {
		read = nil
		_, err := Files("old", "new", c.opts, c.format, reader(c.fail))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || len(read) != c.reads {
			t.Errorf("Files(%+v, %q) = %v after reading %v; want %q after %d reads", c.opts, c.format, err, read, c.want, c.reads)
		}
	}
	read = nil
	_, err := Files("old", "new", Options{}, "json", reader(""))
	if want := "nothing to compare: no configuration is in both files: old has no points, new has no points"; err == nil || !strings.HasPrefix(err.Error(), want) || strings.Join(read, ",") != "old,new" {
		t.Errorf("Files of two empty files = %v after reading %v; want %q after old,new", err, read, want)
	}
}
