package render

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"runtime"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/brewput/brewput/internal/atomicfile"
	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/results"
)

// Unit is the unit of a point's Throughput: images rendered per second of
// render time (the encode is not counted; see the "encode_ms" metric).
const Unit = "images/s"

// Run measures the four variants, seq first, at each CPU count in cpus,
// with runtime.GOMAXPROCS set to it for the measurement and restored
// afterwards. Each variant renders the image c.Reps times; after each
// render the image is encoded as PNG into memory, timed apart. Every image
// must equal the first one seq rendered, byte for byte, or Run fails. With
// c.PNG set, that first image is written to c.PNG. progress, if not nil,
// gets one short line per point.
//
// Each point has Lab Name, Variant the variant, Par its goroutines (1, one
// per pixel, one per row, or the pool size), Ops the reps and DurS their
// total render time, Throughput in images/s of render time, CPUUsed and
// Util over the renders, Latency the distribution of the reps' render
// times, and Metrics:
//
//   - "render_ms", "encode_ms": the variant's median render and PNG encode
//     times;
//   - "speedup": seq's median render time ÷ this variant's, at the same
//     CPU count;
//   - "serial_fraction": the encode's share of the sequential program at
//     this CPU count, E ÷ (seq's render + E), where E is the median of
//     every encode at this CPU count: the encode is the same work on the
//     same image whatever rendered it, so pooling only removes noise.
//     It is Amdahl's s if the render were perfectly parallel and the
//     encode not at all, and the same in every point of a CPU count;
//   - "total_speedup": the whole program's speedup, (seq's render + E) ÷
//     (this render + E); with the same E on both sides it stays under
//     Amdahl's curve unless the render itself beats the CPU count;
//   - "karp_flatt", "karp_flatt_total": the serial fraction that speedup
//     and total_speedup imply (see KarpFlatt), on more than 1 CPU only;
//   - "workers": Par, and "pixels": the image's pixel count.
//
// When ctx is cancelled, Run returns the points measured so far with
// ctx.Err().
func Run(ctx context.Context, c Config, cpus []int, progress func(line string)) ([]results.Point, error) {
	// Each variant says how it did as it is measured; its point is made
	// once every variant at the CPU count is, from all their encodes.
	say := func(string) {}
	if progress != nil {
		say = progress
	}
	if err := lab.Check(c, cpus); err != nil {
		return nil, err
	}
	f := newFrame(c.Size, c.MaxIter)
	m := &measurer{frame: f, reps: c.Reps, img: f.newImage()}
	return lab.Sweep(ctx, c, cpus, progress, func(n int, add lab.Add) error {
		ts, err := m.measureAll(ctx, c, n, say)
		for _, p := range assemble(ts, n, c.Size) {
			add(p, "")
		}
		return err
	})
}

// measureAll measures every variant at the current GOMAXPROCS, n, and
// returns their timings, seq's first; on an error, those measured before
// it.
func (m *measurer) measureAll(ctx context.Context, c Config, n int, progress func(string)) ([]timing, error) {
	var ts []timing
	for _, v := range Variants() {
		if err := ctx.Err(); err != nil {
			return ts, err
		}
		workers := 1
		switch v {
		case "pixel":
			workers = c.Size * c.Size
		case "row":
			workers = c.Size
		case "workers":
			workers = c.workers()
		}
		t, err := m.measure(ctx, v, workers, c.PNG)
		if err != nil {
			return ts, err
		}
		ts = append(ts, t)
		render := median(t.renders)
		progress(fmt.Sprintf("render cpus=%d %s: render %.0f ms (x%.2f), encode %.0f ms, util %.2f",
			n, v, render, median(ts[0].renders)/render, median(t.encodes), t.cpu.Seconds()/t.total().Seconds()/float64(n)))
	}
	return ts, nil
}

// measurer renders and encodes, and keeps what every variant is checked
// against. Every render writes into img, cleared before each, so that a
// variant that missed a pixel cannot pass on its predecessor's.
type measurer struct {
	frame *frame
	reps  int
	img   *image.RGBA
	ref   []byte       // the first image rendered, seq's; nil until then
	buf   bytes.Buffer // the PNG, encoded into memory: no disk is timed
}

// timing is what the reps of one variant measured.
type timing struct {
	variant string
	workers int // goroutines rendering
	start   time.Time
	renders []time.Duration
	encodes []time.Duration
	cpu     time.Duration // process CPU time over the renders
}

// total is the time all the renders took.
func (t timing) total() time.Duration {
	var sum time.Duration
	for _, d := range t.renders {
		sum += d
	}
	return sum
}

// measure renders and encodes the image m.reps times the variant's way.
// The first image is kept as the reference and, with path set, written
// there.
func (m *measurer) measure(ctx context.Context, variant string, workers int, path string) (timing, error) {
	t := timing{variant: variant, workers: workers, start: time.Now()}
	runtime.GC() // start from a clean heap, not the last point's garbage
	for range m.reps {
		if err := ctx.Err(); err != nil {
			return t, err
		}
		clear(m.img.Pix)
		sw := lab.StartStopwatch()
		if err := m.frame.render(ctx, m.img, variant, workers); err != nil {
			return t, err
		}
		render, cpu := sw.Stop()
		t.cpu += cpu
		t.renders = append(t.renders, render)

		m.buf.Reset()
		t2 := time.Now()
		if err := png.Encode(&m.buf, m.img); err != nil {
			return t, fmt.Errorf("render: encode PNG: %w", err)
		}
		t.encodes = append(t.encodes, time.Since(t2))

		if m.ref == nil {
			m.ref = bytes.Clone(m.img.Pix)
			if path != "" {
				if err := atomicfile.WriteFile(path, m.buf.Bytes()); err != nil {
					return t, fmt.Errorf("png %s: %w", path, err)
				}
			}
		} else if !bytes.Equal(m.img.Pix, m.ref) {
			return t, fmt.Errorf("render: variant %s at GOMAXPROCS %d rendered a different image from seq's", variant, runtime.GOMAXPROCS(0))
		}
	}
	return t, nil
}

// assemble makes the points of one CPU count from its timings, seq's
// first, into the results contract.
func assemble(ts []timing, cpus, size int) []results.Point {
	if len(ts) == 0 {
		return nil
	}
	var encodes []time.Duration
	for _, t := range ts {
		encodes = append(encodes, t.encodes...)
	}
	enc := median(encodes)
	seqRender := median(ts[0].renders)
	points := make([]results.Point, 0, len(ts))
	for _, t := range ts {
		total := t.total()
		h := hdrhistogram.New(1, int64(time.Hour), 3)
		for _, d := range t.renders {
			_ = h.RecordValue(max(int64(d), 1)) // fails only past an hour
		}
		render := median(t.renders)
		speedup := seqRender / render
		totalSpeedup := (seqRender + enc) / (render + enc)
		used := t.cpu.Seconds() / total.Seconds()
		p := lab.Point(Name, t.variant, cpus, t.start, used, map[results.Metric]float64{
			MetricRenderMs:       render,
			MetricEncodeMs:       median(t.encodes),
			MetricSpeedup:        speedup,
			MetricTotalSpeedup:   totalSpeedup,
			MetricSerialFraction: enc / (seqRender + enc),
			MetricWorkers:        float64(t.workers),
			MetricPixels:         float64(size * size),
		})
		p.Par, p.Ops, p.Unit = t.workers, int64(len(t.renders)), Unit
		p.DurS, p.Throughput = total.Seconds(), float64(len(t.renders))/total.Seconds()
		if cpus > 1 {
			p.Metrics[MetricKarpFlatt] = KarpFlatt(speedup, cpus)
			p.Metrics[MetricKarpFlattTotal] = KarpFlatt(totalSpeedup, cpus)
		}
		_ = lab.Latencies(&p, h) // encodes any histogram New made
		points = append(points, p)
	}
	return points
}

// median returns the median of ds, which is not empty, in milliseconds.
func median(ds []time.Duration) float64 {
	ms := make([]float64, len(ds))
	for i, d := range ds {
		ms[i] = results.Ms(d)
	}
	return results.Median(ms)
}
