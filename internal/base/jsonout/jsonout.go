// Package jsonout writes JSON as brewput's files and outputs hold it.
package jsonout

import (
	"bytes"
	"encoding/json"
	"math"
)

// Marshal is json.Marshal leaving HTML's characters as they are
// ("need >= 6", not "need \u003e= 6").
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// Finite is a pointer to v, or nil (null in JSON) for NaN and infinities.
func Finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}
