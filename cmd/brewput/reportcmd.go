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
		Use:     "report FILE...",
		Short:   "Render the report from saved results files, without measuring",
		Long:    help("report"),
		Example: help("report.example"),
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
