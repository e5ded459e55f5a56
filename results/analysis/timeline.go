package analysis

import (
	"cmp"
	"slices"
	"time"

	"github.com/brewput/brewput/internal/base/collect"
)

// Timeline is what ran on each CPU of one run over a span of time.
type Timeline struct {
	Mode string `json:"mode"`
	CPUs int    `json:"cpus"`
	// Source is "model (fifo)", "model (go)" or "execution trace".
	Source string `json:"source"`
	// Start is when the span begins, since the run began; Span its length.
	Start time.Duration `json:"start"`
	Span  time.Duration `json:"span"`
	// Who names what a Bar's Who counts: "customer" or "goroutine".
	Who  string `json:"who"`
	Bars []Bar  `json:"bars"`
	// File is the trace it was read from; "" for the model's.
	File string `json:"file,omitempty"`
}

// Bar is one stretch of work on one CPU, its times since the Timeline's Start.
type Bar struct {
	CPU   int           `json:"cpu"`
	Start time.Duration `json:"start"`
	End   time.Duration `json:"end"`
	// Machine is the step's ("grinder#2"), Combine, or Other for Go code
	// outside the steps.
	Machine string `json:"machine"`
	// Who is the customer or goroutine (Timeline.Who); 0 for Other.
	Who int `json:"who"`
}

// The names of bars that are not a machine's step.
const (
	Combine = "combine"
	Other   = ""
)

// Kind is the kind of machine a bar's step used: "grinder" for grinder#2.
func (b Bar) Kind() string { return Kind(b.Machine) }

// SortBars puts bars in a Timeline's order: by CPU, then time.
func SortBars(bs []Bar) {
	slices.SortStableFunc(bs, func(a, b Bar) int {
		return cmp.Or(cmp.Compare(a.CPU, b.CPU), cmp.Compare(a.Start, b.Start))
	})
}

// Use is the share of the span the CPUs spent on steps, on other Go code,
// and on each kind of machine.
type Use struct {
	Steps, Other float64
	// Kinds are in the order the shop uses them.
	Kinds []KindUse
}

// KindUse is one kind of machine's share of the span, a copy's mean.
type KindUse struct {
	Kind   string
	Copies int
	Held   float64
}

// Use sums the timeline's bars.
func (t Timeline) Use() Use {
	var u Use
	if t.Span <= 0 || t.CPUs <= 0 {
		return u
	}
	all := float64(t.CPUs) * float64(t.Span)
	copies := map[string][]string{}
	held := map[string]time.Duration{}
	var kinds []string
	for _, b := range t.Bars {
		d := b.End - b.Start
		if b.Machine == Other {
			u.Other += float64(d) / all
			continue
		}
		u.Steps += float64(d) / all
		k := b.Kind()
		if k == Combine {
			continue
		}
		kinds = collect.AppendNew(kinds, k)
		copies[k] = collect.AppendNew(copies[k], b.Machine)
		held[k] += d
	}
	order := func(k string) int { return cmp.Or(slices.Index([]string{"grinder", "espresso", "steamer"}, k)+1, 4) }
	slices.SortStableFunc(kinds, func(a, b string) int { return cmp.Compare(order(a), order(b)) })
	for _, k := range kinds {
		n := len(copies[k])
		u.Kinds = append(u.Kinds, KindUse{Kind: k, Copies: n, Held: float64(held[k]) / float64(n) / float64(t.Span)})
	}
	return u
}

// Picture is one configuration's schedule: the model's timeline and a trace.
type Picture struct {
	Mode string `json:"mode"`
	CPUs int    `json:"cpus"`
	// Why says why it is drawn; Note why Model or Trace is nil, which
	// report/text says from the facts below.
	Why   string    `json:"why"`
	Model *Timeline `json:"model,omitempty"`
	Trace *Timeline `json:"trace,omitempty"`
	Note  string    `json:"note,omitempty"`
	// The facts Why and Note are said from, not kept in the file.
	Profiled  bool   `json:"-"` // drawn as the most CPUs profiled
	Does      string `json:"-"` // KeepsScaling, HitAWall or WalledAlone there
	Shown     *Entry `json:"-"` // the figures that show it
	ModelErr  string `json:"-"` // why the model cannot draw it
	TraceGone string `json:"-"` // the trace file that is not at hand
	TraceErr  string `json:"-"` // why the trace cannot be drawn
}

// What a picture shows its mode doing (Picture.Does): a mode that keeps
// scaling, one that has hit a wall beside it, or one at a wall with no
// mode that scales enough to draw beside it.
const (
	KeepsScaling = "keeps_scaling"
	HitAWall     = "hit_a_wall"
	WalledAlone  = "walled_alone"
)
