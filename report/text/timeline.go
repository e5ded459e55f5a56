package text

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/results/analysis"
)

// TimelineTitle names a timeline: "finelocking on 6 CPUs, model (fifo)".
func TimelineTitle(t analysis.Timeline) string {
	return fmt.Sprintf("%s on %s, %s", t.Mode, cpus(t.CPUs), t.Source)
}

// TimelineSummary says a timeline's use: "The CPUs ran steps 67 % of the time; …".
func TimelineSummary(t analysis.Timeline) string {
	u := t.Use()
	s := fmt.Sprintf("The %s ran steps %s of the time", format.Plural(t.CPUs, "CPU"), format.Percent(u.Steps, 0))
	if u.Other >= 0.005 {
		s += fmt.Sprintf(" and other Go code %s", format.Percent(u.Other, 0))
	}
	var parts []string
	for _, k := range u.Kinds {
		name := "the " + machineWord(k.Kind)
		if k.Copies > 1 {
			name = fmt.Sprintf("the %d %ss, each", k.Copies, machineWord(k.Kind))
		}
		parts = append(parts, name+" "+format.Percent(k.Held, 0))
	}
	if len(parts) > 0 {
		s += "; working: " + strings.Join(parts, ", ")
	}
	return s + "."
}

// machineWord names a kind of machine for people.
func machineWord(kind string) string {
	if kind == "espresso" {
		return "espresso machine"
	}
	return kind
}

// letter is a bar's letter in WriteTimelineText.
func letter(b analysis.Bar) byte {
	switch k := b.Kind(); k {
	case analysis.Other:
		return '-'
	case analysis.Combine:
		return 'c'
	default:
		return strings.ToUpper(k[:1])[0]
	}
}

// WriteTimelineText draws a timeline in width columns of text, a row per
// CPU, each column the step that ran longest in its share of the span.
func WriteTimelineText(w io.Writer, t analysis.Timeline, width int) error {
	label, line := len(fmt.Sprint(t.CPUs-1)), width
	width = max(width-len("CPU  ||")-label, 10)
	col := max(t.Span/time.Duration(width), 1)
	fmt.Fprintln(w, format.Wrap(fmt.Sprintf("%s: %v from %v, one column %v", TimelineTitle(t), t.Span, t.Start.Round(time.Microsecond), col), line, "  "))
	byCPU := make([][]analysis.Bar, t.CPUs)
	for _, b := range t.Bars {
		if b.CPU >= 0 && b.CPU < t.CPUs {
			byCPU[b.CPU] = append(byCPU[b.CPU], b)
		}
	}
	for cpu, bars := range byCPU {
		row := make([]byte, width)
		for i := range row {
			from, to := time.Duration(i)*col, time.Duration(i+1)*col
			var best time.Duration
			row[i] = '.'
			for _, b := range bars {
				if d := min(b.End, to) - max(b.Start, from); d > best && d*2 >= col/2 {
					best, row[i] = d, letter(b)
				}
			}
		}
		if _, err := fmt.Fprintf(w, "CPU %*d |%s|\n", label, cpu, row); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(w, "%s\n%s\n", format.Wrap("G grinder, E espresso machine, S steamer, c combine, - other Go code, . no step", line, "  "),
		format.Wrap(TimelineSummary(t), line, ""))
	return err
}

// WriteTimelineTexts writes each timeline as WriteTimelineText does.
func WriteTimelineTexts(w io.Writer, ts []analysis.Timeline, width int) error {
	return writeApart(w, collect.Mapped(ts, func(t analysis.Timeline) func() error {
		return func() error { return WriteTimelineText(w, t, width) }
	}))
}

// timelineJSON is a Timeline as brewput schedule --format json writes it.
type timelineJSON struct {
	Mode    string    `json:"mode"`
	CPUs    int       `json:"cpus"`
	Source  string    `json:"source"`
	Title   string    `json:"title"`
	Summary string    `json:"summary"`
	StartMS float64   `json:"start_ms"`
	SpanMS  float64   `json:"span_ms"`
	Who     string    `json:"who"`
	File    string    `json:"file,omitempty"`
	Bars    []barJSON `json:"bars"`
}

type barJSON struct {
	CPU     int     `json:"cpu"`
	StartMS float64 `json:"start_ms"`
	EndMS   float64 `json:"end_ms"`
	Machine string  `json:"machine"`
	Kind    string  `json:"kind"`
	Who     int     `json:"who"`
}

// WriteTimelinesJSON writes the timelines as one JSON array.
func WriteTimelinesJSON(w io.Writer, ts []analysis.Timeline) error {
	millis := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	out := collect.Mapped(ts, func(t analysis.Timeline) timelineJSON {
		bars := collect.Mapped(t.Bars, func(b analysis.Bar) barJSON {
			return barJSON{CPU: b.CPU, StartMS: millis(b.Start), EndMS: millis(b.End), Machine: b.Machine, Kind: b.Kind(), Who: b.Who}
		})
		return timelineJSON{Mode: t.Mode, CPUs: t.CPUs, Source: t.Source, Title: TimelineTitle(t), Summary: TimelineSummary(t),
			StartMS: millis(t.Start), SpanMS: millis(t.Span), Who: t.Who, File: t.File, Bars: bars}
	})
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
