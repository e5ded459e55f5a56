package text

import (
	"strconv"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
)

// rateRange writes throughputs "488–498", one figure where they round alike.
func rateRange(lo, hi float64) string { return format.Range(format.Whole(lo), format.Whole(hi)) }

// cpus writes "1 CPU", "6 CPUs".
func cpus(n int) string { return format.Count(n, "CPU") }

// cpusText writes CPUs that need not be whole: "1 CPU", "0.45 CPUs".
func cpusText(v float64) string {
	if s := format.Number(v); s != "1" {
		return s + " CPUs"
	}
	return "1 CPU"
}

// cpuList writes CPU counts as "1, 2 and 4 CPUs", "1 CPU".
func cpuList(counts []int) string {
	if len(counts) == 1 {
		return cpus(counts[0])
	}
	return format.JoinAnd(collect.Mapped(counts, strconv.Itoa)) + " CPUs"
}

// siRate writes a throughput to three digits, no unit: "8.13M", "1.5k",
// "850" (format.Number leaves a whole one below 100000 unprefixed).
func siRate(v float64) string {
	if v >= 1e3 && v < 1e5 {
		return format.Sig(v/1e3, 3) + "k"
	}
	return format.Number(v)
}
