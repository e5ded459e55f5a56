// Command published holds the model against three behaviours of Go's
// runtime that were measured and published on machines with more cores
// than this one: each is written as a blueprint (the YAML files beside this
// file, whose comments say where the figures come from and what is
// assumed), simulated on the published core and worker counts under the go
// policy with one calibration and under fifo, and printed beside the
// figures read in the published thread. It builds brewput from the main
// module this module requires (the repository, by its replace directive),
// so it runs from inside validation/.
//
// The simulations are seeded and the calibration is a file, so the output
// is the same on every run of the same code.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"github.com/brewput/brewput/validation/internal/cmdline"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/brewput/brewput/results"
)

// point is one published configuration: CPUs, workers (0: one per CPU)
// and what the thread says of it, as it says it.
type point struct {
	cpus, par int
	published string
}

// behaviour is one published behaviour and its blueprint.
type behaviour struct {
	title, source, file string
	dur                 time.Duration // simulated window of each point
	warmup              time.Duration
	points              []point
	shape               string // the published shape, in the thread's own figures
	// alt is go-policy flags that replace costs of the calibration's, for
	// the column that asks whether another machine's costs would change
	// the answer; why names them.
	alt []string
	why string
}

var behaviours = []behaviour{
	{
		title:  "a released resource idle while its releaser runs on (runnext)",
		source: "jackc/puddle#46 and #47 (BenchmarkAcquire_ReleaseThenWork, linux/arm64)",
		file:   "puddle.yaml", dur: 200 * time.Millisecond, warmup: 100 * time.Millisecond,
		points: []point{{4, 100, "411-425 µs/op; fixed: 255-256"}},
		shape:  "before the fix, 0.60-0.62 of the fixed throughput (\"down by a third\", #46)",
		alt:    []string{"--runnext-grace", "5us", "--wake", "2us"},
		why:    "a bare-metal machine's costs, assumed (the runtime's usleep(3), little timer slack)",
	},
	{
		title:  "sync.Mutex, 1 % of each op inside it, on 96 logical CPUs",
		source: "golang/go#33747 (BenchmarkLock/sync.Mutex/cost=1000,ratio=0.010)",
		file:   "mutex96.yaml", dur: 50 * time.Millisecond, warmup: 10 * time.Millisecond,
		points: []point{
			{96, 1, "354 µs/op, 1×"}, {96, 2, "178 µs/op, 1.99×"}, {96, 4, "92.3 µs/op, 3.84×"},
			{96, 8, "47.4 µs/op, 7.47×"}, {96, 10, "38.5 µs/op, 9.19×"}, {96, 28, "collapse begins"},
			{96, 48, "8.4-64 µs/op, 5.5-42×"},
			{96, 64, ""}, {96, 96, ""},
		},
		shape: "near-linear to 10 workers (9.2×), then collapse from about 28: 5.5× to 42× at 48",
		alt:   []string{"--mutex-handoff", "60us"},
		why:   "the collapsed lock's \"about 60–70μs per operation\" (#33747), charged to each handoff",
	},
	{
		title:  "one contended channel, every P sending and receiving",
		source: "golang/go#68578 (the runtime's BenchmarkChanContended, 20 threads)",
		file:   "chancontended.yaml", dur: 2 * time.Millisecond, warmup: time.Millisecond,
		points: []point{
			{1, 0, "1×"}, {2, 0, ""}, {4, 0, ""}, {8, 0, "about 0.25×"}, {12, 0, ""}, {16, 0, ""},
			{20, 0, "about 0.083×"},
		},
		shape: "throughput falls with every thread added: 1/4 of one thread's at 8, 1/12 at 20",
	},
}

func main() {
	calibration := flag.String("calibration", "", "calibration file of the go policy's costs "+
		"(default: the repository's examples/cache/study/testdata/calibration.json)")
	flag.Parse()

	root := strings.TrimSpace(string(cmdline.Output("go", "list", "-m", "-f", "{{.Dir}}", "github.com/brewput/brewput")))
	if *calibration == "" {
		*calibration = filepath.Join(root, "examples", "cache", "study", "testdata", "calibration.json")
	}
	tmp, err := os.MkdirTemp("", "published-")
	cmdline.Check(err)
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "brewput")
	cmdline.Run("go", "build", "-C", root, "-o", bin, "./cmd/brewput")
	here := filepath.Join(root, "validation", "published")

	fmt.Printf("go policy under %s\n", filepath.Base(*calibration))
	for i, b := range behaviours {
		fmt.Printf("\n%d. %s\n   %s, %s\n", i+1, b.title, b.source, b.file)
		w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(w, "cpus\tworkers\tpublished\tgo ops/s\tgo ×\talt ×\tfifo ×\tgo/fifo\talt/fifo\t\n")
		var goFirst, altFirst, fifoFirst float64
		for j, p := range b.points {
			g := throughput(bin, here, b, p, "go", *calibration)
			f := throughput(bin, here, b, p, "fifo", "")
			a := g
			if b.alt != nil {
				a = throughput(bin, here, b, p, "go", *calibration, b.alt...)
			}
			if j == 0 {
				goFirst, altFirst, fifoFirst = g, a, f
			}
			workers := fmt.Sprint(p.par)
			if p.par == 0 {
				workers = fmt.Sprint(p.cpus)
			}
			fmt.Fprintf(w, "%d\t%s\t%s\t%.0f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t\n",
				p.cpus, workers, p.published, g, g/goFirst, a/altFirst, f/fifoFirst, g/f, a/f)
		}
		w.Flush()
		fmt.Printf("   published: %s\n", b.shape)
		if b.alt != nil {
			fmt.Printf("   alt: go with %s:\n     %s\n", strings.Join(b.alt, " "), b.why)
		} else {
			fmt.Printf("   alt: go, no other costs tried\n")
		}
	}
}

// throughput simulates one point of b under sched, with flags added, and
// returns its throughput in orders a second.
func throughput(bin, dir string, b behaviour, p point, sched, calibration string, flags ...string) float64 {
	args := []string{"model", "--model", filepath.Join(dir, b.file), "--cpus", fmt.Sprint(p.cpus),
		"--par", fmt.Sprint(p.par), "--sched", sched, "--dur", b.dur.String(), "--warmup", b.warmup.String(),
		"--causal=false", "--band=false", "--format", "json"}
	if calibration != "" {
		args = append(args, "--calibration", calibration)
	}
	args = append(args, flags...)
	pts, err := results.ReadJSON(bytes.NewReader(cmdline.Output(bin, args...)))
	cmdline.Check(err)
	if len(pts) != 1 {
		cmdline.Fail(fmt.Errorf("%s on %d CPUs: %d points, want 1", b.file, p.cpus, len(pts)))
	}
	return pts[0].Throughput
}
