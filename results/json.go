package results

import (
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
