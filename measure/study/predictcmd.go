package study

import (
	"github.com/brewput/brewput/explain/analyze"
	"github.com/brewput/brewput/explain/verdict"
	"github.com/brewput/brewput/report/text"

	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/brewput/brewput/internal/cliflag"
	"github.com/brewput/brewput/internal/exitcode"
	"github.com/brewput/brewput/internal/host"
	"github.com/brewput/brewput/internal/predict"
	"github.com/brewput/brewput/internal/sweep"
	"github.com/brewput/brewput/report"
	"github.com/brewput/brewput/results"
)

// predictFlags say what to measure (or read), what to predict and how.
type predictFlags struct {
	variants, cpus, measure, from string
	dur, warmup                   cliflag.Duration
	count                         int
	sched, calibration            string
	seed                          uint64
	format, out                   string
}

func (c *cli) predictCmd() *cobra.Command {
	f := &predictFlags{dur: cliflag.Duration(time.Second), warmup: cliflag.Duration(200 * time.Millisecond)}
	cmd := &cobra.Command{
		Use:   "predict",
		Short: "Predict each variant on more CPUs than the machine has, from what its meters measured, and check it against the measurements",
		Long: `predict builds a model of each variant from what its meters measured and
predicts it on --cpus, past this machine. It measures the variants first on
--measure CPU counts, as the study does, or reads --from a results file of
them (this program's run --out FILE). From each CPU count measured (the
median run) it reads, per operation, the CPU time outside every metered lock
and, for each lock (the shards of one design together), its uses and the
time it was held; the model is those steps as a blueprint, the format
brewput model --model reads, simulated in virtual time under the go policy
with this machine's calibration of the runtime's costs (a Lock that spins,
sleeps and is woken; --sched fifo for idealized CPUs), with the structural
bounds and the band the costs' uncertainty spans. A CPU count is predicted
with the model read on the most CPUs measured up to it: past the machine,
an operation costs what it cost on the most CPUs measured.

It checks itself: at each CPU count measured it sets the measured throughput
beside the predicted band and says "within its band" or how far off it is:
whether the locks' contention and the scheduler, simulated, give what was
measured. How an operation's costs grow with more cores than were measured —
cache-line contention, memory bandwidth, the garbage collector — it leaves
out, and says so.

--format json writes one point per variant and CPU count, as brewput model
writes them; --out DIR writes the report of the measured and predicted
points.`,
		Example: fmt.Sprintf("  %[1]s predict --cpus 1-64\n  %[1]s run --cpus 1,2 --out measured.json && %[1]s predict --from measured.json --format json", c.study.Name),
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			pl, cpus, err := f.check(cmd, c.study)
			if err != nil {
				return err
			}
			if f.out != "" {
				if err := report.CheckDir(f.out); err != nil {
					return fmt.Errorf("--out: %w", err)
				}
			}
			o := predict.Options{Sched: f.sched, Seed: f.seed, Calibration: f.calibration, Band: true}
			if cmd.Flags().Changed("calibration") {
				o.Given = append(o.Given, "calibration")
			}
			if err := o.Check(); err != nil {
				return err
			}
			var measured []results.Point
			if f.from != "" {
				if measured, err = readStudy(f.from, c.study, pl.variants); err != nil {
					return err
				}
			} else {
				var runErr error
				measured, runErr = c.measure(cmd.Context(), pl)
				if runErr != nil {
					return exitcode.Measured(runErr, len(measured), pl.total())
				}
			}
			models, err := modelsOf(pl.variants, measured)
			if err != nil {
				return failure{Err: err}
			}
			pr, err := predict.Resolve(cmd.Context(), o, func(line string) { fmt.Fprintln(c.stderr, line) })
			if err != nil {
				return err
			}
			fmt.Fprintf(c.stderr, "predicting %d variant(s) on %d CPU count(s)\n", len(pl.variants), len(cpus))
			predicted, err := predictAll(cmd.Context(), pr, c.study.Name, models, cpus)
			if err != nil {
				return exitcode.Ended(err, 0, len(pl.variants)*len(cpus), "points", "nothing")
			}
			all := append(slices.Clone(measured), predicted...)
			if f.format == "json" {
				if err := results.Write(c.stdout, results.JSON, predicted); err != nil {
					return failure{Err: err}
				}
			} else {
				// The answer first, as every command's: what the model
				// predicts, how it fares where measured, what it leaves
				// out; then what it is made of, and the table.
				if err := text.WriteVerdict(c.stdout, verdict.Of(all)); err != nil {
					return failure{Err: err}
				}
				fmt.Fprintln(c.stdout)
				if err := writePrediction(c.stdout, models, predicted, measured, cpus); err != nil {
					return failure{Err: err}
				}
				fmt.Fprintf(c.stdout, "%s\n", pr.Describe())
			}
			if f.out != "" {
				a, err := analyze.Points(all, analyze.Options{})
				var r *report.Report
				if err == nil {
					r, err = report.Build(all, a)
				}
				if err == nil {
					err = r.WriteDir(f.out)
				}
				if err != nil {
					return failure{Err: err}
				}
				w := c.stderr // beside JSON, not into it
				if f.format != "json" {
					w = c.stdout
				}
				fmt.Fprintf(w, "\nreport: %s/%s\n", f.out, report.Index)
			}
			return nil
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&f.cpus, "cpus", "1-64", "CPU counts to predict, as a list and ranges such as 1-64 or 1,2,4,8")
	fs.StringVar(&f.measure, "measure", fmt.Sprintf("1-%d", runtime.NumCPU()), "CPU counts to measure first, as --cpus takes them, up to this machine's")
	fs.StringVar(&f.from, "from", "", "read what was measured from this results file (run --out FILE) instead of measuring")
	fs.StringVar(&f.variants, "variants", "", "comma-separated variants to predict (default all; see list)")
	fs.Var(&f.dur, "dur", "measured duration of each point")
	fs.Var(&f.warmup, "warmup", "uncounted warm-up before each point")
	fs.IntVar(&f.count, "count", 1, "measure every point this many times; the model reads the median run")
	fs.StringVar(&f.sched, "sched", "go", "how the virtual CPUs are scheduled: go (the Go runtime's scheduler, with this machine's measured costs) or fifo (idealized CPUs, free handoffs)")
	fs.StringVar(&f.calibration, "calibration", "", "file of the go policy's costs, from brewput calibrate (default: the user's config folder; measured and saved there if missing)")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the simulations' start states; the same seed gives the same prediction")
	fs.StringVar(&f.format, "format", "table", "output format: table or json (JSON Lines, a point per variant and CPU count)")
	fs.StringVar(&f.out, "out", "", "also write the report of the measured and predicted points to this folder")
	return cmd
}

// check checks every flag before anything is measured or simulated and
// returns what to measure and the CPU counts to predict.
func (f *predictFlags) check(cmd *cobra.Command, s Study) (plan, []int, error) {
	fs := cmd.Flags()
	p := plan{count: f.count, variants: s.names()}
	if fs.Changed("variants") {
		p.variants = nil
		for _, name := range strings.Split(f.variants, ",") {
			v, err := s.Variant(strings.TrimSpace(name))
			if err != nil {
				return p, nil, fmt.Errorf("--variants: %q: not a variant; accepted: %s", strings.TrimSpace(name), joinNames(s))
			}
			p.variants = append(p.variants, v.Name)
		}
	}
	cpus, err := host.ParseCPUList(f.cpus, host.ModelMaxCPUs)
	if err != nil {
		return p, nil, fmt.Errorf("--cpus: %w", err)
	}
	if f.from != "" {
		for _, name := range []string{"measure", "dur", "warmup", "count"} {
			if fs.Changed(name) {
				return p, nil, fmt.Errorf("--%s: applies when measuring; --from %s reads what was measured", name, f.from)
			}
		}
	} else if p.cpus, err = host.ParseCPUList(f.measure, runtime.NumCPU()); err != nil {
		return p, nil, fmt.Errorf("--measure: %w", err)
	}
	p.load = sweep.Load{Dur: time.Duration(f.dur), Warmup: time.Duration(f.warmup)}
	switch {
	case p.load.Dur <= 0:
		return p, nil, fmt.Errorf("--dur %v: want a positive duration such as 1s", p.load.Dur)
	case p.load.Warmup < 0:
		return p, nil, fmt.Errorf("--warmup %v: want zero or a positive duration such as 200ms", p.load.Warmup)
	case f.count < 1:
		return p, nil, fmt.Errorf("--count %d: want 1 or more repetitions of each point", f.count)
	case f.format != "table" && f.format != "json":
		return p, nil, fmt.Errorf("--format %q: want table or json", f.format)
	}
	return p, cpus, nil
}

// readStudy reads the measured points of s's variants from a results
// file: an error names --from where the file holds none of them.
func readStudy(path string, s Study, variants []string) ([]results.Point, error) {
	all, err := results.ReadFiles(path)
	if err != nil {
		return nil, fmt.Errorf("--from: %w", err)
	}
	var out []results.Point
	for _, p := range all {
		if p.Study == s.Name && p.Source != results.SourceModel && slices.Contains(variants, p.Mode) {
			out = append(out, p)
		}
	}
	var missing []string
	for _, v := range variants {
		found := false
		for _, p := range out {
			found = found || p.Mode == v
		}
		if !found {
			missing = append(missing, v)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("--from %s: no measured point of %s of study %s; measure them with run --out FILE, or choose --variants", path, strings.Join(missing, ", "), s.Name)
	}
	return out, nil
}
