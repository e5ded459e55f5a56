package report

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"html"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/plot"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/internal/base/race"
	"github.com/brewput/brewput/report/palette"
	"github.com/brewput/brewput/results"
)

var testModes = []string{"ideal", "locking", "finelocking", "parsteam", "multi-2",
	"linearpipe-0", "linearpipe-1", "linearpipe-10", "multipipe-2"}

// pt returns a closed-loop point whose latency percentiles spread around p50.
func pt(src, mode string, cpus, rep int, tput, p50 float64) results.Point {
	return results.Point{
		Source: src, Spec: results.Spec{Mode: mode, CPUs: cpus, Load: results.Load{Par: 4}}, Rep: rep,
		Throughput: tput, Unit: "lattes/s",
		Latency: results.Latency{
			Min: p50 * 0.5, P05: p50 * 0.8, P25: p50 * 0.9, P50: p50,
			P75: p50 * 1.1, P90: p50 * 1.3, P95: p50 * 1.5, P99: p50 * 2, Max: p50 * 3, Mean: p50 * 1.05,
		},
	}
}

// shop returns the talk's data set: every mode on 1 and 2 CPUs, two
// repetitions each; locking does not scale.
func shop(sources ...string) []results.Point {
	var pts []results.Point
	for _, src := range sources {
		for cpus := 1; cpus <= 2; cpus++ {
			for i, m := range testModes {
				for rep := 1; rep <= 2; rep++ {
					tput, p50 := 250*float64(cpus)-float64(i), 4+0.1*float64(i)
					if m == "locking" {
						tput, p50 = 250, 8
					}
					pts = append(pts, pt(src, m, cpus, rep, tput+float64(rep), p50))
				}
			}
		}
	}
	return pts
}

func drawAll(t *testing.T, pts []results.Point) []chart {
	t.Helper()
	cs, err := drawCharts(pts, analyzed(t, pts).Fits, coffee.Declared{})
	if err != nil {
		t.Fatalf("drawCharts: %v", err)
	}
	if got := names(cs); !slices.Equal(got, []string{"throughput", "latency", "distribution", "comparison", "scalability"}) {
		t.Fatalf("charts = %v, want throughput, latency, distribution, scalability", got)
	}
	return cs
}

func names(cs []chart) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Name)
	}
	return out
}

// oneDrawing skips t under the race detector: report starts no goroutine,
// so a test that draws once is one goroutine's work, and gives the
// detector nothing that TestDrawChartsIsDeterministic, drawing twice at
// once, does not; the plain run checks what t asserts.
func oneDrawing(t *testing.T) {
	t.Helper()
	if race.Enabled {
		t.Skip("one goroutine's drawing, checked by go test ./report: under the detector TestDrawChartsIsDeterministic draws twice at once")
	}
}

func TestDrawChartsDrawsAll(t *testing.T) {
	oneDrawing(t)
	t.Parallel()
	for _, c := range drawAll(t, shop("cafe")) {
		if c.Name == "scalability" { // two CPU counts: too few to fit
			if !strings.Contains(c.Empty, "a fit needs at least 3") || len(c.SVG) != 0 {
				t.Errorf("scalability of 2 CPU counts: empty %q, %d bytes SVG; want it empty, saying why", c.Empty, len(c.SVG))
			}
			continue
		}
		if c.Empty != "" || len(c.SVG) == 0 || len(c.PNG) == 0 || c.Title == "" {
			t.Errorf("%s: empty %q, %d bytes SVG, %d bytes PNG, title %q", c.Name, c.Empty, len(c.SVG), len(c.PNG), c.Title)
		}
	}
}

// TestDrawChartsIsDeterministic draws the same points twice, at once, and
// compares the drawings byte for byte. At once, so that under the race
// detector it watches what two renderings share (fonts, caches), which
// the tests that draw once leave to it (oneDrawing).
func TestDrawChartsIsDeterministic(t *testing.T) {
	t.Parallel()
	pts := shop("laptop", "server")
	again := slices.Clone(pts)
	fits, fitsAgain := analyzed(t, pts).Fits, analyzed(t, again).Fits
	var b []chart
	var errAgain error
	var wg sync.WaitGroup
	wg.Go(func() { b, errAgain = drawCharts(again, fitsAgain, coffee.Declared{}) })
	a, err := drawCharts(pts, fits, coffee.Declared{})
	wg.Wait()
	if err != nil || errAgain != nil || len(a) != len(b) {
		t.Fatalf("drawCharts: %v; drawn at the same time: %v; %d and %d charts", err, errAgain, len(a), len(b))
	}
	for i := range a {
		if !bytes.Equal(a[i].SVG, b[i].SVG) {
			t.Errorf("%s: SVG differs between two drawings", a[i].Name)
		}
		if !bytes.Equal(a[i].PNG, b[i].PNG) {
			t.Errorf("%s: PNG differs between two drawings", a[i].Name)
		}
	}
}

// svgTexts checks that b is well-formed XML and returns its text.
// textsInside fails t for each text of svg that ends past the picture's
// width, measured in the report's fonts (each text is drawn left-aligned
// from its x).
func textsInside(t *testing.T, name string, svg []byte) {
	t.Helper()
	width := regexp.MustCompile(`<svg width="([\d.]+)pt"`).FindSubmatch(svg)
	if width == nil {
		t.Fatalf("%s: the SVG has no width", name)
	}
	w, _ := strconv.ParseFloat(string(width[1]), 64)
	texts := regexp.MustCompile(`(?s)<text x="([\d.]+)"[^>]*font-weight:(\w+);[^>]*font-size:([\d.]+)px[^"]*">([^<]*)</text>`).FindAllSubmatch(svg, -1)
	if len(texts) == 0 || len(texts) < strings.Count(string(svg), "<text ") {
		t.Fatalf("%s: read %d of its %d texts", name, len(texts), strings.Count(string(svg), "<text "))
	}
	for _, m := range texts {
		x, _ := strconv.ParseFloat(string(m[1]), 64)
		size, _ := strconv.ParseFloat(string(m[3]), 64)
		s := html.UnescapeString(string(m[4]))
		if right := x + float64(style(size, string(m[2]) == "bold").Width(s).Points()); right > w+0.5 {
			t.Errorf("%s: the text %q ends at %.0f pt, past the picture's width, %.0f pt", name, s, right, w)
		}
	}
}

func svgTexts(t *testing.T, b []byte) string {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(b))
	var text strings.Builder
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not XML: %v", err)
		}
		if cd, ok := tok.(xml.CharData); ok {
			text.Write(cd)
			text.WriteByte('\n')
		}
	}
	return text.String()
}

func TestSVGNamesSeriesAndAxes(t *testing.T) {
	oneDrawing(t)
	t.Parallel()
	cs := drawAll(t, shop("cafe"))
	axes := map[string][]string{
		"throughput":   {"Throughput against CPUs", "CPUs", "throughput (lattes/s)"},
		"latency":      {"Median latency against CPUs", "CPUs", "median latency (ms)"},
		"distribution": {"Latency distribution at 2 CPUs (box p25–p75, whiskers p5–p95)", "latency (ms)", "p5–p95 (whiskers)", "p25–p75 (box)", "p50, the median"},
	}
	for _, c := range cs {
		if c.Empty != "" {
			continue
		}
		lines := strings.Split(svgTexts(t, c.SVG), "\n")
		for _, want := range append(slices.Clone(testModes), axes[c.Name]...) {
			if !slices.Contains(lines, want) {
				t.Errorf("%s: SVG has no text %q", c.Name, want)
			}
		}
		if !bytes.Contains(c.SVG, []byte("sans-serif")) {
			t.Errorf("%s: SVG font has no generic fallback", c.Name)
		}
	}
	if c := cs[2]; c.Title != "Latency distribution at 2 CPUs (box p25–p75, whiskers p5–p95)" {
		t.Errorf("distribution title = %q", c.Title)
	}
}

func TestPNGDecodesAndShowsEveryModeColour(t *testing.T) {
	oneDrawing(t)
	t.Parallel()
	cs := drawAll(t, shop("cafe"))
	colours := palette.Modes(modeOrder(shop("cafe")), coffee.Declared{})
	for _, c := range cs {
		if c.Empty != "" {
			continue
		}
		img, err := png.Decode(bytes.NewReader(c.PNG))
		if err != nil {
			t.Fatalf("%s: PNG does not decode: %v", c.Name, err)
		}
		// One chart is 7.5in x 4.5in at 120 dpi; nine modes on the line
		// charts are small multiples twice as wide.
		want := [2]int{900, 540}
		if c.Name == "throughput" || c.Name == "latency" || c.Name == "scalability" {
			want = [2]int{1800, 565}
		}
		if b := img.Bounds(); b.Dx() != want[0] || b.Dy() != want[1] {
			t.Errorf("%s: PNG is %dx%d, want %dx%d", c.Name, b.Dx(), b.Dy(), want[0], want[1])
		}
		seen := pixels(img)
		if len(seen) < 2 {
			t.Errorf("%s: PNG is all one colour", c.Name)
		}
		if !seen[color.RGBA{0xff, 0xff, 0xff, 0xff}] {
			t.Errorf("%s: PNG has no white background", c.Name)
		}
		// The mode's colour is the same in every chart: in the raster,
		// and in the SVG where it is written out.
		for _, m := range testModes {
			want := colours[m]
			if !seen[want] {
				t.Errorf("%s: PNG has no pixel in %s's colour %v", c.Name, m, want)
			}
			hex := fmt.Sprintf("#%02X%02X%02X", want.R, want.G, want.B)
			if !bytes.Contains(c.SVG, []byte(hex)) {
				t.Errorf("%s: SVG has no %s for %s", c.Name, hex, m)
			}
		}
	}
}

func pixels(img image.Image) map[color.RGBA]bool {
	seen := map[color.RGBA]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			seen[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)] = true
		}
	}
	return seen
}

func TestOneCPUCountLeavesOnlyTheDistribution(t *testing.T) {
	oneDrawing(t)
	t.Parallel()
	var pts []results.Point
	for _, p := range shop("cafe") {
		if p.CPUs == 2 {
			pts = append(pts, p)
		}
	}
	cs := drawAll(t, pts)
	for _, c := range cs[:2] {
		if c.SVG != nil || c.PNG != nil {
			t.Errorf("%s: drawn from one CPU count", c.Name)
		}
		if !strings.Contains(c.Empty, "Only one CPU count (2)") || !strings.HasSuffix(c.Empty, ".") {
			t.Errorf("%s: Empty = %q, want a sentence naming the one CPU count", c.Name, c.Empty)
		}
	}
	d := cs[2]
	if d.Empty != "" || d.SVG == nil || d.PNG == nil {
		t.Fatalf("distribution not drawn: Empty = %q", d.Empty)
	}
	if !strings.Contains(d.Title, "at 2 CPUs") {
		t.Errorf("distribution title = %q, want it to name 2 CPUs", d.Title)
	}
}

func TestDistributionIsAtTheLargestCPUCount(t *testing.T) {
	oneDrawing(t)
	t.Parallel()
	pts := []results.Point{pt("a", "ideal", 1, 0, 250, 4), pt("a", "ideal", 4, 0, 900, 4),
		pt("a", "only-one", 1, 0, 250, 50)}
	cs := drawAll(t, pts)
	text := svgTexts(t, cs[2].SVG)
	if !strings.Contains(cs[2].Title, "at 4 CPUs") || !strings.Contains(text, "ideal") {
		t.Errorf("distribution: title %q, text %q; want ideal at 4 CPUs", cs[2].Title, text)
	}
	if strings.Contains(text, "only-one") {
		t.Error("distribution shows a mode not measured at 4 CPUs")
	}
}

func TestModeColoursFollowFirstAppearance(t *testing.T) {
	t.Parallel()
	var pts []results.Point
	for i := range 11 {
		m := fmt.Sprint("m", i)
		pts = append(pts, pt("a", m, 1, 0, 1, 1), pt("a", "m0", 2, 0, 1, 1))
	}
	got := palette.Modes(modeOrder(pts), coffee.Declared{})
	pal := palette.Cycle()
	for i := range 10 {
		if c := got[fmt.Sprint("m", i)]; c != pal[i] {
			t.Errorf("m%d: colour %v, want palette[%d] %v", i, c, i, pal[i])
		}
	}
	if got["m10"] != pal[0] {
		t.Errorf("11th mode: colour %v, want the palette to cycle to %v", got["m10"], pal[0])
	}
	// ... and, sharing m0's colour, it must not share its style.
	styles := map[string]int{}
	for _, s := range buildSeries(pts, coffee.Declared{}) {
		styles[s.Mode] = s.Style
	}
	if styles["m10"] == styles["m0"] {
		t.Errorf("m0 and m10 share colour and style %d", styles["m0"])
	}
	distinct := map[color.RGBA]bool{}
	for _, c := range pal {
		distinct[c] = true
	}
	if len(distinct) != len(pal) {
		t.Errorf("palette repeats a colour: %v", pal)
	}

	// Series of one mode share its colour but not their style, and sit
	// together in the legend.
	two := shop("laptop", "server")
	ss, cols := buildSeries(two, coffee.Declared{}), palette.Modes(modeOrder(two), coffee.Declared{})
	for _, s := range ss {
		if s.Colour != cols[s.Mode] {
			t.Errorf("%s: colour %v, want its mode's %v", s.Label, s.Colour, cols[s.Mode])
		}
	}
	if a, b := ss[0], ss[1]; a.Mode != b.Mode || a.Colour != b.Colour || a.Style == b.Style {
		t.Errorf("%s and %s: colours %v, %v, styles %d, %d; want one colour, two styles",
			a.Label, b.Label, a.Colour, b.Colour, a.Style, b.Style)
	}
	// Measurements are solid with a marker per style; the model's lines
	// are dashed, a pattern per style.
	if dashes(0) == nil || dashes(1) == nil || slices.Equal(dashes(0), dashes(1)) || marker(0) == marker(1) {
		t.Error("styles 0 and 1 do not differ in dashes and marker, or a model's dashes are solid")
	}
}

func TestSamplesAreMediansOverRepetitions(t *testing.T) {
	t.Parallel()
	pts := []results.Point{
		pt("a", "ideal", 1, 1, 100, 3),
		pt("a", "ideal", 2, 1, 500, 3),
		pt("a", "ideal", 1, 2, 900, 9),
		pt("a", "ideal", 1, 3, 200, 4),
	}
	ss := buildSeries(pts, coffee.Declared{})
	if len(ss) != 1 {
		t.Fatalf("got %d series, want 1", len(ss))
	}
	s := ss[0].Samples
	if len(s) != 2 || s[0].CPUs != 1 || s[1].CPUs != 2 {
		t.Fatalf("samples = %+v, want one at 1 CPU and one at 2", s)
	}
	if s[0].Reps != 3 || s[0].Throughput != 200 {
		t.Errorf("1 CPU: %d reps, throughput %v; want 3 reps, median 200", s[0].Reps, s[0].Throughput)
	}
	if want := pt("", "", 0, 0, 0, 4).Latency; s[0].Latency != want {
		t.Errorf("1 CPU latency = %+v, want the medians %+v", s[0].Latency, want)
	}
	if s[1].Reps != 1 || s[1].Throughput != 500 {
		t.Errorf("2 CPUs: %+v", s[1])
	}
}

func TestLabelsSayOnlyWhatTellsSeriesApart(t *testing.T) {
	t.Parallel()
	labels := func(pts []results.Point) []string {
		var out []string
		for _, s := range buildSeries(pts, coffee.Declared{}) {
			out = append(out, s.Label)
		}
		return out
	}
	one := []results.Point{pt("a", "ideal", 1, 0, 1, 1), pt("a", "locking", 1, 0, 1, 1)}
	if got := labels(one); !slices.Equal(got, []string{"ideal", "locking"}) {
		t.Errorf("one source: %q", got)
	}

	two := []results.Point{pt("laptop", "ideal", 1, 0, 1, 1), pt("server", "ideal", 1, 0, 1, 1), pt("laptop", "locking", 2, 0, 1, 1)}
	if got := labels(two); !slices.Equal(got, []string{"ideal (laptop)", "ideal (server)", "locking (laptop)"}) {
		t.Errorf("two sources: %q", got)
	}

	loads := []results.Point{pt("a", "locking", 1, 0, 1, 1), pt("a", "locking", 1, 0, 1, 1), pt("a", "ideal", 1, 0, 1, 1)}
	loads[1].Par = 8
	open := pt("a", "locking", 1, 0, 1, 1)
	open.Rate, open.MaxQ = 800, 64
	loads = append(loads, open)
	// A mode's series sit together, in the order the modes first appear.
	want := []string{"locking closed loop par=4", "locking closed loop par=8", "locking rate=800/s par=4 maxq=64", "ideal"}
	if got := labels(loads); !slices.Equal(got, want) {
		t.Errorf("loads: %q, want %q", got, want)
	}
}

func TestOneParPerCPUIsOneSeries(t *testing.T) {
	t.Parallel()
	// --par 0, the default, runs one customer per CPU: Par follows CPUs.
	var pts []results.Point
	for cpus := 1; cpus <= 4; cpus++ {
		p := pt("a", "ideal", cpus, 0, 250*float64(cpus), 4)
		p.Par = cpus
		fixed := pt("a", "ideal", cpus, 0, 900, 4)
		fixed.Par = 8
		pts = append(pts, p, fixed)
	}
	ss := buildSeries(pts, coffee.Declared{})
	if len(ss) != 2 || len(ss[0].Samples) != 4 || len(ss[1].Samples) != 4 {
		t.Fatalf("got %d series, want 2 of 4 samples: %+v", len(ss), ss)
	}
	if ss[0].Label != "ideal par=CPUs" || ss[1].Label != "ideal par=8" {
		t.Errorf("labels %q, %q", ss[0].Label, ss[1].Label)
	}

	// Par 2 on 2 CPUs is in both a per-CPU sweep and a par=2 sweep.
	pts = pts[:0]
	for cpus := 1; cpus <= 3; cpus++ {
		p := pt("a", "ideal", cpus, 0, 100, 4)
		p.Par = cpus
		fixed := pt("a", "ideal", cpus, 0, 300, 4)
		fixed.Par = 2
		pts = append(pts, p, fixed)
	}
	ss = buildSeries(pts, coffee.Declared{})
	if len(ss) != 2 {
		t.Fatalf("got %d series, want 2: %+v", len(ss), ss)
	}
	for _, s := range ss {
		if len(s.Samples) != 3 || s.Samples[1].Reps != 2 || s.Samples[1].Throughput != 200 {
			t.Errorf("%s: samples %+v, want 3, with both points at 2 CPUs", s.Label, s.Samples)
		}
	}
}

func TestThroughputAxisNamesTheUnit(t *testing.T) {
	t.Parallel()
	ss := buildSeries(shop("cafe"), coffee.Declared{})
	axis, label := throughputLabels(ss)
	if axis != "throughput (lattes/s)" || label(ss[0]) != "ideal" {
		t.Errorf("one unit: axis %q, label %q", axis, label(ss[0]))
	}
	ss[1].Unit = "orders/s"
	axis, label = throughputLabels(ss)
	if strings.Contains(axis, "lattes/s") || label(ss[1]) != "locking [orders/s]" || label(ss[0]) != "ideal [lattes/s]" {
		t.Errorf("mixed units: axis %q, labels %q, %q", axis, label(ss[0]), label(ss[1]))
	}
}

func TestCPUTicksAreTheMeasuredCounts(t *testing.T) {
	t.Parallel()
	got := cpuTicks{1, 2, 3}.Ticks(1, 3)
	want := []string{"1", "2", "3"}
	if len(got) != 3 {
		t.Fatalf("ticks = %v", got)
	}
	for i, tk := range got {
		if tk.Value != float64(i+1) || tk.Label != want[i] {
			t.Errorf("tick %d = %+v", i, tk)
		}
	}
	// A long sweep keeps a tick per count but drops crowded labels.
	sweep := cpuTicks{1, 2, 4, 8, 16, 32, 64}.Ticks(1, 64)
	var labelled []string
	for _, tk := range sweep {
		if tk.Label != "" {
			labelled = append(labelled, tk.Label)
		}
	}
	if len(sweep) != 7 || !slices.Equal(labelled, []string{"1", "4", "8", "16", "32", "64"}) {
		t.Errorf("sweep ticks = %+v", sweep)
	}
}

func TestNiceTicks(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		min, max float64
		want     []string
	}{
		{0, 540, []string{"0", "100", "200", "300", "400", "500"}},
		{0, 13.2, []string{"0.0", "2.5", "5.0", "7.5", "10.0", "12.5"}},
		{-0.3, 0.31, []string{"-0.2", "0.0", "0.2"}},
		{0, 1, []string{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"}},
	} {
		var got []string
		for _, tk := range (niceTicks{}).Ticks(c.min, c.max) {
			got = append(got, tk.Label)
			if tk.Value < c.min || tk.Value > c.max+1e-9 || math.IsNaN(tk.Value) {
				t.Errorf("[%v, %v]: tick %v out of range", c.min, c.max, tk.Value)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("[%v, %v]: ticks %q, want %q", c.min, c.max, got, c.want)
		}
	}
}

// predicted returns the model's prediction of every test mode on each CPU
// count from 1 to maxCPUs, at a scale of the measurements' throughput.
func predicted(maxCPUs int, scale float64) []results.Point {
	var pts []results.Point
	for cpus := 1; cpus <= maxCPUs; cpus++ {
		for i, m := range testModes {
			p := pt("", m, cpus, 0, scale*(250*float64(cpus)-float64(i)), 4+0.1*float64(i))
			p.Source, p.Sched, p.Seed = results.SourceModel, "fifo", 1
			pts = append(pts, p)
		}
	}
	return pts
}

// TestModelOverlaysMeasurements checks the overlay: a mode's prediction is
// a series of its own beside its measurement, in the same colour, labelled
// as the model's, dashed on the line charts and running past the CPUs
// measured; the measurement keeps its markers on a thin solid line.
func TestModelOverlaysMeasurements(t *testing.T) {
	oneDrawing(t)
	t.Parallel()
	pts := append(shop("cafe"), predicted(64, 0.9)...)
	ss, colours := buildSeries(pts, coffee.Declared{}), palette.Modes(modeOrder(pts), coffee.Declared{})
	if len(ss) != 2*len(testModes) {
		t.Fatalf("%d series, want a measurement and a prediction of each of %d modes", len(ss), len(testModes))
	}
	for i, m := range testModes {
		meas, model := ss[2*i], ss[2*i+1]
		if meas.Mode != m || model.Mode != m || meas.Model || !model.Model {
			t.Fatalf("series %d and %d are %q (model %v) and %q (model %v); want %s measured, then predicted",
				2*i, 2*i+1, meas.Label, meas.Model, model.Label, model.Model, m)
		}
		if meas.Colour != colours[m] || model.Colour != colours[m] {
			t.Errorf("%s: colours %v and %v, want the mode's %v for both", m, meas.Colour, model.Colour, colours[m])
		}
		if meas.Label != m || model.Label != m+" (model)" {
			t.Errorf("%s: labels %q and %q", m, meas.Label, model.Label)
		}
		if last := model.Samples[len(model.Samples)-1].CPUs; last != 64 || len(meas.Samples) != 2 {
			t.Errorf("%s: the model runs to %d CPUs and the measurement has %d samples; want 64 and 2", m, last, len(meas.Samples))
		}
	}

	cs := drawAll(t, pts)
	for _, c := range cs[:2] {
		text := strings.Split(svgTexts(t, c.SVG), "\n")
		for _, m := range testModes {
			hex := fmt.Sprintf("#%02X%02X%02X", colours[m].R, colours[m].G, colours[m].B)
			for _, want := range []string{"stroke:" + hex + ";stroke-width:1.2\"", "stroke:" + hex + ";stroke-width:1.8;stroke-dasharray:6,3"} {
				if !bytes.Contains(c.SVG, []byte(want)) {
					t.Errorf("%s: %s has no line styled %s", c.Name, m, want)
				}
			}
			// One legend entry for the mode, measured and predicted.
			if !slices.Contains(text, m) || slices.Contains(text, m+" (model)") {
				t.Errorf("%s: legend has no entry %s, or one for %s (model) beside it", c.Name, m, m)
			}
		}
		// Nine modes are more than a legend holds: a panel per family.
		for _, want := range []string{"Locks (and ideal, no lock)", "Replicas", "Pipelines"} {
			if !slices.Contains(text, want) {
				t.Errorf("%s: no panel %q", c.Name, want)
			}
		}
		// The axis runs to the model's 64 CPUs, labelled every 8.
		for _, want := range []string{"1", "8", "32", "64"} {
			if !slices.Contains(text, want) {
				t.Errorf("%s: x axis has no label %s", c.Name, want)
			}
		}
	}

	// The distribution is at the largest count measured, with the
	// model's boxes at that count beside the measured ones, dashed.
	d := cs[2]
	text := strings.Split(svgTexts(t, d.SVG), "\n")
	// A row per mode, holding both boxes.
	if !strings.Contains(d.Title, "at 2 CPUs") || !slices.Contains(text, "finelocking") || slices.Contains(text, "finelocking (model)") {
		t.Errorf("distribution %q, texts %q; want a row per mode at 2 CPUs", d.Title, text)
	}
	if n := strings.Count(string(d.SVG), "stroke-dasharray:6,3"); n < len(testModes) {
		t.Errorf("distribution: %d dashed strokes; want the model's box of each of %d modes", n, len(testModes))
	}
	if !bytes.Contains(d.SVG, []byte("stroke-dasharray:6,3")) {
		t.Error("distribution: model boxes are not dashed")
	}

	// Without measurements, the model's largest count.
	d = drawAll(t, predicted(64, 1))[2]
	if !strings.Contains(d.Title, "at 64 CPUs") || !strings.Contains(svgTexts(t, d.SVG), "locking (model)") {
		t.Errorf("model-only distribution %q; want the model's boxes at 64 CPUs", d.Title)
	}
}

// TestMachinesAndModelAreToldApart checks the legend and styles when two
// machines and the model show one mode: a marker per machine, the model
// dashed, all in the mode's colour.
func TestMachinesAndModelAreToldApart(t *testing.T) {
	t.Parallel()
	pts := append(shop("laptop", "server"), predicted(4, 1)...)
	var got []string
	for _, s := range buildSeries(pts, coffee.Declared{})[:3] {
		got = append(got, fmt.Sprintf("%s/%v/%d", s.Label, s.Model, s.Style))
	}
	if want := []string{"ideal (laptop)/false/0", "ideal (server)/false/1", "ideal (model)/true/0"}; !slices.Equal(got, want) {
		t.Errorf("series %q, want %q", got, want)
	}

	// Two scheduling policies: each says its own.
	g := predicted(2, 1.1)
	for i := range g {
		g[i].Sched = "go"
	}
	var labels []string
	for _, s := range buildSeries(append(predicted(2, 1), g...), coffee.Declared{})[:2] {
		labels = append(labels, s.Label)
	}
	if want := []string{"ideal (model, fifo)", "ideal (model, go)"}; !slices.Equal(labels, want) {
		t.Errorf("labels %q, want %q", labels, want)
	}
}

func TestCPUTicksSpaceManyCounts(t *testing.T) {
	t.Parallel()
	labels := func(ticks []plot.Tick) []string {
		var out []string
		for _, tk := range ticks {
			if tk.Value != math.Trunc(tk.Value) {
				t.Errorf("tick at %v is not a whole CPU count", tk.Value)
			}
			if tk.Label != "" {
				out = append(out, tk.Label)
			}
		}
		return out
	}
	counts := func(n int) cpuTicks {
		var out cpuTicks
		for i := 1; i <= n; i++ {
			out = append(out, i)
		}
		return out
	}
	for _, c := range []struct {
		t    cpuTicks
		max  float64
		want []string
	}{
		{counts(256), 256, []string{"1", "32", "64", "96", "128", "160", "192", "224", "256"}},
		{counts(64), 64, []string{"1", "8", "16", "24", "32", "40", "48", "56", "64"}},
		{counts(16), 16, []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16"}},
		{cpuTicks{1, 2, 4, 8, 16, 32, 64, 128, 256}, 256, []string{"1", "16", "32", "64", "128", "256"}},
	} {
		ticks := c.t.Ticks(1, c.max)
		if got := labels(ticks); !slices.Equal(got, c.want) {
			t.Errorf("%d counts to %v: labels %q, want %q", len(c.t), c.max, got, c.want)
		}
		if len(ticks) > 16 {
			t.Errorf("%d counts to %v: %d ticks, each a grid line", len(c.t), c.max, len(ticks))
		}
	}
}
