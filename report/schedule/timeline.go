package schedule

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/brewput/brewput/internal/format"
)

// Span is the stretch of time a picture shows by default: 20 ms, five
// lattes of the talk's shop per customer.
const Span = 20 * time.Millisecond

// Timeline is what ran on each CPU of one run over a span of time.
type Timeline struct {
	// Mode and CPUs say which configuration ran.
	Mode string
	CPUs int
	// Source says where the timeline comes from: "model (fifo)", "model
	// (go)" or "execution trace".
	Source string
	// Start is when the span begins, since the run (the trace) began;
	// Span is its length.
	Start, Span time.Duration
	// Who names what a Bar's Who counts: "customer" (the model knows
	// whose drink a step is) or "goroutine" (a trace knows who ran it,
	// numbered from 1 in the order they first ran a step).
	Who string
	// Bars are the steps, by CPU and then time.
	Bars []Bar
	// File is the trace the timeline was read from; "" for the model's.
	File string
}

// Bar is one stretch of work on one CPU.
type Bar struct {
	CPU int
	// Start and End are since the Timeline's Start.
	Start, End time.Duration
	// Machine names the machine the step used ("grinder", "grinder#2");
	// Combine for the combine step, which uses none; Other for Go code
	// outside the steps (a trace's harness, channel operations, the
	// runtime's own goroutines).
	Machine string
	// Who is the customer or the goroutine (see Timeline.Who); 0 for
	// Other.
	Who int
}

// The names of bars that are not a machine's step.
const (
	Combine = "combine"
	Other   = ""
)

// Kind is the kind of machine a bar's step used: "grinder" for grinder#2,
// Combine, or Other.
func (b Bar) Kind() string {
	if i := strings.IndexByte(b.Machine, '#'); i >= 0 {
		return b.Machine[:i]
	}
	return b.Machine
}

// sortBars puts bars in the order a Timeline keeps them: by CPU, then time.
func sortBars(bs []Bar) {
	slices.SortStableFunc(bs, func(a, b Bar) int {
		if c := cmp.Compare(a.CPU, b.CPU); c != 0 {
			return c
		}
		return cmp.Compare(a.Start, b.Start)
	})
}

// Title names the timeline: "finelocking on 6 CPUs, model (fifo)".
func (t Timeline) Title() string {
	return fmt.Sprintf("%s on %d %s, %s", t.Mode, t.CPUs, format.Plural(t.CPUs, "CPU"), t.Source)
}

// Use is how much of the span the CPUs spent on steps, and each kind of
// machine on its steps (for a pool, the mean over its copies).
type Use struct {
	// Steps is the CPUs' time on steps over the CPUs' time; Other that of
	// Go code outside the steps.
	Steps, Other float64
	// Kinds are the machine kinds in the order the shop uses them, with
	// Held the share of the span each copy worked on average, and Copies
	// the copies seen.
	Kinds []KindUse
}

// KindUse is one kind of machine's share of the span.
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
		if !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
		if !slices.Contains(copies[k], b.Machine) {
			copies[k] = append(copies[k], b.Machine)
		}
		held[k] += d
	}
	order := []string{"grinder", "espresso", "steamer"}
	slices.SortStableFunc(kinds, func(a, b string) int {
		ia, ib := slices.Index(order, a), slices.Index(order, b)
		if ia < 0 {
			ia = len(order)
		}
		if ib < 0 {
			ib = len(order)
		}
		return cmp.Compare(ia, ib)
	})
	for _, k := range kinds {
		n := len(copies[k])
		u.Kinds = append(u.Kinds, KindUse{Kind: k, Copies: n, Held: float64(held[k]) / float64(n) / float64(t.Span)})
	}
	return u
}

// Summary says the timeline's use in one sentence: "The CPUs ran steps
// 67 % of the time; the grinder worked 100 %, the espresso machine 100 %,
// the steamer 100 %."
func (t Timeline) Summary() string {
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
		parts = append(parts, fmt.Sprintf("%s %s", name, format.Percent(k.Held, 0)))
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

// letter is a bar's letter in WriteText: the machine kind's initial, c for
// combining, - for other Go code.
func letter(b Bar) byte {
	switch k := b.Kind(); k {
	case Other:
		return '-'
	case Combine:
		return 'c'
	default:
		return strings.ToUpper(k[:1])[0]
	}
}

// WriteText draws the timeline in width columns of text, a row per CPU:
// each column shows the step that ran longest in its share of the span
// (G grinding, E pressing on the espresso machine, S steaming, c
// combining, - other Go code), or a dot where the CPU ran none of it.
func (t Timeline) WriteText(w io.Writer, width int) error {
	if width < 10 {
		width = 10
	}
	col := t.Span / time.Duration(width)
	if col <= 0 {
		col = 1
	}
	fmt.Fprintf(w, "%s: %v from %v, one column %v\n", t.Title(), t.Span, t.Start.Round(time.Microsecond), col)
	byCPU := make([][]Bar, t.CPUs)
	for _, b := range t.Bars {
		if b.CPU >= 0 && b.CPU < t.CPUs {
			byCPU[b.CPU] = append(byCPU[b.CPU], b)
		}
	}
	label := len(fmt.Sprint(t.CPUs - 1))
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
	_, err := fmt.Fprintf(w, "G grinder, E espresso machine, S steamer, c combine, - other Go code, . no step\n%s\n", t.Summary())
	return err
}
