package report

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/brewput/brewput/coffee"
	modelsched "github.com/brewput/brewput/experiment/schedule"
	"github.com/brewput/brewput/explain/verdict"
	"github.com/brewput/brewput/model"
)

// TestHeatmap: a row per mode, a column per CPU count, each cell in the
// colour of what limits it, its throughput written in it, a measured cell
// framed.
func TestHeatmap(t *testing.T) {
	t.Parallel()
	points := append(simulated(t, "finelocking", 1, 2, 6), simulated(t, "locking", 1, 2)...)
	// multi-2 on 8 CPUs: its 2 grinders, 2 espresso machines, 2 steamers,
	// the CPUs and the customers limit it together: several machines'
	// colour, and a dark corner for the CPUs and the customers.
	points = append(points, simulated(t, "multi-2", 8)...)
	measured := points[1]
	measured.Source, measured.Sched, measured.Host.Name = "measured", "", "box"
	points = append(points, measured)
	c, err := heatmapChart(verdict.NewGrid(points))
	if err != nil || c.Empty != "" {
		t.Fatalf("heatmap: %v, empty %q", err, c.Empty)
	}
	text := strings.Split(svgTexts(t, c.SVG), "\n")
	for _, want := range []string{"finelocking", "locking", "1", "2", "6", "500", "250", "1000",
		"the CPUs (it scales)", "the kitchen lock", "several machines together"} {
		if !slices.Contains(text, want) {
			t.Errorf("map has no text %q: %q", want, text)
		}
	}
	for _, class := range []string{"cpus", "kitchen", "machines"} {
		col, _ := limitColour(class, nil)
		if hex := fmt.Sprintf("#%02X%02X%02X", col.R, col.G, col.B); !strings.Contains(string(c.SVG), "fill:"+hex) {
			t.Errorf("no cell in %s's colour %s", class, hex)
		}
	}
	if corners := regexp.MustCompile(`<path d="M[\d.]+,[\d.]+L[\d.]+,[\d.]+L[\d.]+,[\d.]+Z"\s*style="fill:#`).FindAllString(string(c.SVG), -1); len(corners) != 1 ||
		!strings.Contains(strings.Join(strings.Fields(strings.Join(text, " ")), " "), "A dark corner: the CPUs or the customers limit it together") {
		t.Errorf("%d triangles drawn, and the note %q; want multi-2 on 8 CPUs's corner, and the note saying what it means", len(corners), text)
	}
	if n := strings.Count(string(c.SVG), "stroke:#1B1B1B;stroke-width:1.6"); n != 1 {
		t.Errorf("%d framed cells; want the one measured", n)
	}
	if !slices.ContainsFunc(text, func(s string) bool { return strings.HasPrefix(s, "Framed, bold: measured on host box") }) {
		t.Errorf("the map does not say which cells are measured: %q", text)
	}
	// Every text inside the picture: the note, a line of some 280
	// characters, ran past its right edge, cut at "together with the".
	textsInside(t, "the map", c.SVG)
	// On a phone the note is wrapped whole, not along the page's breaks:
	// no line's next word would have fitted on it.
	var note []string
	for _, s := range strings.Split(svgTexts(t, c.Phone), "\n") {
		if strings.HasPrefix(s, "Framed, bold") || len(note) > 0 && s != "" {
			note = append(note, s)
		}
		if strings.HasSuffix(s, "colour names.") {
			break
		}
	}
	if len(note) < 2 {
		t.Fatalf("the phone's map has no note over several lines: %q", note)
	}
	for i := range note[1:] {
		if next := strings.Fields(note[i+1])[0]; style(10, false).Width(note[i]+" "+next) <= phoneWidth-2*margin {
			t.Errorf("the phone's note breaks %q before %q, which fits on its line", note[i], next)
		}
	}
}

// TestScheduleDrawing: a row per CPU, a bar per step in its machine's
// colour, each numbered with its customer.
func TestScheduleDrawing(t *testing.T) {
	t.Parallel()
	cfg := model.DefaultConfig(6)
	cfg.Policy.Sched = "fifo"
	tl, err := modelsched.FromModel(cfg, modelsched.Span)
	if err != nil {
		t.Fatal(err)
	}
	svg, png, err := render(timelineDrawing{t: tl})
	if err != nil || len(png) == 0 {
		t.Fatalf("draw: %v, %d bytes PNG", err, len(png))
	}
	text := strings.Split(svgTexts(t, svg), "\n")
	for _, want := range []string{"finelocking on 6 CPUs, model (fifo)", "CPU 0", "CPU 5", "grinder", "espresso machine", "steamer", "combine (no machine)", "20 ms", "1", "4"} {
		if !slices.Contains(text, want) {
			t.Errorf("schedule has no text %q", want)
		}
	}
	for _, kind := range []string{"grinder", "espresso", "steamer", "combine"} {
		col := machineColour(kind)
		hex := fmt.Sprintf("fill:#%02X%02X%02X", col.R, col.G, col.B)
		// each kind's bars, and its legend swatch
		if n := strings.Count(string(svg), hex); n < 10 {
			t.Errorf("%s: %d shapes in its colour; want its 20 ms of bars", kind, n)
		}
	}
	if ScheduleName(tl) != "schedule-finelocking-6cpu-model" {
		t.Errorf("name %q", ScheduleName(tl))
	}
}

// TestSmallMultiples: nine modes measured and predicted make nine legend
// entries, more than a chart holds: a panel per family, none holding more
// than maxEntries, and every series in one of them.
func TestSmallMultiples(t *testing.T) {
	t.Parallel()
	ss := buildSeries(append(studyPoints(), modelPoints(8)...), coffee.Declared{})
	label := func(s series) string { return s.Label }
	if n := len(entries(ss, label)); n != 9 {
		t.Errorf("%d legend entries for 9 modes measured and predicted; want one each", n)
	}
	ps := splitPanels(ss, label)
	var titles []string
	n := 0
	for _, p := range ps {
		titles = append(titles, p.title)
		if e := len(entries(p.series, label)); e > maxEntries {
			t.Errorf("panel %q has %d entries", p.title, e)
		}
		n += len(p.series)
	}
	if !slices.Equal(titles, []string{"Locks (and ideal, no lock)", "Replicas", "Pipelines"}) || n != len(ss) {
		t.Errorf("panels %q with %d series of %d", titles, n, len(ss))
	}
	// Few modes: one chart.
	if ps := splitPanels(ss[:6], label); len(ps) != 1 || ps[0].title != "" {
		t.Errorf("six series in %d panels", len(ps))
	}
}
