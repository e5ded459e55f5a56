package results

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// csvHeader lists the CSV columns: the JSON keys, nested ones joined with a
// dot. The machines, whose number varies by mode, share one column of
// name:uses:busy_frac:mean_wait_ms entries separated by semicolons.
func csvHeader() []string {
	h := []string{"source", "mode", "cpus", "cpuset", "par", "rate", "maxq", "dur_s", "warmup_s",
		"ops", "errors", "drops", "throughput", "unit", "cpu_used", "util"}
	for _, prefix := range []string{"latency_ms", "service_ms"} {
		for _, k := range latencyKeys() {
			h = append(h, prefix+"."+k)
		}
	}
	return append(h, "machines",
		"steps.grind_ms", "steps.press_ms", "steps.steam_ms", "steps.latte_ms", "steps.jitter_ms", "steps.clock",
		"host.name", "host.cpu_model", "host.cores", "host.go_version", "host.os", "host.arch", "start")
}

func latencyKeys() []string {
	return []string{"min", "p05", "p25", "p50", "p75", "p90", "p95", "p99", "max", "mean"}
}

func (l Latency) values() []float64 {
	return []float64{l.Min, l.P05, l.P25, l.P50, l.P75, l.P90, l.P95, l.P99, l.Max, l.Mean}
}

// WriteCSV writes a header and one row per point.
func WriteCSV(w io.Writer, points []Point) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader()); err != nil {
		return err
	}
	num := func(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
	for _, p := range points {
		row := []string{p.Source, p.Mode, strconv.Itoa(p.CPUs), p.CPUSet, strconv.Itoa(p.Par), num(p.Rate),
			strconv.Itoa(p.MaxQ), num(p.DurS), num(p.WarmupS), fmt.Sprint(p.Ops), fmt.Sprint(p.Errors),
			fmt.Sprint(p.Drops), num(p.Throughput), p.Unit, num(p.CPUUsed), num(p.Util)}
		for _, v := range p.Latency.values() {
			row = append(row, num(v))
		}
		row = append(row, serviceCells(p.Service, num)...)
		var ms []string
		for _, m := range p.Machines {
			ms = append(ms, fmt.Sprintf("%s:%d:%s:%s", m.Name, m.Uses, num(m.BusyFrac), num(m.MeanWaitMs)))
		}
		row = append(row, strings.Join(ms, ";"),
			num(p.Steps.GrindMs), num(p.Steps.PressMs), num(p.Steps.SteamMs), num(p.Steps.LatteMs), num(p.Steps.JitterMs), p.Steps.Clock,
			p.Host.Name, p.Host.CPUModel, strconv.Itoa(p.Host.Cores), p.Host.GoVersion, p.Host.OS, p.Host.Arch,
			p.Start.Format(time.RFC3339Nano))
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// serviceCells is empty cells for a closed loop, which has no separate
// service time.
func serviceCells(s *Latency, num func(float64) string) []string {
	cells := make([]string, len(latencyKeys()))
	if s == nil {
		return cells
	}
	for i, v := range s.values() {
		cells[i] = num(v)
	}
	return cells
}
