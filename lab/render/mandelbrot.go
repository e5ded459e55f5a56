package render

import (
	"context"
	"fmt"
	"image"
	"math"
	"sync"
	"sync/atomic"
)

// Variants returns the ways to render, seq first: the others' speedups
// are over it.
func Variants() []string { return []string{"seq", "pixel", "row", "workers"} }

// frame is what every pixel's computation needs, read-only once made.
type frame struct {
	size    int
	maxIter int
	x0, y0  float64 // the complex plane at the top-left pixel's corner
	step    float64 // the width of a pixel in the plane
	palette [][4]byte
}

// newFrame frames the whole set, -2.25 to 0.75 by -1.5 to 1.5.
func newFrame(size, maxIter int) *frame {
	f := &frame{size: size, maxIter: maxIter, x0: -2.25, y0: -1.5, step: 3 / float64(size)}
	f.palette = make([][4]byte, maxIter+1)
	for i := range maxIter {
		// A square root spreads the many pixels that escape early over more
		// colours; the polynomials are a smooth blue-to-gold ramp.
		t := math.Sqrt(float64(i) / float64(maxIter))
		u := 1 - t
		f.palette[i] = [4]byte{
			byte(255 * min(1, 9*u*t*t*t)),
			byte(255 * min(1, 15*u*u*t*t)),
			byte(255 * min(1, 8.5*u*u*u*t)),
			255,
		}
	}
	f.palette[maxIter] = [4]byte{0, 0, 0, 255} // inside the set
	return f
}

func (f *frame) newImage() *image.RGBA { return image.NewRGBA(image.Rect(0, 0, f.size, f.size)) }

// escape counts the iterations of z ← z² + c, from z = 0, until |z| > 2, up
// to maxIter. The float64 conversions forbid fusing a multiply and an add
// into one FMA, which rounds differently: every variant must get the same
// bits for a pixel wherever the code was inlined.
func escape(cx, cy float64, maxIter int) int {
	var x, y float64
	for i := range maxIter {
		x2, y2 := float64(x*x), float64(y*y)
		if x2+y2 > 4 {
			return i
		}
		y = float64(2*float64(x*y)) + cy
		x = x2 - y2 + cx
	}
	return maxIter
}

func (f *frame) pixel(img *image.RGBA, px, py int) {
	cx := f.x0 + float64((float64(px)+0.5)*f.step)
	cy := f.y0 + float64((float64(py)+0.5)*f.step)
	c := f.palette[escape(cx, cy, f.maxIter)]
	off := py*img.Stride + 4*px
	copy(img.Pix[off:off+4], c[:])
}

func (f *frame) row(img *image.RGBA, py int, stop *atomic.Bool) {
	for px := range f.size {
		if stop.Load() {
			return
		}
		f.pixel(img, px, py)
	}
}

// render computes the whole image into img the variant's way, returning
// once every goroutine it started has finished. Cancelled, each goroutine
// stops within a pixel, and it returns ctx's error.
func (f *frame) render(ctx context.Context, img *image.RGBA, variant string, workers int) error {
	var stop atomic.Bool
	defer context.AfterFunc(ctx, func() { stop.Store(true) })()
	var wg sync.WaitGroup
	switch variant {
	case "seq":
		for py := range f.size {
			f.row(img, py, &stop)
		}
	case "pixel":
		for py := range f.size {
			if stop.Load() {
				break
			}
			for px := range f.size {
				wg.Go(func() {
					if !stop.Load() {
						f.pixel(img, px, py)
					}
				})
			}
		}
	case "row":
		for py := range f.size {
			wg.Go(func() { f.row(img, py, &stop) })
		}
	case "workers":
		// Buffered for every row, as in the talk: the feeder queues the
		// whole image and never waits for a worker.
		rows := make(chan int, f.size)
		for range workers {
			wg.Go(func() {
				for py := range rows {
					f.row(img, py, &stop)
				}
			})
		}
		for py := range f.size {
			rows <- py
		}
		close(rows)
	default:
		return fmt.Errorf("render: unknown variant %q", variant)
	}
	wg.Wait()
	if stop.Load() {
		return ctx.Err()
	}
	return nil
}
