package schedule

import (
	"encoding/json"
	"io"
	"time"
)

// timelineJSON is a Timeline as brewput schedule --format json writes it,
// with its title and summary, the words its picture is shown with.
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
	// Machine is the bar's Machine; Kind its Kind, "" for other Go code.
	Machine string `json:"machine"`
	Kind    string `json:"kind"`
	Who     int    `json:"who"`
}

func millis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// WriteJSON writes the timelines as one JSON array, each with the title
// and summary sentence its text and picture carry.
func WriteJSON(w io.Writer, ts []Timeline) error {
	out := make([]timelineJSON, 0, len(ts))
	for _, t := range ts {
		j := timelineJSON{Mode: t.Mode, CPUs: t.CPUs, Source: t.Source, Title: t.Title(), Summary: t.Summary(),
			StartMS: millis(t.Start), SpanMS: millis(t.Span), Who: t.Who, File: t.File, Bars: make([]barJSON, 0, len(t.Bars))}
		for _, b := range t.Bars {
			j.Bars = append(j.Bars, barJSON{CPU: b.CPU, StartMS: millis(b.Start), EndMS: millis(b.End), Machine: b.Machine, Kind: b.Kind(), Who: b.Who})
		}
		out = append(out, j)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
