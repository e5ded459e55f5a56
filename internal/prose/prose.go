// Package prose writes the small pieces of English that brewput's verdicts
// and explanations share, so that every sentence lists and capitalizes the
// same way.
package prose

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// JoinAnd joins "a, b and c": "" for none, the one for one.
func JoinAnd(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// Capital writes s with its first byte in upper case; s should begin with
// an ASCII letter, as every sentence brewput writes does.
func Capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Gain writes a relative change as a signed percentage: "+50 %", "+7.3 %",
// "-0.4 %"; one decimal below 10 %.
func Gain(g float64) string {
	v := 100 * g
	if math.Abs(v) < 9.95 {
		return fmt.Sprintf("%+.1f %%", v)
	}
	return fmt.Sprintf("%+.0f %%", v)
}

// Count writes a count with its noun: "1 point", "-1 CPU", "12 points".
func Count(n int, noun string) string {
	if n == 1 || n == -1 {
		return fmt.Sprintf("%d %s", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// Ints writes whole numbers joined by sep: "1, 2" with ", ", "1,2" with
// "," as a flag takes them.
func Ints(xs []int, sep string) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, sep)
}
