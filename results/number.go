package results

import (
	"math"
	"strconv"
	"strings"
)

// FormatNumber writes a number for people, never in e-notation: a whole
// number below 100000 as it is ("64", "50000"); a larger one with an SI
// prefix and three significant digits ("592k", "1.79M", "4.17G"); any
// other with three significant digits ("0.843", "12.3", "0.00285").
func FormatNumber(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return strconv.FormatFloat(v, 'f', -1, 64)
	case v < 0:
		return "-" + FormatNumber(-v)
	case v == math.Trunc(v) && v < 1e5:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 1e4:
		n, prefix := scaled(v)
		return n + prefix
	}
	return sig3(v)
}

// scaled writes v, 1000 or more, with an SI prefix and three
// significant digits: ("592", "k"), ("1.79", "M"); a figure that rounds
// to 1000 takes the next prefix ("1", "M", not "1000", "k").
func scaled(v float64) (n, prefix string) {
	prefixes := []string{"k", "M", "G", "T"}
	for i, prefix := range prefixes {
		f := math.Pow(1e3, float64(i+1))
		if n := sig3(v / f); i == len(prefixes)-1 || v < 1e3*f && n != "1000" {
			return n, prefix
		}
	}
	return "", ""
}

// sig3 writes v, positive or zero, with three significant digits and no
// exponent, trailing zeros after the point dropped: "0.843", "12.3",
// "100", "999".
func sig3(v float64) string {
	if v == 0 {
		return "0"
	}
	digits := max(0, 2-int(math.Floor(math.Log10(v))))
	s := strconv.FormatFloat(v, 'f', digits, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// FormatSeconds writes a time in seconds in the unit that reads best:
// "1.23 s", "45.6 s", "3.1 ms", "800 ns" (see FormatWait).
func FormatSeconds(s float64) string {
	if s >= 1 {
		return sig3(s) + " s"
	}
	return FormatWait(s * 1000)
}

// FormatMetric writes a lab's metric in readable units, as its name's
// suffix says: a rate ("…_per_s": "592k/s"), a time ("…_s", "…_ms",
// "…_us", "cpu_us_per_…": "1.2 s", "3.1 ms", "45 µs"), or a number
// (FormatNumber).
func FormatMetric(m Metric, v float64) string {
	name := string(m)
	switch {
	case strings.HasSuffix(name, "_per_s"):
		return FormatNumber(v) + "/s"
	case strings.HasSuffix(name, "_ms"), strings.Contains(name, "_ms_per_"):
		return FormatWait(v)
	case strings.HasSuffix(name, "_us"), strings.Contains(name, "_us_per_"):
		return FormatWait(v / 1e3)
	case strings.HasSuffix(name, "_s"):
		return FormatSeconds(v)
	}
	return FormatNumber(v)
}
