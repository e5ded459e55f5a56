package lesson

import (
	"encoding/json"
	"math"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results"
)

// Figure is brewput's figure for a claim: the median of its N samples
// with its 95 % confidence interval [Lo, Hi] (infinite with too few), or
// the model's exact value.
type Figure struct {
	Median float64   `json:"median"`
	Lo     float64   `json:"lo"`
	Hi     float64   `json:"hi"`
	N      int       `json:"n"`
	Values []float64 `json:"values"`
}

// MarshalJSON writes an unbounded end of the interval, or a median with
// no samples, as null.
func (f Figure) MarshalJSON() ([]byte, error) {
	type plain Figure // without this method
	if f.Values == nil {
		f.Values = []float64{}
	}
	return results.MarshalNulls(plain(f))
}

// UnmarshalJSON reads what MarshalJSON writes: null as infinite, or NaN.
func (f *Figure) UnmarshalJSON(data []byte) error {
	type plain Figure
	p := plain{Median: math.NaN(), Lo: math.Inf(-1), Hi: math.Inf(1)}
	err := json.Unmarshal(data, &p)
	*f = Figure(p)
	return err
}

// The units of claims' figures: a ratio of two measurements ("×1.99"), a
// fraction written as a percentage ("58 %"), milliseconds, the shop's
// throughput.
const (
	Ratio  = "×"
	Share  = "%"
	Ms     = "ms"
	Lattes = "lattes/s"
)

// FormatValue writes v in unit's terms: "×1.99", "58 %", "402 ms".
func FormatValue(v float64, unit string) string {
	switch unit {
	case Ratio:
		return "×" + number(v)
	case Share:
		return number(100*v) + " %"
	case "":
		return number(v)
	}
	return number(v) + " " + unit
}

// Bare writes v as FormatValue does, without the unit.
func Bare(v float64, unit string) string {
	if unit == Share {
		return number(100 * v)
	}
	return number(v)
}

// number writes v with three significant digits, two below 1.
func number(v float64) string {
	if math.Abs(v) < 1 {
		return format.Digits(v, 2)
	}
	return format.Digits(v, 3)
}
