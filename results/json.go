package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
)

// WriteJSON writes points as JSON Lines, one object per line. A point
// with a number that is not finite is refused, naming it.
func WriteJSON(w io.Writer, points []Point) error {
	enc := json.NewEncoder(w)
	for _, p := range points {
		if err := p.CheckFinite(); err != nil {
			return err
		}
		if err := enc.Encode(p); err != nil {
			return err
		}
	}
	return nil
}

// ReadJSON reads JSON Lines written by WriteJSON, or a journal (see
// Journal), whose plan it passes over. Blank lines are skipped; an error
// names the line that could not be read. Read gives the plan and the
// reader's notes too.
func ReadJSON(r io.Reader) ([]Point, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	f := &File{}
	if err := f.readJSON(bytes.TrimPrefix(data, bom)); err != nil {
		return nil, err
	}
	return f.Points, nil
}

// ScanLines reads r as JSON Lines are read, brewput's results files and
// its lessons files alike: it calls fn with each line that is not blank,
// trimmed of white space, and its number, counting from 1. A line may be
// up to most bytes long (a point's histograms make long lines). It stops
// at fn's first error, which it returns, or where fn says it is done;
// otherwise it returns the reading's error, nil at the end of r.
func ScanLines(r io.Reader, most int, fn func(n int, line []byte) (done bool, err error)) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), most)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if done, err := fn(n, line); done || err != nil {
			return err
		}
	}
	return sc.Err()
}
