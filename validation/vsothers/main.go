// Command vsothers holds the model's other processes (brewput model
// --others, Background in model/sim) against this machine: it measures
// modes with the machine to themselves, then beside a process that is busy
// for -burst and idle for as long (about half a CPU), and prints, per
// mode, the measured throughput with and without it, the CPUs the others
// took as the points measured them, and the model's ratio with --others
// set to that figure. others-vs-model.sh runs it. It builds brewput from
// the main module this module requires (the repository, by its replace
// directive), so it runs from inside validation/.
//
// Steps burn thread CPU time (-burn cpu, the default here), like the talk's
// calibrated loops: a step whose thread is descheduled stretches. With
// -burn wall, measurement and model both end steps on the clock.
// Run it on an otherwise quiet machine: the "alone" points should say
// others took about 0 CPUs.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"github.com/brewput/brewput/validation/internal/cmdline"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/brewput/brewput/results"
)

func main() {
	modes := flag.String("modes", "ideal,locking,finelocking,multi-2", "modes to measure")
	cpus := flag.Int("cpus", 2, "CPU count to measure on")
	count := flag.Int("count", 3, "repetitions of each point")
	dur := flag.Duration("dur", 3*time.Second, "measured window of a point")
	burst := flag.Duration("burst", time.Millisecond, "the busy process's bursts, and its idle time between them")
	clock := flag.String("burn", "cpu", "how the steps count their time, measured and modelled: cpu or wall")
	hog := flag.Bool("hog", false, "be the busy process (used by vsothers itself)")
	flag.Parse()
	if *hog {
		for {
			end := time.Now().Add(*burst)
			for time.Now().Before(end) {
			}
			time.Sleep(*burst)
		}
	}

	tmp, err := os.MkdirTemp("", "vsothers-")
	cmdline.Check(err)
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "brewput")
	root := strings.TrimSpace(string(cmdline.Output("go", "list", "-m", "-f", "{{.Dir}}", "github.com/brewput/brewput")))
	cmdline.Run("go", "build", "-C", root, "-o", bin, "./cmd/brewput")

	measure := func(name string) []results.Point {
		out := filepath.Join(tmp, name+".json")
		cmdline.Run(bin, "run", "--modes", *modes, "--cpus", fmt.Sprint(*cpus), "--count", fmt.Sprint(*count),
			"--dur", dur.String(), "--burn", *clock, "--noisy", "ok", "--format", "json", "--out", out)
		pts, err := results.ReadFile(out)
		cmdline.Check(err)
		return pts
	}
	alone := measure("alone")
	self, err := os.Executable()
	cmdline.Check(err)
	h := exec.Command(self, "-hog", "-burst", burst.String())
	cmdline.Check(h.Start())
	time.Sleep(time.Second)
	busy := measure("busy")
	h.Process.Kill()
	h.Wait()

	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(w, "mode\talone lattes/s\tothers CPUs\tbeside it\tmeasured ratio\tothers CPUs (measured)\tmodel ratio\t\n")
	for _, mode := range strings.Split(*modes, ",") {
		a, ao := medians(alone, mode)
		b, bo := medians(busy, mode)
		with := model(bin, mode, *cpus, *dur, bo, *burst, *clock)
		without := model(bin, mode, *cpus, *dur, 0, *burst, *clock)
		fmt.Fprintf(w, "%s\t%.1f\t%.2f\t%.1f\t×%.3f\t%.2f\t×%.3f\t\n", mode, a, ao, b, b/a, bo, with/without)
	}
	w.Flush()
}

// medians returns the median throughput of mode's points and the median
// CPUs other processes took during them.
func medians(pts []results.Point, mode string) (thr, others float64) {
	var t, o []float64
	for _, p := range pts {
		if p.Mode == mode {
			t, o = append(t, p.Throughput), append(o, p.OthersCPUs+p.StealCPUs)
		}
	}
	if len(t) == 0 {
		cmdline.Fail(fmt.Errorf("no points of %s", mode))
	}
	return results.Median(t), results.Median(o)
}

// model returns the go policy's throughput for mode with others.
func model(bin, mode string, cpus int, dur time.Duration, others float64, burst time.Duration, clock string) float64 {
	out := cmdline.Output(bin, "model", "--modes", mode, "--cpus", fmt.Sprint(cpus), "--dur", dur.String(), "--burn", clock,
		"--others", fmt.Sprintf("%.3f", others), "--others-burst", burst.String(), "--band=false", "--format", "json")
	pts, err := results.ReadJSON(bytes.NewReader(out))
	cmdline.Check(err)
	return pts[0].Throughput
}
