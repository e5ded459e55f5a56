package lesson

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/brewput/brewput/internal/format"
)

// Figure is brewput's figure for a claim: the median of its samples with
// the median's 95 % confidence interval [Lo, Hi] (infinite at both ends
// with too few samples), or, for the model, its one exact value, with Lo
// and Hi equal to it.
type Figure struct {
	Median, Lo, Hi float64
	// N is the number of samples the figure is made of (1 for the
	// model).
	N int
	// Values are the samples, in the order they were taken.
	Values []float64
}

// figureJSON is Figure as JSON holds it: an unbounded end, or a median
// with no samples, is null.
type figureJSON struct {
	Median *float64  `json:"median"`
	Lo     *float64  `json:"lo"`
	Hi     *float64  `json:"hi"`
	N      int       `json:"n"`
	Values []float64 `json:"values"`
}

// MarshalJSON writes an unbounded end of the interval as null.
func (f Figure) MarshalJSON() ([]byte, error) {
	values := f.Values
	if values == nil {
		values = []float64{}
	}
	return json.Marshal(figureJSON{finite(f.Median), finite(f.Lo), finite(f.Hi), f.N, values})
}

// UnmarshalJSON reads what MarshalJSON writes: a null end is infinite, a
// null median NaN.
func (f *Figure) UnmarshalJSON(data []byte) error {
	var v figureJSON
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*f = Figure{Median: math.NaN(), Lo: orInf(v.Lo, -1), Hi: orInf(v.Hi, 1), N: v.N, Values: v.Values}
	if v.Median != nil {
		f.Median = *v.Median
	}
	return nil
}

// Format says the figure in unit's terms with its interval: "×1.99 [1.97,
// 2.00]", "402 ms [398, 405]", "×1.99 (too few samples for an interval)",
// or "1000 lattes/s (model, exact)".
func (f Figure) Format(unit string, model bool) string {
	switch {
	case f.N == 0 || math.IsNaN(f.Median):
		return "no sample"
	case model:
		return FormatValue(f.Median, unit) + " (model, exact)"
	case math.IsInf(f.Lo, 0) || math.IsInf(f.Hi, 0):
		return fmt.Sprintf("%s (n=%d: too few for an interval)", FormatValue(f.Median, unit), f.N)
	}
	return fmt.Sprintf("%s [%s, %s]", FormatValue(f.Median, unit), bare(f.Lo, unit), bare(f.Hi, unit))
}

// The units of claims' figures.
const (
	// Ratio is a ratio of two measurements, written "×1.99".
	Ratio = "×"
	// Share is a fraction written as a percentage, "58 %".
	Share = "%"
	// Ms is a duration in milliseconds.
	Ms = "ms"
	// Lattes is the shop's throughput.
	Lattes = "lattes/s"
)

// FormatValue writes v in unit's terms: "×1.99", "58 %", "402 ms",
// "1000 lattes/s".
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

// bare writes v as formatValue does, without the unit.
func bare(v float64, unit string) string {
	if unit == Share {
		return number(100 * v)
	}
	return number(v)
}

// number writes v with three significant digits, two below 1, and no
// exponent for the sizes figures have: 1500, 24.0, 1.99, 0.58, 0.0061.
func number(v float64) string {
	if math.Abs(v) < 1 {
		return format.Digits(v, 2)
	}
	return format.Digits(v, 3)
}
