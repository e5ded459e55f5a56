//go:build !js

package main

import (
	"github.com/spf13/cobra"

	"github.com/brewput/brewput/internal/cliflag"
	"github.com/brewput/brewput/internal/mainjob"
	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/report"
)

func newReportCmd(e *env) *cobra.Command {
	var out, playground string
	var full func() (bool, error)
	cmd := &cobra.Command{
		Use:   "report FILE...",
		Short: "Render the report from saved results files, without measuring",
		Args:  cliflag.NeedFiles("report", "brewput-report/results.json"),
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
			if err := e.claimReportDir(out, ""); err != nil {
				return err
			}
			return failed(mainjob.Rerender(e.stdout, e.stderr, out, in, lab.Figures(e.labs()), fullTable, playground, e.analyzer()))
		},
	}
	cmd.Flags().StringVar(&out, "out", defaultReportDir, "folder to write the report to")
	full = cliflag.Table(cmd.Flags(), compactTable)
	registerPlayground(cmd.Flags(), &playground)
	return cmd
}
