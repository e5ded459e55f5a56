package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// WriteJSON writes points as JSON Lines, one object per line.
func WriteJSON(w io.Writer, points []Point) error {
	enc := json.NewEncoder(w)
	for _, p := range points {
		if err := enc.Encode(p); err != nil {
			return err
		}
	}
	return nil
}

// ReadJSON reads JSON Lines written by WriteJSON. Blank lines are skipped;
// an error names the line that could not be read.
func ReadJSON(r io.Reader) ([]Point, error) {
	var points []Point
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20) // histograms make long lines
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var p Point
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&p); err != nil {
			return nil, fmt.Errorf("line %d: not a brewput point: %w", n, err)
		}
		if p.Mode == "" || p.CPUs < 1 {
			return nil, fmt.Errorf("line %d: not a brewput point: missing mode or cpus", n)
		}
		p.Tidy()
		points = append(points, p)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return points, nil
}
