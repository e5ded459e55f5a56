package text

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/brewput/brewput/internal/prose"
	"github.com/brewput/brewput/results"
)

// rate writes a throughput for people: "498", "1000", "59.9M".
func rate(v float64) string {
	if v >= 1e5 {
		return results.FormatNumber(v)
	}
	return fmt.Sprintf("%.0f", v)
}

// rateRange writes "488–498", or one figure where they round alike.
func rateRange(lo, hi float64) string {
	if rate(lo) == rate(hi) {
		return rate(lo)
	}
	return rate(lo) + "–" + rate(hi)
}

// ms writes a latency in ms: "4.00", "12.0", "0.420", "0.0000167".
func ms(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	case v >= 1:
		return fmt.Sprintf("%.2f", v)
	case v >= 0.1 || v <= 0:
		return fmt.Sprintf("%.3f", v)
	}
	return results.FormatNumber(v) // three significant digits, as small as it is
}

// msRange writes "4.01–4.21", or one figure.
func msRange(lo, hi float64) string {
	if ms(lo) == ms(hi) {
		return ms(lo)
	}
	return ms(lo) + "–" + ms(hi)
}

// cpus writes "1 CPU", "6 CPUs".
func cpus(n int) string {
	if n == 1 {
		return "1 CPU"
	}
	return fmt.Sprintf("%d CPUs", n)
}

// cpuSpan writes "1–3", "4", for the counts from a to b.
func cpuSpan(a, b int) string {
	if a == b {
		return strconv.Itoa(a)
	}
	return strconv.Itoa(a) + "–" + strconv.Itoa(b)
}

// cpuList writes CPU counts as "1, 2 and 4 CPUs", "1 CPU".
func cpuList(counts []int) string {
	if len(counts) == 1 {
		return cpus(counts[0])
	}
	parts := make([]string, len(counts))
	for i, n := range counts {
		parts[i] = strconv.Itoa(n)
	}
	return prose.JoinAnd(parts) + " CPUs"
}

// siRate writes a throughput with an SI prefix and no unit: "8.13M".
func siRate(v float64) string {
	for _, p := range []struct {
		f float64
		s string
	}{{1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if v >= p.f {
			return fmt.Sprintf("%.3g%s", v/p.f, p.s)
		}
	}
	return fmt.Sprintf("%.3g", v)
}

// ratio writes a ratio with two significant figures: "0.25", "1.9", "12".
func ratio(r float64) string {
	if r >= 10 {
		return fmt.Sprintf("%.0f", r)
	}
	return fmt.Sprintf("%.2g", r)
}

// ratio3 writes a ratio with three significant figures, "0.995", "1.02",
// "12.3": an interval's ends must not round onto each other.
func ratio3(r float64) string {
	if r >= 100 {
		return fmt.Sprintf("%.0f", r)
	}
	return strconv.FormatFloat(r, 'f', max(0, 2-int(math.Floor(math.Log10(r)))), 64)
}

// Wrap breaks s into lines of at most width, each after the first
// starting with indent.
func Wrap(s string, width int, indent string) string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		if line != "" && len(line)+1+len(word) > width {
			lines = append(lines, line)
			line = indent + word
			continue
		}
		if line == "" {
			line = word
		} else {
			line += " " + word
		}
	}
	return strings.Join(append(lines, line), "\n")
}
