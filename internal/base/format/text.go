package format

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/brewput/brewput/internal/base/collect"
)

// Percent writes a fraction in percent: "58 %", "9.1 %"; "?" for NaN.
func Percent(f float64, decimals int) string {
	if math.IsNaN(f) {
		return "?"
	}
	return fmt.Sprintf("%.*f %%", decimals, 100*f)
}

// Gain writes a relative change as a signed percentage, a decimal below
// 10 %: "+50 %", "+7.3 %", "+0.0 %" (never "-0.0 %").
func Gain(g float64) string {
	v := 100 * g
	if math.Abs(v) < 9.95 {
		if math.Abs(v) < 0.05 {
			v = 0
		}
		return fmt.Sprintf("%+.1f %%", v)
	}
	return fmt.Sprintf("%+.0f %%", v)
}

// WholeGain writes a relative change as a whole signed percentage, as the
// advice's table: "+25 %", "0 %".
func WholeGain(g float64) string {
	v := math.Round(100 * g)
	if v == 0 {
		return "0 %"
	}
	return fmt.Sprintf("%+.0f %%", v)
}

// Delta writes a percent change as benchstat: "+1.5%"; "?" for no ratio.
func Delta(pct float64) string {
	if math.IsNaN(pct) || math.IsInf(pct, 0) {
		return "?"
	}
	return fmt.Sprintf("%+.1f%%", pct)
}

// Count writes a count with its noun: "1 point", "12 points".
func Count(n int, noun string) string {
	return strconv.Itoa(n) + " " + Plural(n, noun)
}

// Plural is noun as n of it reads: "CPU" for 1 (or -1), else "CPUs".
func Plural(n int, noun string) string {
	if n == 1 || n == -1 {
		return noun
	}
	return noun + "s"
}

// Range writes lo–hi, or lo where they read the same.
func Range(lo, hi string) string {
	if lo == hi {
		return lo
	}
	return lo + "–" + hi
}

// JoinAnd joins "a, b and c".
func JoinAnd(s []string) string { return joinLast(s, " and ") }

// JoinOr joins "a, b or c".
func JoinOr(s []string) string { return joinLast(s, " or ") }

func joinLast(s []string, last string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + last + s[len(s)-1]
}

// Ints writes whole numbers joined by sep.
func Ints(xs []int, sep string) string {
	return strings.Join(collect.Mapped(xs, strconv.Itoa), sep)
}

// Capital upper-cases s's first byte, an ASCII letter in every sentence
// brewput writes.
func Capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Wrap breaks s at spaces into lines of at most width runes (a longer word
// has a line of its own), each further line starting with indent.
func Wrap(s string, width int, indent string) string {
	var lines []string
	line := ""
	for _, word := range values(s) {
		switch {
		case line != "" && utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) > width:
			lines = append(lines, line)
			line = indent + word
		case line == "":
			line = word
		default:
			line += " " + word
		}
	}
	return strings.Join(append(lines, line), "\n")
}

// unit says whether word is a unit a number keeps on its line ("%",
// "µs,", "CPUs", a rate, a benchmark unit).
func unit(word string) bool {
	word = strings.TrimRight(word, ",;.:)]")
	switch word {
	case "%", "ns", "µs", "ms", "s", "×", "CPU", "CPUs":
		return true
	}
	// A rate and a Go benchmark's units: lattes/s, ns/op, B/op, p99-ns.
	return strings.HasSuffix(word, "/s") || strings.HasSuffix(word, "/op") || strings.HasSuffix(word, "-ns")
}

// values splits s into the words Wrap keeps whole: a number and its unit
// ("100 %"), a flag and its number ("--count 6"), a name and its span
// ("the grinder (4–6)").
func values(s string) []string {
	var out []string
	for _, word := range strings.Fields(s) {
		if n := len(out); n > 0 && (unit(word) && strings.ContainsAny(out[n-1][len(out[n-1])-1:], "0123456789") ||
			strings.HasPrefix(out[n-1], "-") && strings.ContainsAny(word[:1], "0123456789") ||
			len(word) > 1 && word[0] == '(' && strings.ContainsAny(word[1:2], "0123456789")) {
			out[n-1] += " " + word
			continue
		}
		out = append(out, word)
	}
	return out
}

// EditDistance is the Levenshtein distance of a and b, for "did you mean".
func EditDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
