package driver

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/modelcli"
	"github.com/brewput/brewput/cmd/brewput/internal/driver/outfile"
	"github.com/brewput/brewput/coffee/shopsweep"
	"github.com/brewput/brewput/results"
)

func newRunCmd(e *env) *cobra.Command {
	sf := &modelcli.StudyFlags{}
	var format, outFile, resume string
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Measure modes of the coffee shop over CPU counts; print or save",
		Args:  unknownArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var st *shopsweep.Batch
			var have []results.Point
			var out *outfile.Sink
			var err error
			if resume != "" {
				st, have, out, err = e.resumeRun(cmd.Flags(), resume, "run")
			} else {
				if st, err = planMeasured(sf, cmd.Flags()); err != nil {
					return err
				}
				out, err = e.model().Output(cmd.Flags().Changed, format, outFile, st.Plan("run"))
			}
			if err != nil {
				return err
			}
			out.AnnotateEach, out.Resume = true, "brewput run"
			points, runErr := e.measure(cmd.Context(), st, have, out.Add)
			return finish(out, append(have, points...), runErr, st.Total())
		},
	}
	sf.Register(cmd.Flags(), time.Second, 200*time.Millisecond)
	modelcli.RegisterOutput(cmd.Flags(), &format, &outFile, "measured")
	cmd.Flags().StringVar(&resume, "resume", "", "finish the cut-short run of this file\n(its --out, or the journal beside a CSV or bench file), measuring only the points it lacks")
	return cmd
}

// resumeRun reads the journal a run of command cut short left at path:
// its study, its points and where its results go.
func (e *env) resumeRun(fs *pflag.FlagSet, path, command string) (*shopsweep.Batch, []results.Point, *outfile.Sink, error) {
	if err := refuseGiven(fs, path); err != nil {
		return nil, nil, nil, err
	}
	o, f, err := outfile.Resume(path)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("--resume: %w", err)
	}
	st, err := shopsweep.BatchOf(f.Plan, command)
	if err == nil {
		err = e.hold(o.Path)
	}
	if err != nil {
		o.Close()
		return nil, nil, nil, fmt.Errorf("--resume %s: %w", path, err)
	}
	return st, f.Points, e.model().Sink(o.Format, o), nil
}

// refuseGiven refuses, with --resume path, every flag given but keep.
func refuseGiven(fs *pflag.FlagSet, path string, keep ...string) error {
	var given []string
	fs.Visit(func(f *pflag.Flag) {
		if f.Name != "resume" && !slices.Contains(keep, f.Name) {
			given = append(given, "--"+f.Name)
		}
	})
	if len(given) > 0 {
		return fmt.Errorf("--resume %s: the journal says what to measure and where; drop %s", path, strings.Join(given, ", "))
	}
	return nil
}
