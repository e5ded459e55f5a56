package main

import (
	"fmt"

	"github.com/brewput/brewput/causal"
	"github.com/brewput/brewput/internal/cliflag"
	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/mainjob"
	"github.com/brewput/brewput/report"
	"github.com/brewput/brewput/results"
	"github.com/spf13/cobra"
)

func newReportCmd(e *env) *cobra.Command {
	var out string
	var full func() (bool, error)
	cmd := &cobra.Command{
		Use:   "report FILE...",
		Short: "Render the report from saved results files, without measuring",
		Long: `report reads results files (JSON Lines from --format json, or CSV from
--format csv; the main job's results.json is one; or Go benchmark output,
from --format bench or any go test -bench, the CPU count from the name's -N
suffix) and writes the same report the main job does: index.html, the charts
as SVG and PNG, and the merged points as results.json and results.csv. A
lessons file (brewput lessons --format json, or a report's lessons.json) adds
the section "What the seeds claim, and what this machine shows".

Give it any number of files — other runs, other machines, brewput model's
predictions — and their points are drawn together: measurements from
different machines are labelled with their host in the legend and the table,
and model predictions are dashed lines in their mode's colour. Rendering the
same points again gives byte-identical files.

It prints the verdict and the compact table the main job prints. The page
opens with the verdict, the map of what limits what and the schedule
pictures (the model's, fifo policy; beside them the real schedule, from
the execution trace of a point measured with --profile where the trace is
at hand). Each mode's section says what limits it at every point and, for
the shop's modes, what the model (fifo policy: idealized CPUs, no
calibration needed) predicts would help at the largest CPU count, as
brewput advise does.

A journal that a run cut short left (a killed brewput run --out FILE, a
main job's results.json) renders too: the page says how far the run got
("stopped after 14 of 18 points"), and the results.json written keeps the
run's plan, so that --resume still finishes it. The reader is lenient
about what newer versions write (unknown fields, a byte-order mark), and
says so; a number that is null or missing is an error naming its line.`,
		Example: `  brewput report brewput-report/results.json --out again
  brewput report laptop.json server.json --out both
  brewput report measured.json predicted.json --out overlay
  go test -bench . -cpu 1,2,4 -count 6 > old.txt && brewput report old.txt --out old`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return fmt.Errorf("report needs at least one results file, such as brewput-report/results.json")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, files []string) error {
			fullTable, err := full()
			if err != nil {
				return err
			}
			in, err := report.ReadFiles(files)
			if err != nil {
				return err
			}
			e.tellNotes(in.Notes)
			points, plan := in.Points, in.Plan
			if out == "" {
				return fmt.Errorf("--out: want a folder for the report, such as %s", defaultReportDir)
			}
			if err := report.CheckDir(out); err != nil {
				return fmt.Errorf("--out: %w", err)
			}
			opt := mainjob.PageOptions(points, lab.Figures(e.labs()), e.stderr)
			opt.Lessons, opt.Plan = in.Lessons, plan
			if plan != nil {
				fmt.Fprintln(e.stderr, results.CutShort(*plan, points))
			}
			if err := mainjob.Publish(e.stdout, e.stderr, out, points, causal.Fifo(), opt, fullTable); err != nil {
				return failure{Err: err}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", defaultReportDir, "folder to write the report to")
	full = cliflag.Table(cmd.Flags(), compactTable)
	return cmd
}
