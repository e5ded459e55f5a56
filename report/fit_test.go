package report

import (
	"bytes"
	"fmt"
	"html/template"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/report/palette"
	"github.com/brewput/brewput/results"
)

// scalabilityOf draws the scalability chart of points.
func scalabilityOf(t *testing.T, pts []results.Point) chart {
	t.Helper()
	ss := buildSeries(pts, coffee.Declared{})
	c, err := scalabilityChart(analyzed(t, pts).Fits, ss, cpusOf(pts))
	if err != nil {
		t.Fatalf("scalabilityChart: %v", err)
	}
	if c.Name != "scalability" {
		t.Fatalf("chart name %q, want scalability", c.Name)
	}
	return c
}

// fitShop is the model's ideal and locking on 1..8 CPUs beside
// measurements of both on 1 and 2 CPUs, which are too few to fit.
func fitShop() []results.Point {
	var pts []results.Point
	for cpus := 1; cpus <= 2; cpus++ {
		for _, p := range []results.Point{pt("cafe", "ideal", cpus, 0, 250*float64(cpus), 4), pt("cafe", "locking", cpus, 0, 250, 8)} {
			p.Par = cpus
			pts = append(pts, p)
		}
	}
	for cpus := 1; cpus <= 8; cpus++ {
		for _, m := range []string{"ideal", "locking"} {
			tput := 250.0
			if m == "ideal" {
				tput *= float64(cpus)
			}
			p := pt("", m, cpus, 0, tput, 4)
			p.Source, p.Sched, p.Par = results.SourceModel, "fifo", cpus
			pts = append(pts, p)
		}
	}
	return pts
}

// curvePaths counts, by stroke colour, the SVG paths of at least min
// segments: the fitted curves, which no other line on the chart has.
func curvePaths(svg []byte, min int) map[string]int {
	out := map[string]int{}
	for _, m := range regexp.MustCompile(`<path d="([^"]*)" style="[^"]*stroke:(#[0-9A-F]{6})`).FindAllSubmatch(svg, -1) {
		if bytes.Count(m[1], []byte("L")) >= min {
			out[string(m[2])]++
		}
	}
	return out
}

func hex(s series) string { return fmt.Sprintf("#%02X%02X%02X", s.Colour.R, s.Colour.G, s.Colour.B) }

func TestScalabilityChartDrawsFittedCurves(t *testing.T) {
	t.Parallel()
	pts := fitShop()
	c := scalabilityOf(t, pts)
	if c.Empty != "" || len(c.SVG) == 0 || len(c.PNG) == 0 {
		t.Fatalf("chart empty (%q) or not drawn: %d bytes SVG, %d PNG", c.Empty, len(c.SVG), len(c.PNG))
	}
	// One curve in each mode's colour, the model's: the measurements,
	// in the same colours, have too few CPU counts for one.
	curves := curvePaths(c.SVG, curveSteps/2)
	for _, s := range buildSeries(pts, coffee.Declared{}) {
		if curves[hex(s)] != 1 {
			t.Errorf("%s: %d fitted curves in %s, want 1", s.Label, curves[hex(s)], hex(s))
		}
	}
	if n := len(curves); n != 2 {
		t.Errorf("curves in %d colours, want 2: %v", n, curves)
	}
	// One legend entry per mode, its measurement and prediction
	// together, naming the fit it has; the measurements, too few to fit,
	// have no entry of their own saying so.
	text := svgTexts(t, c.SVG)
	for _, want := range []string{"ideal  model σ=0 κ=0", "locking  model σ=1 κ=0", "CPUs", "throughput (lattes/s)"} {
		if !strings.Contains(text, want) {
			t.Errorf("SVG has no text %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "not fitted") {
		t.Errorf("SVG names series not fitted:\n%s", text)
	}
}

// TestScalabilityCurveFollowsTheFit checks that the curve drawn is the
// fitted law: locking's flat line lies at one height from 1 to 8 CPUs.
func TestScalabilityCurveFollowsTheFit(t *testing.T) {
	t.Parallel()
	var pts []results.Point
	for _, p := range fitShop() {
		if p.Mode == "locking" && p.IsModel() {
			pts = append(pts, p)
		}
	}
	c := scalabilityOf(t, pts)
	colour := strings.ToUpper(palette.Hex(palette.Modes([]string{"locking"}, coffee.Declared{})["locking"]))
	m := regexp.MustCompile(`<path d="M([^"]*)" style="[^"]*stroke:`+colour).FindAllSubmatch(c.SVG, -1)
	found := false
	for _, path := range m {
		segs := strings.Split(string(path[1]), "L")
		if len(segs) < curveSteps {
			continue
		}
		found = true
		for _, s := range segs {
			if y := s[strings.Index(s, ",")+1:]; y != segs[0][strings.Index(segs[0], ",")+1:] {
				t.Fatalf("locking's curve is not flat: y %s, then %s", segs[0], s)
			}
		}
	}
	if !found {
		t.Fatalf("no curve in locking's colour")
	}
}

func TestScalabilityChartEmptyWhenNothingFits(t *testing.T) {
	t.Parallel()
	c := scalabilityOf(t, shop("cafe")) // 1 and 2 CPUs
	if c.SVG != nil || c.PNG != nil {
		t.Error("drawn with nothing fitted")
	}
	for _, want := range []string{"No series could be fitted", "2 CPU counts (1, 2); a fit needs at least 3", "--cpus"} {
		if !strings.Contains(c.Empty, want) {
			t.Errorf("Empty = %q; want it to say %q", c.Empty, want)
		}
	}
}

func TestDrawChartsHasScalability(t *testing.T) {
	t.Parallel()
	cs, err := drawCharts(fitShop(), analyzed(t, fitShop()).Fits, coffee.Declared{})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(cs); !slices.Equal(got, []string{"throughput", "latency", "distribution", "comparison", "scalability"}) {
		t.Errorf("charts = %v; want throughput, latency, distribution, then scalability", got)
	}
}

func TestFitViews(t *testing.T) {
	t.Parallel()
	fits := analyzed(t, fitShop()).Fits
	vs := fitViews(fitsOf(fits, "locking"))
	if len(vs) != 2 {
		t.Fatalf("%d rows, want the measurement and the model: %+v", len(vs), vs)
	}
	measured, model := vs[0], vs[1]
	if measured.Source != "cafe" || measured.Model || measured.Reason != "2 CPU counts (1, 2); a fit needs at least 3" || measured.Sigma != "" || measured.Points != 2 {
		t.Errorf("measured row: %+v; want cafe, with the reason it has no fit", measured)
	}
	want := fitView{Source: "model (fifo)", Model: true, Sigma: "1", Kappa: "0", Lambda: "250.0 lattes/s",
		Peak: "none: flat from 1 CPU at 250.0 lattes/s", Serial: "1", R2: "1.0000", Points: 8}
	if model != want {
		t.Errorf("model row:\n%+v\nwant\n%+v", model, want)
	}
	if vs := fitViews(fitsOf(fits, "finelocking")); len(vs) != 0 {
		t.Errorf("a mode with no points has rows: %+v", vs)
	}
}

func TestFitTemplate(t *testing.T) {
	t.Parallel()
	tmpl, err := template.New("report").ParseFS(templates, "*.html.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := tmpl.ExecuteTemplate(&b, "fit", fitViews(fitsOf(analyzed(t, fitShop()).Fits, "locking"))); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{"<table", "σ", "κ", "R²", "serial fraction",
		"<td class=\"text\">cafe</td>", "cannot fit: 2 CPU counts (1, 2); a fit needs at least 3",
		"<tr class=\"bymodel\"><td class=\"text\">model (fifo)</td><td>1</td><td>0</td><td>250.0 lattes/s</td>",
		"flat from 1 CPU at 250.0 lattes/s"} {
		if !strings.Contains(html, want) {
			t.Errorf("fit table lacks %q:\n%s", want, html)
		}
	}
	b.Reset()
	if err := tmpl.ExecuteTemplate(&b, "fit", []fitView(nil)); err != nil || strings.TrimSpace(b.String()) != "" {
		t.Errorf("no rows: %q, %v; want nothing", b.String(), err)
	}
}

func TestFitCaption(t *testing.T) {
	t.Parallel()
	plain, model := fitCaption(false), fitCaption(true)
	for _, want := range []string{"σ", "contention", "flat", "Amdahl", "κ", "coherency", "back down", "peak"} {
		if !strings.Contains(plain, want) {
			t.Errorf("caption lacks %q: %s", want, plain)
		}
	}
	if strings.Contains(plain, "model") || !strings.HasPrefix(model, plain) || !strings.Contains(model, "Dashed") {
		t.Errorf("the model's caption should add how to tell its curves apart, and only it:\n%s\n%s", plain, model)
	}
}
