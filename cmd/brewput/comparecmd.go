//go:build !js

package main

import (
	"github.com/spf13/cobra"

	"github.com/brewput/brewput/explain/compare"
	"github.com/brewput/brewput/results"
)

// newCompareCmd is "compare OLD NEW": how NEW differs from OLD, point by
// point, with a statistical verdict (compare.Files).
func newCompareCmd(e *env) *cobra.Command {
	var format string
	var opts compare.Options
	cmd := &cobra.Command{
		Use:   "compare OLD NEW",
		Short: "Tell, point by point, how two results files differ, with a statistical verdict",
		Args:  func(_ *cobra.Command, args []string) error { return compare.TwoFiles(args) },
		RunE: func(cmd *cobra.Command, args []string) error {
			read := func(path string) ([]results.Point, error) { return e.openResults(path) }
			return compare.Files(e.stdout, args[0], args[1], opts, format, read)
		},
	}
	cmd.Flags().Float64Var(&opts.Alpha, "alpha", 0.05, "significance level: a difference counts when p < alpha")
	cmd.Flags().StringVar(&format, "format", "table", "output format: table or json")
	return cmd
}
