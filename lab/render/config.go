package render

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/brewput/brewput/lab"
)

// Config says what Run renders and measures.
type Config struct {
	Size int `flag:"size" usage:"the image's width and height in pixels"`
	// MaxIter is the most iterations of z ← z² + c a pixel gets before it
	// counts as inside the set.
	MaxIter int `flag:"max-iter" usage:"most iterations per pixel: the work per pixel"`
	// Workers is 0 for runtime.GOMAXPROCS at each CPU count.
	Workers int    `flag:"workers" usage:"pool size of the workers variant (0: one per CPU)"`
	Reps    int    `flag:"reps" usage:"renders of each variant at each CPU count; a point reports the medians"`
	PNG     string `flag:"png" usage:"write the rendered image to this PNG file"` // atomically; "" writes none
	// ModelCPUs is checked, but the chart draws Amdahl's curve to 64
	// CPUs whatever it says.
	ModelCPUs []int `flag:"model-cpus" usage:"CPU counts of Amdahl's curve"`
}

// DefaultConfig renders 1024×1024 pixels of up to 1024 iterations (about
// 0.8 s sequentially on a 2.5 GHz core, the encode 60 ms), 3 times per
// variant: about 30 s at 1 and 2 CPUs, most of it a goroutine per pixel.
func DefaultConfig() Config {
	return Config{
		Size:      1024,
		MaxIter:   1024,
		Workers:   0,
		Reps:      3,
		ModelCPUs: []int{1, 2, 4, 8, 16, 32, 64},
	}
}

// Limits past which a typo would take the machine's memory or hours:
// 8192² pixels is 256 MiB of image, which Run keeps twice.
const (
	maxSize    = 8192
	maxIter    = 1 << 24
	maxWorkers = 1 << 16
	maxCPUs    = 1 << 20
)

// Validate implements lab.Validator. A PNG's directory must exist, so that
// a long run does not end on an unwritable path.
func (c Config) Validate() error {
	if err := cmp.Or(
		lab.Refuse(c.Size < 1 || c.Size > maxSize, "size %d: want an image of 1 to %d pixels a side", c.Size, maxSize),
		lab.Within("max-iter", c.MaxIter, 1, maxIter, "iterations per pixel"),
		lab.Refuse(c.Workers < 0 || c.Workers > maxWorkers, "workers %d: want 1 to %d workers, or 0 for one per CPU", c.Workers, maxWorkers),
		lab.AtLeast("reps", c.Reps, 1, "repetition"),
		lab.NotEmpty("model-cpus", c.ModelCPUs, "CPU count for Amdahl's curve"),
		lab.EachWithin("model-cpus", c.ModelCPUs, 1, maxCPUs, "CPUs"),
	); err != nil {
		return err
	}
	if c.PNG != "" {
		dir := filepath.Dir(c.PNG)
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return fmt.Errorf("png %s: directory %s does not exist", c.PNG, dir)
		}
		if fi, err := os.Stat(c.PNG); err == nil && fi.IsDir() {
			return fmt.Errorf("png %s: is a directory, want a file name", c.PNG)
		}
	}
	return nil
}

// workers is the pool size at the current GOMAXPROCS.
func (c Config) workers() int {
	if c.Workers > 0 {
		return c.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// Memory is what a run holds at most: the image and seq's reference,
// the palette of --max-iter colours, and the pixel variant's goroutines
// under way (about 16 bytes a pixel, measured at 2048 pixels a side).
func (c Config) Memory() (float64, string) {
	px := float64(c.Size) * float64(c.Size)
	return 2*px*4 + float64(c.MaxIter+1)*4 + 16*px, fmt.Sprintf("an image of --size %d pixels a side and --max-iter %d colours", c.Size, c.MaxIter)
}
