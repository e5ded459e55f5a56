package render

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/lab/labtest"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// goleak checks after all tests that every variant waited for all the
// goroutines it started.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestVariantsSameImage: every variant renders seq's image exactly, for
// sizes that divide nothing evenly and for pools smaller and larger than
// the number of rows.
func TestVariantsSameImage(t *testing.T) {
	for _, size := range []int{1, 37, 64} {
		f := newFrame(size, 300)
		want := f.newImage()
		if err := f.render(context.Background(), want, "seq", 1); err != nil {
			t.Fatal(err)
		}
		inside := 0
		for i := 0; i < len(want.Pix); i += 4 {
			if want.Pix[i+3] != 255 {
				t.Fatalf("size %d: pixel %d not opaque: seq left it unwritten", size, i/4)
			}
			if bytes.Equal(want.Pix[i:i+3], []byte{0, 0, 0}) {
				inside++
			}
		}
		if size > 1 && (inside == 0 || inside == size*size) {
			t.Errorf("size %d: %d of %d pixels inside the set: not a Mandelbrot image", size, inside, size*size)
		}
		for _, v := range Variants()[1:] {
			for _, workers := range []int{1, 3, 100} {
				img := f.newImage()
				if err := f.render(context.Background(), img, v, workers); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(img.Pix, want.Pix) {
					t.Errorf("size %d: %s (workers %d) differs from seq", size, v, workers)
				}
			}
		}
	}
	if err := newFrame(4, 10).render(context.Background(), newFrame(4, 10).newImage(), "column", 1); err == nil {
		t.Error("an unknown variant rendered")
	}
}

// TestRunPNG runs the lab small, checks the points' contract, and decodes
// the image written with PNG to the pixels seq renders.
func TestRunPNG(t *testing.T) {
	dir := t.TempDir()
	c := DefaultConfig()
	c.Size, c.MaxIter, c.Reps, c.Workers = 40, 100, lab.IntervalRuns(), 0 // reps for the speedup's interval
	c.PNG = filepath.Join(dir, "mandelbrot.png")
	cpus := []int{1, 2}
	points, told := labtest.RunLab(t, labtest.With(NewLab(), c), cpus, 8, Unit, []results.Metric{MetricRenderMs, MetricEncodeMs,
		MetricSpeedup, lab.Lo(MetricSpeedup), lab.Hi(MetricSpeedup), MetricTotalSpeedup, MetricSerialFraction, MetricKarpFlatt,
		MetricKarpFlattTotal, MetricWorkers, MetricPixels})
	lines := labtest.Lines(told, text.LabEvent)
	for i, p := range points {
		n := cpus[i/4]
		wantPar := map[string]int{"seq": 1, "pixel": c.Size * c.Size, "row": c.Size, "workers": n}[p.Variant()]
		if p.Variant() != Variants()[i%4] || p.CPUs != n || p.Par != wantPar || p.Ops != int64(c.Reps) || p.Hist == "" {
			t.Errorf("point %d: malformed %+v", i, p)
		}
		if p.Dur.Seconds() <= 0 || p.Throughput <= 0 || p.Latency.Max < p.Latency.Min || p.Latency.Min <= 0 {
			t.Errorf("%s cpus=%d: duration %g s, %g images/s, latency %+v", p.Variant(), n, p.Dur.Seconds(), p.Throughput, p.Latency)
		}
		m := p.Metrics
		if s := m["serial_fraction"]; !(s > 0 && s < 1) || !(m["render_ms"] > 0) || !(m["encode_ms"] > 0) || !(m["speedup"] > 0) || !(m["total_speedup"] > 0) {
			t.Errorf("%s cpus=%d: metrics %v", p.Variant(), n, m)
		}
		_, kf := m["karp_flatt"]
		if kf != (n > 1) {
			t.Errorf("%s cpus=%d: karp_flatt present %v, want it on more than 1 CPU only", p.Variant(), n, kf)
		}
		if p.Variant() == "seq" && (m["speedup"] != 1 || m["total_speedup"] != 1) {
			t.Errorf("seq cpus=%d: speedups %g, %g; want 1", n, m["speedup"], m["total_speedup"])
		}
		// The median of the turns' ratios, in its interval, as the line says.
		lo, sp, hi := m[lab.Lo(MetricSpeedup)], m[MetricSpeedup], m[lab.Hi(MetricSpeedup)]
		line := strings.ReplaceAll(lines[i], "\n  ", " ")
		if !(0 < lo && lo <= sp && sp <= hi) || !strings.Contains(line, fmt.Sprintf("render speedup over seq ×%.2f [%.2f, %.2f]", sp, lo, hi)) {
			t.Errorf("%s cpus=%d: speedup %g in [%g, %g]; line %q", p.Variant(), n, sp, lo, hi, line)
		}
	}
	file, err := os.Open(c.PNG)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	decoded, err := png.Decode(file)
	if err != nil {
		t.Fatal(err)
	}
	got := image.NewRGBA(decoded.Bounds())
	draw.Draw(got, got.Rect, decoded, decoded.Bounds().Min, draw.Src)
	f := newFrame(c.Size, c.MaxIter)
	want := f.newImage()
	if err := f.render(context.Background(), want, "seq", 1); err != nil {
		t.Fatal(err)
	}
	if got.Rect != want.Rect || !bytes.Equal(got.Pix, want.Pix) {
		t.Errorf("%s decodes to another image than seq renders", c.PNG)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files in the PNG's directory, want just the PNG: a temporary file was left", len(entries))
	}
}

func TestValidate(t *testing.T) {
	dir := t.TempDir()
	labtest.Invalid(t, DefaultConfig, Run, []labtest.Case[Config]{
		{Flag: "size", Edit: func(c *Config) { c.Size = 0 }},
		{Flag: "size", Edit: func(c *Config) { c.Size = 1 << 20 }},
		{Flag: "max-iter", Edit: func(c *Config) { c.MaxIter = 0 }},
		{Flag: "workers", Edit: func(c *Config) { c.Workers = -1 }},
		{Flag: "reps", Edit: func(c *Config) { c.Reps = 0 }},
		{Flag: "model-cpus", Edit: func(c *Config) { c.ModelCPUs = nil }},
		{Flag: "model-cpus", Edit: func(c *Config) { c.ModelCPUs = []int{1, 0} }},
		{Flag: "png", Edit: func(c *Config) { c.PNG = filepath.Join(dir, "missing", "m.png") }},
		{Flag: "png", Edit: func(c *Config) { c.PNG = dir }},
	})
}

// TestCancel: a cancelled run returns the points it finished and the
// context's error.
func TestCancel(t *testing.T) {
	c := DefaultConfig()
	c.Size, c.MaxIter, c.Reps = 32, 50, 1
	labtest.CancelAfter(t, labtest.With(NewLab(), c), []int{1, 2}, text.LabEvent, " row:", 4) // the variants take turns: all four were measured
}

func TestAmdahl(t *testing.T) {
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	for _, n := range []int{1, 2, 7, 64} {
		if got := Amdahl(0, n); !near(got, float64(n)) {
			t.Errorf("Amdahl(0, %d) = %g, want %d", n, got, n)
		}
		if got := Amdahl(1, n); !near(got, 1) {
			t.Errorf("Amdahl(1, %d) = %g, want 1", n, got)
		}
		for _, s := range []float64{0, 0.05, 0.5} {
			if n > 1 && !near(KarpFlatt(Amdahl(s, n), n), s) {
				t.Errorf("KarpFlatt(Amdahl(%g, %d)) = %g, want it back", s, n, KarpFlatt(Amdahl(s, n), n))
			}
		}
	}
	if !math.IsNaN(KarpFlatt(1.5, 1)) || !math.IsNaN(KarpFlatt(0, 4)) || Amdahl(0.1, 0) != 0 {
		t.Error("KarpFlatt on 1 CPU or of no speedup, or Amdahl on 0 CPUs, is defined")
	}
}

// TestRenderStopsWhenCancelled: a render of minutes (4 million
// iterations for each pixel inside the set) stops once its context is
// cancelled, in every variant, with the context's error; it used not to
// look at it until the render was done (lab render --size 8192 --max-iter
// 16777216 ran on after Ctrl-C).
func TestRenderStopsWhenCancelled(t *testing.T) {
	f := newFrame(512, 1<<22)
	img := f.newImage()
	for _, v := range Variants() {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- f.render(ctx, img, v, 2) }()
		cancel()
		if err := <-done; err != context.Canceled {
			t.Errorf("%s: %v, want context.Canceled", v, err)
		}
	}
}

// TestModelCPUsSetTheChart: --model-cpus sets how far the chart draws
// Amdahl's curve (64 CPUs by default), and its lesson says so.
func TestModelCPUsSetTheChart(t *testing.T) {
	l := NewLab()
	if f := l.Figure(); f.X.Max != 64 || !strings.Contains(f.Lesson, "the most of --model-cpus") {
		t.Errorf("default chart to %g CPUs, lesson %q; want 64", f.X.Max, f.Lesson)
	}
	if err := labtest.Bind(l, "--model-cpus", "1,2,4,8"); err != nil {
		t.Fatal(err)
	}
	if f := l.Figure(); f.X.Max != 8 {
		t.Errorf("--model-cpus 1,2,4,8: chart to %g CPUs, lesson %q; want 8", f.X.Max, f.Lesson)
	}
}
