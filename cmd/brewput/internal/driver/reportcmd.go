package driver

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/mainjob"
	"github.com/brewput/brewput/cmd/brewput/internal/driver/modelcli"
	"github.com/brewput/brewput/explain/compare"
	"github.com/brewput/brewput/explain/scaling"
	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/report"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

func newReportCmd(e *env) *cobra.Command {
	var out, playground, table string
	cmd := &cobra.Command{
		Use:   "report FILE...",
		Short: "Render the report from saved results files, without measuring",
		Args:  needFiles("report", "brewput-report/results.json"),
		RunE: func(cmd *cobra.Command, files []string) error {
			return rendering(cmd.Context(), func() error {
				in, err := report.ReadFiles(files)
				if err != nil {
					return err
				}
				e.tellNotes(in.Notes)
				if err := e.claimReportDir(out, ""); err != nil {
					return err
				}
				return failed(mainjob.Rerender(e.stdout, e.stderr, out, in, lab.Figures(e.labs()), table == "table", playground, e.analyzer()))
			})
		},
	}
	cmd.Flags().StringVar(&out, "out", defaultReportDir, "folder to write the report to")
	tableVar(cmd.Flags(), &table, compactTable)
	registerPlayground(cmd.Flags(), &playground)
	return cmd
}

// openResults reads results files and tells the readers' notes.
func (e *env) openResults(paths ...string) ([]results.Point, error) {
	f, err := results.OpenAll(paths...)
	if err != nil {
		return nil, err
	}
	e.tellNotes(f.Notes)
	return f.Points, nil
}

// tellNotes writes what the readers accepted or left out, a line each.
func (e *env) tellNotes(notes []error) {
	for _, n := range notes {
		fmt.Fprintf(e.stderr, "note: %s\n", n)
	}
}

func newCompareCmd(e *env) *cobra.Command {
	var format string
	var opts compare.Options
	cmd := &cobra.Command{
		Use:   "compare OLD NEW",
		Short: "Tell how two results files differ, with a statistical verdict",
		Args:  func(_ *cobra.Command, args []string) error { return compare.TwoFiles(args) },
		RunE: func(cmd *cobra.Command, args []string) error {
			read := func(path string) ([]results.Point, error) { return e.openResults(path) }
			return rendering(cmd.Context(), func() error {
				c, err := compare.Files(args[0], args[1], opts, format, read)
				if err != nil {
					return err
				}
				return text.WriteCompared(e.stdout, c, format)
			})
		},
	}
	cmd.Flags().Float64Var(&opts.Alpha, "alpha", 0.05, "significance level:\na change counts when p < alpha and its interval excludes zero")
	cmd.Flags().StringVar(&format, "format", "table", "output format: table or json")
	cmd.Flags().BoolVar(&opts.All, "all", false, "print every configuration's row,\nalso those with too few runs for a verdict (the answer sums them up)")
	return cmd
}

func newFitCmd(e *env) *cobra.Command {
	var by, format string
	cmd := &cobra.Command{
		Use:   "fit FILE...",
		Short: "Fit a scalability law (linear, Amdahl's, USL) to each mode",
		Args:  needFiles("fit", "brewput-report/results.json"),
		RunE: func(cmd *cobra.Command, files []string) error {
			return rendering(cmd.Context(), func() error {
				points, err := e.openResults(files...)
				if err != nil {
					return err
				}
				fits, err := scaling.FitAll(points, by)
				if err != nil {
					return err
				}
				return failed(text.WriteFits(e.stdout, fits, by, format))
			})
		},
	}
	modelcli.ChoiceVar(cmd.Flags(), &by, "by", scaling.ByCPUs, "fit throughput against cpus or par\n(customers)",
		scaling.ByCPUs+" (throughput against CPUs) or "+scaling.ByPar+" (against customers)", scaling.ByCPUs, scaling.ByPar)
	formatVar(cmd.Flags(), &format, " (JSON Lines)")
	return cmd
}

// needFiles wants at least one results file, such as example.
func needFiles(what, example string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) == 0 {
			return fmt.Errorf("%s needs at least one results file, such as %s", what, example)
		}
		return nil
	}
}
