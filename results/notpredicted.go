package results

import (
	"encoding/json"
	"fmt"
	"io"
)

// notPredictedRecord marks a line of a prediction's JSON that names a
// variant it did not predict: {"brewput":"not_predicted","mode":…,"reason":…}.
const notPredictedRecord = "not_predicted"

// NotPredicted is a variant a prediction leaves out, and why: it has
// measured points and no predicted one, on every output.
type NotPredicted struct {
	Mode   string `json:"mode"`
	Reason string `json:"reason"`
}

// AppendNotPredicted writes each as a line of JSON Lines, after the
// points of a stream WriteJSON began.
func AppendNotPredicted(w io.Writer, nps []NotPredicted) error {
	enc := json.NewEncoder(w)
	for _, np := range nps {
		if err := enc.Encode(struct {
			Record string `json:"brewput"`
			NotPredicted
		}{notPredictedRecord, np}); err != nil {
			return err
		}
	}
	return nil
}

// readNotPredicted reads a not_predicted record of line n.
func (f *File) readNotPredicted(n int, line []byte) error {
	var np NotPredicted
	if err := json.Unmarshal(line, &np); err != nil || np.Mode == "" {
		return fmt.Errorf("line %d: not a brewput not_predicted record (want a mode and a reason): %s", n, line)
	}
	f.NotPredicted = append(f.NotPredicted, np)
	return nil
}
