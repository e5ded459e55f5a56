// Package format writes numbers and words for people (significant
// figures, SI prefixes, times, rates, percentages, counts, lists, ranges)
// and holds the one table writer, so every surface writes a figure alike;
// where two surfaces differ, each way is its own function, named so.
package format

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Number writes a number without e-notation: a whole one below 100000 as
// is ("64"), a larger one with an SI prefix to three digits ("592k",
// "1.79M"), any other to three significant digits ("0.843", "0.00285").
func Number(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return strconv.FormatFloat(v, 'f', -1, 64)
	case v < 0:
		return "-" + Number(-v)
	case v == math.Trunc(v) && v < 1e5:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 1e4:
		n, prefix := scaled(v, sig3)
		return n + prefix
	}
	return Sig(v, 3)
}

// Whole rounds to a whole number, SI-prefixed from 100000 (Number).
func Whole(v float64) string {
	if v >= 1e5 {
		return Number(v)
	}
	return fmt.Sprintf("%.0f", v)
}

// scaled writes v ≥ 1000 with an SI prefix to three digits, rounded by sig
// (sig3, or sigUp for a bound): ("1.79", "M"); a figure rounding to 1000
// takes the next prefix ("1", "M").
func scaled(v float64, sig func(float64) string) (n, prefix string) {
	prefixes := []string{"k", "M", "G", "T"}
	for i, prefix := range prefixes {
		f := math.Pow(1e3, float64(i+1))
		if n := sig(v / f); i == len(prefixes)-1 || v < 1e3*f && n != "1000" {
			return n, prefix
		}
	}
	return "", ""
}

func sig3(v float64) string { return Sig(v, 3) }

// Sig writes v to n significant digits, no exponent, trailing zeros
// dropped: Sig(0.8429, 3) is "0.843".
func Sig(v float64, n int) string {
	s := Digits(v, n)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// AtMost writes an upper bound rounded up, lest it show below a count that
// meets it; floating-point noise past the last digit does not round up.
func AtMost(v float64, decimals int) string {
	return strconv.FormatFloat(roundUp(v, decimals), 'f', decimals, 64)
}

func roundUp(v float64, decimals int) float64 {
	scale := math.Pow10(decimals)
	return math.Ceil(v*scale*(1-1e-12)) / scale
}

// SIAtMost writes a large upper bound SI-prefixed to three digits
// ("8.07M"), rounded up as AtMost.
func SIAtMost(v float64) string {
	if v >= 1e3 {
		n, prefix := scaled(v, sigUp)
		return n + prefix
	}
	return sigUp(v)
}

func sigUp(v float64) string { return Sig(roundUp(v, decimals(v, 3)), 3) }

// Apart writes a and b with the fewest significant digits, four or more,
// that tell them apart, so that a number just past a bound is seen to pass it.
func Apart(a, b float64) (string, string) {
	for n := 4; n < 12; n++ {
		if x, y := Sig(a, n), Sig(b, n); x != y {
			return x, y
		}
	}
	return Sig(a, 12), Sig(b, 12)
}

// Digits is Sig keeping trailing zeros, as benchstat: Digits(4, 3) is
// "4.00".
func Digits(v float64, n int) string {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strconv.FormatFloat(v, 'f', decimals(v, n), 64)
}

// decimals is how many digits after the point give v n significant ones.
func decimals(v float64, n int) int {
	return max(0, n-1-int(math.Floor(math.Log10(math.Abs(v)))))
}

// Param writes a fitted parameter (σ, κ) to four significant digits.
func Param(v float64) string {
	if v == 0 {
		return "0"
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// Approx writes a large count briefly: "950", "12 k", "4.0 M".
func Approx(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.1f G", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.1f M", float64(n)/1e6)
	case n >= 1e4:
		return fmt.Sprintf("%.0f k", float64(n)/1e3)
	}
	return strconv.FormatInt(n, 10)
}

// Bytes writes a size in binary multiples: "512 B", "3.2 MB".
func Bytes(b float64) string {
	for _, u := range []struct {
		f float64
		s string
	}{{1 << 50, "PB"}, {1 << 40, "TB"}, {1 << 30, "GB"}, {1 << 20, "MB"}, {1 << 10, "KB"}} {
		if b >= u.f {
			return fmt.Sprintf("%.1f %s", b/u.f, u.s)
		}
	}
	return fmt.Sprintf("%.0f B", b)
}

// Rate writes a throughput to three digits in its unit, SI-prefixed where
// large: "874 ops/s", "1.03 Gints/s".
func Rate(v float64, unit string) string {
	if v >= 1e3 {
		n, prefix := scaled(v, sig3)
		return n + " " + prefix + unit
	}
	return Sig(max(v, 0), 3) + " " + unit
}

// Wait writes a time in ms in the unit that reads best: "3.1 ms", "45 µs",
// "800 ns".
func Wait(ms float64) string {
	switch {
	case ms == 0:
		return "0 ms"
	case ms > 0 && ms < 0.5e-6:
		return "under 1 ns" // not "0 ns", which would say none
	}
	for _, u := range []struct {
		from, scale float64
		decimals    int
		unit        string
	}{{100, 1, 0, "ms"}, {1, 1, 1, "ms"}, {0.1, 1, 2, "ms"}, {0.01, 1e3, 0, "µs"}, {0.001, 1e3, 1, "µs"}} {
		if ms >= u.from {
			return fmt.Sprintf("%.*f %s", u.decimals, ms*u.scale, u.unit)
		}
	}
	return fmt.Sprintf("%.0f ns", ms*1e6)
}

// Seconds writes seconds: "1.23 s", under a second as Wait.
func Seconds(s float64) string {
	if s >= 1 {
		return Sig(s, 3) + " s"
	}
	return Wait(s * 1000)
}

// Ms writes ms without a unit, as tables' ms columns: two decimals, or
// three significant digits where two decimals show nothing ("0.0285").
func Ms(v float64) string {
	if v >= 0.1 || v == 0 {
		return fmt.Sprintf("%.2f", v)
	}
	return Sig(v, 3)
}

// Ms3 writes ms without a unit, as sentences: three significant digits,
// zeros kept ("4.00", "0.420"), then as few as they are ("0.0000167").
func Ms3(v float64) string {
	switch {
	case v >= 0.1:
		return Digits(v, 3)
	case v <= 0:
		return fmt.Sprintf("%.3f", v)
	}
	return Number(v)
}

// TimeUnit is the unit times in ms up to maxMs read best in, and how many
// of it make a millisecond.
func TimeUnit(maxMs float64) (unit string, perMs float64) {
	switch {
	case maxMs >= 0.1 || maxMs <= 0:
		return "ms", 1
	case maxMs >= 1e-3:
		return "µs", 1e3
	}
	return "ns", 1e6
}

// MsRange writes lo to hi ms as Ms3 in TimeUnit(hi): "4.01–4.21 ms".
func MsRange(lo, hi float64) string {
	unit, per := TimeUnit(hi)
	return Range(Ms3(lo*per), Ms3(hi*per)) + " " + unit
}

// Millis writes a duration in ms to the µs, no trailing zeros: "2.5".
func Millis(d time.Duration) string {
	s := strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 3, 64)
	return strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
}

// Metric writes a lab's metric in the unit its name's suffix says
// ("…_per_s", "…_ms", "…_us", "…_s"), else as a Number.
func Metric(name string, v float64) string {
	switch {
	case strings.HasSuffix(name, "_per_s"):
		return Number(v) + "/s"
	case strings.HasSuffix(name, "_ms"), strings.Contains(name, "_ms_per_"):
		return Wait(v)
	case strings.HasSuffix(name, "_us"), strings.Contains(name, "_us_per_"):
		return Wait(v / 1e3)
	case strings.HasSuffix(name, "_s"):
		return Seconds(v)
	}
	return Number(v)
}

// Nanos writes ns as a time.Duration does ("1.25µs"), to four digits at
// most ("1.316ms", where a Duration shows "1.315529ms"), and a fraction
// under 10 ns to two ("1.6ns") where a Duration shows "1ns".
func Nanos(ns float64) string {
	a := math.Abs(ns)
	if a < 10 && a != math.Trunc(a) {
		return Sig(ns, 2) + "ns"
	}
	d := time.Duration(math.Round(ns))
	if a >= 1e4 {
		d = d.Round(time.Duration(math.Pow10(int(math.Floor(math.Log10(a))) - 3)))
	}
	return d.String()
}
