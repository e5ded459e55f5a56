package compare

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
)

// WriteJSON writes the comparison as one indented JSON object; numbers
// JSON cannot hold (infinite bounds, a change from 0) are null.
func (c Comparison) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // "need >= 6 samples", not "need \u003e= 6"
	return enc.Encode(c)
}

// MarshalJSON writes infinite interval bounds as null.
func (s Summary) MarshalJSON() ([]byte, error) {
	type plain Summary // without this method
	return marshal(struct {
		plain
		Lo *float64 `json:"lo"`
		Hi *float64 `json:"hi"`
	}{plain(s), finite(s.Lo), finite(s.Hi)})
}

// MarshalJSON writes a change from 0 and infinite bounds as null.
func (m Metric) MarshalJSON() ([]byte, error) {
	type plain Metric // without this method
	return marshal(struct {
		plain
		DeltaPct *float64 `json:"delta_pct"`
		GainLo   *float64 `json:"gain_lo"`
		GainHi   *float64 `json:"gain_hi"`
	}{plain(m), finite(m.DeltaPct), finite(m.GainLo), finite(m.GainHi)})
}

// marshal is json.Marshal without escaping HTML, as WriteJSON writes.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// finite returns a pointer to v, or nil for NaN and infinities.
func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}
