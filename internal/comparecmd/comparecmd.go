// Package comparecmd is the compare command that brewput and a study
// program both offer: one definition, so that its flags, help and errors
// are the same in both.
package comparecmd

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/brewput/brewput/explain/compare"
	"github.com/brewput/brewput/results"
)

// New returns the command "compare OLD NEW": it reads the two results
// files with read and writes to stdout, point by point, how NEW differs
// from OLD, with a statistical verdict (compare.Files), in the format
// --format asks, at the significance level --alpha.
func New(stdout io.Writer, read func(path string) ([]results.Point, error)) *cobra.Command {
	var format string
	var opts compare.Options
	cmd := &cobra.Command{
		Use:   "compare OLD NEW",
		Short: "Tell, point by point, how two results files differ, with a statistical verdict",
		Args:  func(_ *cobra.Command, args []string) error { return compare.TwoFiles(args) },
		RunE: func(cmd *cobra.Command, args []string) error {
			return compare.Files(stdout, args[0], args[1], opts, format, read)
		},
	}
	cmd.Flags().Float64Var(&opts.Alpha, "alpha", 0.05, "significance level: a difference counts when p < alpha")
	cmd.Flags().StringVar(&format, "format", "table", "output format: table or json")
	return cmd
}
