package cliflag

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Bytes is a size flag, in bytes: "4GB", "512MB", "1.5G", "1TB" or a plain
// number of bytes (units are powers of 1024). fs.Var((*cliflag.Bytes)(&n),
// "max-mem", "…") binds it to n, a float64.
type Bytes float64

// Set implements pflag.Value.
func (b *Bytes) Set(s string) error {
	num := strings.TrimSpace(s)
	mult := 1.0
	for _, u := range []struct {
		suffix string
		f      float64
	}{{"TB", 1 << 40}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"T", 1 << 40}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"B", 1}} {
		if rest, ok := strings.CutSuffix(strings.ToUpper(num), u.suffix); ok {
			num, mult = strings.TrimSpace(rest), u.f
			break
		}
	}
	v, err := strconv.ParseFloat(num, 64)
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
