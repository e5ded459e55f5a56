package render

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"image"
	"image/png"
	"runtime"
	"slices"
	"time"

	"github.com/brewput/brewput/internal/base/atomicfile"
	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/results"
)

const Unit = "images/s" // of render time, the encode not counted

// Run measures the four variants, seq first, at each CPU count: each
// renders the image c.Reps times, in turns, each render encoded as PNG
// into memory, timed apart; every image must equal seq's first (written to
// c.PNG if set). serial_fraction and total_speedup take the median encode
// at the CPU count, of any variant, as the serial part.
func Run(ctx context.Context, c Config, cpus []int, progress func(results.LabEvent)) ([]results.Point, error) {
	if err := lab.Check(c, cpus); err != nil {
		return nil, err
	}
	f := newFrame(c.Size, c.MaxIter)
	m := &measurer{frame: f, img: f.newImage()}
	return lab.Sweep(ctx, c, cpus, progress, func(n int, add lab.Add) error {
		ts, err := m.measureAll(ctx, c, n)
		assemble(ts, n, c.Size, add)
		return err
	})
}

// measureAll measures every variant at n CPUs in turns, each render
// paired with seq's of the same turn; on an error, it returns those with
// a render.
func (m *measurer) measureAll(ctx context.Context, c Config, n int) ([]timing, error) {
	workers := map[string]int{"seq": 1, "pixel": c.Size * c.Size, "row": c.Size, "workers": cmp.Or(c.Workers, runtime.GOMAXPROCS(0))} // goroutines rendering
	ts := make([]timing, len(Variants()))
	for i, v := range Variants() {
		ts[i] = timing{variant: v, workers: workers[v]}
	}
	err := lab.Turns(ctx, c.Reps, len(ts), func(_, i int) error { return m.measure(ctx, &ts[i], c.PNG) })
	if i := slices.IndexFunc(ts, func(t timing) bool { return len(t.Times) == 0 }); i >= 0 {
		return ts[:i], err
	}
	return ts, err
}

// measurer renders and encodes into img, cleared before each render (a
// pixel missed is not another's), and keeps seq's image, ref.
type measurer struct {
	frame *frame
	img   *image.RGBA
	ref   []byte
	buf   bytes.Buffer // the PNG, encoded into memory: no disk is timed
}

type timing struct {
	variant  string
	workers  int
	lab.Runs // the renders'
	encodes  []time.Duration
}

// measure renders and encodes the image once t's way; the first image is
// the reference, written to path if set.
func (m *measurer) measure(ctx context.Context, t *timing, path string) error {
	clear(m.img.Pix)
	sw := sweep.StartStopwatch()
	if err := m.frame.render(ctx, m.img, t.variant, t.workers); err != nil {
		return err
	}
	t.Add(sw.Stop())

	m.buf.Reset()
	t2 := time.Now()
	if err := png.Encode(&m.buf, m.img); err != nil {
		return fmt.Errorf("render: encode PNG: %w", err)
	}
	t.encodes = append(t.encodes, time.Since(t2))

	if m.ref == nil {
		m.ref = bytes.Clone(m.img.Pix)
		if path != "" {
			if err := atomicfile.WriteFile(path, m.buf.Bytes()); err != nil {
				return fmt.Errorf("png %s: %w", path, err)
			}
		}
	} else if !bytes.Equal(m.img.Pix, m.ref) {
		return fmt.Errorf("render: variant %s at GOMAXPROCS %d rendered a different image from seq's", t.variant, runtime.GOMAXPROCS(0))
	}
	return nil
}

func assemble(ts []timing, cpus, size int, add lab.Add) {
	if len(ts) == 0 {
		return
	}
	var encodes []time.Duration
	for _, t := range ts {
		encodes = append(encodes, t.encodes...)
	}
	enc := median(encodes)
	seqRender := median(ts[0].Times)
	for _, t := range ts {
		h := lab.NewHist(time.Hour)
		for _, d := range t.Times {
			lab.Record(h, int64(d))
		}
		render := median(t.Times)
		speedup := lab.IntervalOf(lab.Ratios(ts[0].Runs, t.Runs)) // seq's render time over t's, turn by turn
		totalSpeedup := (seqRender + enc) / (render + enc)
		timing := lab.Timing{Window: t.Window, Par: t.workers, Ops: int64(len(t.Times)), Hist: h}
		p, _ := timing.Point(Name, t.variant, cpus, Unit, map[results.Metric]float64{ // encodes any histogram NewHist made
			MetricRenderMs:       render,
			MetricEncodeMs:       median(t.encodes),
			MetricTotalSpeedup:   totalSpeedup,
			MetricSerialFraction: enc / (seqRender + enc),
			MetricWorkers:        float64(t.workers),
			MetricPixels:         float64(size * size),
		})
		speedup.Set(&p, MetricSpeedup)
		if cpus > 1 {
			p.Set(MetricKarpFlatt, KarpFlatt(speedup.Median, cpus))
			p.Set(MetricKarpFlattTotal, KarpFlatt(totalSpeedup, cpus))
		}
		add(p, results.LabPoint{Vs: results.Interval(speedup)})
	}
}

func median(ds []time.Duration) float64 { return results.Median(collect.Mapped(ds, results.Ms)) }
