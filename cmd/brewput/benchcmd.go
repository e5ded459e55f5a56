package main

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/brewput/brewput/gobench"
	"github.com/brewput/brewput/host"
	"github.com/brewput/brewput/report"
	"github.com/brewput/brewput/results"
	"github.com/spf13/cobra"
)

func newBenchCmd(e *env) *cobra.Command {
	var cfg gobench.Config
	var cpus, format, out string
	cmd := &cobra.Command{
		Use:   "bench [packages] [-- go test flags]",
		Short: "Run Go benchmarks on 1, 2, … CPUs, each pinned, and report how they scale",
		Long: `bench measures your own Go benchmarks the way brewput measures the coffee
shop. It builds each package's test binary once (go test -c), runs it once per
CPU count in a child process restricted to that many CPUs (CPU affinity, as
taskset) with -test.cpu set to match, -test.benchmem on, and reads the output
with golang.org/x/perf/benchfmt. Every benchmark line becomes a point — ops/s
from ns/op, every other value (B/op, allocs/op, MB/s, each b.ReportMetric
unit) kept — per CPU count and per repetition (--count).

It prints the table (or --format json, csv or bench: Go's own format, which
benchstat reads, the CPU count as the name's -N suffix) and writes a report to
--out: a chart of each benchmark's throughput against CPUs with the Universal
Scalability Law fitted (three CPU counts or more), and, for benchmarks that
time their calls with package github.com/brewput/brewput/bench, the latency of
a call at each CPU count. brewput report, fit and compare read the results,
and plain go test -bench output files too.

Flags after -- go to go test: build flags (-tags, -race, -gcflags …) to go test
-c, test flags (-timeout, -cpuprofile, -short …) to the test binary.

A package that does not compile gets the compiler's message and exit status 1,
before anything runs; a --bench that matches nothing exits 2; a benchmark that
fails at one CPU count is reported (exit status 1) and the others kept.`,
		Example: `  brewput bench ./examples/cache --cpus 1,2 --count 3
  brewput bench ./... --bench 'Cache/design=mutex' --benchtime 200ms --format bench > new.txt
  brewput bench . -- -tags purego -timeout 20m
  benchstat -col /gomaxprocs new.txt`,
		RunE: func(cmd *cobra.Command, args []string) error {
			pkgs, goFlags := args, []string(nil)
			if at := cmd.ArgsLenAtDash(); at >= 0 {
				pkgs, goFlags = args[:at], args[at:]
			}
			var err error
			cfg.Packages = pkgs
			if cfg.BuildFlags, cfg.TestFlags, err = gobench.SplitFlags(goFlags); err != nil {
				return fmt.Errorf("go test flags: %w", err)
			}
			if cfg.CPUs, err = host.ParseCPUList(cpus, runtime.NumCPU()); err != nil {
				return fmt.Errorf("--cpus: %w", err)
			}
			if cfg.Count < 1 {
				return fmt.Errorf("--count %d: want 1 or more runs of each benchmark", cfg.Count)
			}
			if err := cfg.Validate(); err != nil {
				return fmt.Errorf("--%w", err)
			}
			f, err := results.ParseFormat(format)
			if err != nil {
				return fmt.Errorf("--format: %w", err)
			}
			if err := report.CheckDir(out); err != nil {
				return fmt.Errorf("--out: %w", err)
			}
			cfg.Log = e.stderr
			res, runErr := gobench.Run(cmd.Context(), cfg)
			return gobench.Ended(res, runErr, func(points []results.Point) error { return report.WriteBench(e.stdout, e.stderr, out, points, f) }, e.stderr)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&cfg.Bench, "bench", ".", "run the benchmarks matching this regular expression (as go test -bench)")
	fs.StringVar(&cpus, "cpus", fmt.Sprintf("1-%d", runtime.NumCPU()), "CPU counts, as a list and ranges such as 1,2 or 1-4")
	fs.IntVar(&cfg.Count, "count", 1, "run each benchmark this many times per CPU count (as go test -count), for compare's statistics")
	fs.StringVar(&cfg.Benchtime, "benchtime", "", "run each benchmark for this long or this many times, 2s or 1000x (as go test -benchtime; default 1s)")
	fs.StringVar(&format, "format", "table", "what to print: "+strings.Join(results.Formats(), ", "))
	fs.StringVar(&out, "out", defaultReportDir, "folder to write the report to")
	return cmd
}
