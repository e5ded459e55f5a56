// Package cliflag holds the flag values (a duration, a size) and the hint
// on a mistyped package pattern that brewput's commands, labs and
// studies share; the standard library only, so that a lab may use it.
package cliflag

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Duration is a time.Duration flag whose parse error says what it
// accepts: fs.Var((*cliflag.Duration)(&d), "dur", "…").
type Duration time.Duration

// Set implements pflag.Value.
func (d *Duration) Set(s string) error {
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("want a duration such as 2s, 500ms or 1.5ms")
	}
	*d = Duration(v)
	return nil
}

// String implements pflag.Value.
func (d *Duration) String() string { return time.Duration(*d).String() }

// Type implements pflag.Value.
func (d *Duration) Type() string { return "duration" }

// Bytes is a size flag, in bytes: "4GB", "512MB", "1.5G", "1TB" or a plain
// number of bytes (units are powers of 1024). fs.Var((*cliflag.Bytes)(&n),
// "max-mem", "…") binds it to n, a float64.
type Bytes float64

// Set implements pflag.Value.
func (b *Bytes) Set(s string) error {
	num, mult := strings.TrimSuffix(strings.ToUpper(strings.TrimSpace(s)), "B"), 1.0
	for i, prefix := range []string{"K", "M", "G", "T"} {
		if rest, ok := strings.CutSuffix(num, prefix); ok {
			num, mult = rest, math.Pow(1024, float64(i+1))
			break
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
		return fmt.Errorf("want a size such as 4GB, 512MB or 1.5G")
	}
	*b = Bytes(v * mult)
	return nil
}

// String implements pflag.Value.
func (b *Bytes) String() string {
	v := float64(*b)
	for _, u := range []struct {
		f float64
		s string
	}{{1 << 40, "TB"}, {1 << 30, "GB"}, {1 << 20, "MB"}, {1 << 10, "KB"}} {
		if v >= u.f {
			return strconv.FormatFloat(v/u.f, 'f', -1, 64) + u.s
		}
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// Type implements pflag.Value.
func (b *Bytes) Type() string { return "size" }
