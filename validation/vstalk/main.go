// Command vstalk holds brewput's model against the talk's own measurements:
// four runs of seven modes on 1–6 CPUs and, on 6 CPUs, with 10 to 10000
// customers, read from the folder -ref names (its varycpu.csv and
// overload.csv; validation/testdata/talk holds them). model-vs-talk.sh
// runs it.
//
//	go run ./vstalk -ref testdata/talk [-points] [-nominal]
//
// Every prediction simulates the talk's program — its harness (generator,
// workers, aggregator) and its protocol (requests handed out for the run's
// duration, 4 s or 10 s, then all served; throughput over the time to the
// last) — with each run's own step as input: that run's ideal median
// latency at that CPU count (or load) over 4, which the talk's README
// explains (its loop calibration made steps of 0.95–1.0 ms). Nothing is
// fitted: the go policy's costs come from brewput calibrate.
//
// For each point it compares, with the band of the four runs (inside it =
// no error): the fifo policy; the analytic bound; the go policy with
// today's runtime and with Go 1.9's (the talk's), each with its band over
// the costs' confidence intervals; and those two again with each run's
// other processes ("+others"): the CPUs that run's ideal did not get at the
// same CPUs and load (its util short of every CPU), simulated as bursts of
// -burst that cost the program only while it keeps every CPU busy (see
// Background in model/sim). Ideal's own throughput is then not a
// prediction: its util is the input. A point's prediction is the median of
// the four runs' predictions; its band spans theirs.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/brewput/brewput/model/calibrate"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/validation/internal/cmdline"
	"github.com/brewput/brewput/validation/internal/talk"
)

func main() {
	ref := flag.String("ref", "", "folder of the talk's varycpu.csv and overload.csv (required)")
	calPath := flag.String("calibration", "", "calibration file (default: brewput's, in the user's config folder)")
	points := flag.Bool("points", false, "print every point, not only the summary per mode")
	nominal := flag.Bool("nominal", false, "use 1 ms steps instead of each run's step")
	burst := flag.Duration("burst", time.Millisecond, "length of the other processes' bursts of work, for the variants with others")
	only := flag.String("only", "", "comma-separated variants to predict (default all: bound, fifo, go, go1.9, go+others, go1.9+others, and with -base go-base, go1.9-base)")
	cpus := flag.String("cpus", "", "comma-separated CPU counts of the varycpu table to compare (default all); the overload table is always compared")
	basePath := flag.String("base", "", "a second calibration, predicted beside -calibration's as the variants go-base and go1.9-base (such as this machine's beside another's)")
	flag.Parse()
	if err := talk.CheckRef(*ref); err != nil {
		fmt.Fprintln(os.Stderr, "vstalk:", err)
		os.Exit(2)
	}

	path := *calPath
	if path == "" {
		p, err := calibrate.DefaultPath()
		if err != nil {
			cmdline.Fail(err)
		}
		path = p
	}
	cal, err := calibrate.Load(path)
	if err != nil {
		cmdline.Fail(fmt.Errorf("%v (run brewput calibrate on a quiet machine first)", err))
	}
	rule := talk.Median
	if *nominal {
		rule = talk.Nominal
	}
	all, err := talk.ReadPoints(*ref, rule)
	if err != nil {
		cmdline.Fail(err)
	}
	var pts []*talk.Point
	for _, p := range all {
		if p.Table == "varycpu" && *cpus != "" && !slices.Contains(strings.Split(*cpus, ","), strconv.Itoa(p.CPUs)) {
			continue
		}
		pts = append(pts, p)
	}
	variants := []talk.Variant{
		{Name: "bound", Bound: true},
		{Name: "fifo", Sched: "fifo"},
		{Name: "go", Sched: "go", Costs: cal.Costs, Range: cal.Range()},
		{Name: "go1.9", Sched: "go", Runtime: "go1.9", Costs: cal.Costs, Range: cal.Range()},
		{Name: "go+others", Sched: "go", Others: true, Costs: cal.Costs, Range: cal.Range()},
		{Name: "go1.9+others", Sched: "go", Runtime: "go1.9", Others: true, Costs: cal.Costs, Range: cal.Range()},
	}
	if *basePath != "" {
		base, err := calibrate.Load(*basePath)
		if err != nil {
			cmdline.Fail(err)
		}
		variants = append(variants, talk.Variant{Name: "go-base", Sched: "go", Costs: base.Costs, Range: base.Range()},
			talk.Variant{Name: "go1.9-base", Sched: "go", Runtime: "go1.9", Costs: base.Costs, Range: base.Range()})
		defer fmt.Printf("-base: %s\n", text.CalibrationLine(base.Ref()))
	}
	if *only != "" {
		variants = slices.DeleteFunc(variants, func(v talk.Variant) bool { return !slices.Contains(strings.Split(*only, ","), v.Name) })
	}
	preds, err := talk.PredictAll(pts, variants, *burst)
	if err != nil {
		cmdline.Fail(err)
	}

	stepNote := "each run's step (its ideal median ÷ 4)"
	if *nominal {
		stepNote = "1 ms steps"
	}
	fmt.Printf("the talk's harness and protocol, %s; go policy: %s\n\n", stepNote, text.CalibrationLine(cal.Ref()))
	if *points {
		printPoints(pts, variants, preds)
	}
	summarize(pts, variants, preds)
}

func printPoints(pts []*talk.Point, variants []talk.Variant, preds map[[2]int]talk.Prediction) {
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(w, "mode\ttable\tcpus\tpar\truns thr\truns p50\t")
	for _, v := range variants {
		fmt.Fprintf(w, "%s thr\t%s p50\t", v.Name, v.Name)
	}
	fmt.Fprintln(w)
	for pi, p := range pts {
		tb, pb := talk.RunsBand(p, talk.Thru), talk.RunsBand(p, talk.P50)
		fmt.Fprintf(w, "%s\t%s\t%d\t%d\t%.0f–%.0f\t%.3g–%.3g\t", p.Mode, p.Table, p.CPUs, p.Par, tb[0], tb[1], pb[0], pb[1])
		for vi, v := range variants {
			pr := preds[[2]int{pi, vi}]
			mark := func(x float64, b [2]float64, band [2]float64) string {
				s := fmt.Sprintf("%.4g", x)
				if d := talk.Distance(x, b); d > 0 {
					s += fmt.Sprintf(" (%+.1f%%)", 100*math.Copysign(d, x-b[0]))
				}
				if pr.Banded && v.Sched == "go" {
					s += fmt.Sprintf(" [%.4g–%.4g]", band[0], band[1])
					if !talk.Overlaps(band, b) {
						s += "!"
					}
				}
				return s
			}
			fmt.Fprintf(w, "%s\t%s\t", mark(pr.Thr, tb, pr.ThrBand), mark(pr.P50, pb, pr.P50Band))
		}
		fmt.Fprintln(w)
	}
	w.Flush()
	fmt.Println()
}

func summarize(pts []*talk.Point, variants []talk.Variant, preds map[[2]int]talk.Prediction) {
	type gk struct{ mode, table string }
	var keys []gk
	for _, p := range pts {
		if k := (gk{p.Mode, p.Table}); !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	slices.SortStableFunc(keys, func(a, b gk) int { return strings.Compare(a.table, b.table) })
	pct := func(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }
	for vi, v := range variants {
		fmt.Printf("%s:\n", v.Name)
		w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(w, "mode\ttable\tpoints\tthr median\tthr worst\tp50 median\tp50 worst\tcovered thr\tcovered p50\twidth thr\twidth p50\t")
		all := &talk.Stats{}
		// "all but ideal": with others, ideal's util is an input.
		for _, k := range append(keys, gk{"all but ideal", ""}, gk{"all", ""}) {
			s := &talk.Stats{}
			for pi, p := range pts {
				if k.mode == "all" || (k.mode == "all but ideal" && p.Mode != "ideal") || (p.Mode == k.mode && p.Table == k.table) {
					s.Add(p, preds[[2]int{pi, vi}])
				}
			}
			if k.mode == "all" {
				all = s
			}
			fmt.Fprintf(w, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%d/%d\t%d/%d\t%s\t%s\t\n", k.mode, k.table, s.N,
				pct(results.Median(s.ThrD)), pct(slices.Max(s.ThrD)), pct(results.Median(s.P50D)), pct(slices.Max(s.P50D)),
				s.ThrCover, s.N, s.P50Cover, s.N, pct(results.Median(s.ThrWidth)), pct(results.Median(s.P50Width)))
		}
		w.Flush()
		off := 0
		for _, d := range all.ThrD {
			if d > 0.05 {
				off++
			}
		}
		fmt.Printf("  worst throughput: %s; worst p50: %s; throughput off > 5 %%: %d of %d\n\n", all.WorstThr, all.WorstP50, off, all.N)
	}
}
