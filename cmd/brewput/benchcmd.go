package main

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/brewput/brewput/internal/gobench"
	"github.com/brewput/brewput/internal/host"
	"github.com/brewput/brewput/report"
	"github.com/brewput/brewput/results"
)

func newBenchCmd(e *env) *cobra.Command {
	var cfg gobench.Config
	var cpus, format, out string
	cmd := &cobra.Command{
		Use:   "bench [packages] [-- go test flags]",
		Short: "Run Go benchmarks on 1, 2, … CPUs, each pinned, and report how they scale",
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
