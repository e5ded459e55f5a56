package driver

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/modelcli"
	"github.com/brewput/brewput/cmd/brewput/internal/driver/predict"
	"github.com/brewput/brewput/coffee/shopsweep"
	"github.com/brewput/brewput/internal/base/exitcode"
	"github.com/brewput/brewput/measure/host"
	"github.com/brewput/brewput/model/blueprint"
	"github.com/brewput/brewput/report/text"
)

func newAdviseCmd(e *env) *cobra.Command {
	sf := &modelcli.StudyFlags{}
	mf := &modelcli.ModelFlags{Options: predict.Options{Measure: e.calibrateCosts}}
	var mode, format string
	cmd := &cobra.Command{
		Use:   "advise",
		Short: "Find what limits a mode and what would help, in the model",
		Args:  unknownArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fs := cmd.Flags()
			switch {
			case mode != "" && mf.File != "":
				return fmt.Errorf("--mode and --model: give one or the other, not both")
			case mode == "" && mf.File == "":
				return fmt.Errorf("give --mode NAME (see brewput list) or --model FILE to advise on")
			}
			sf.Simulated = true
			s, err := sf.PlanOne(fs, host.ModelMaxCPUs, mode, "advise", 6)
			if err != nil {
				return err
			}
			mf.MaxCPUs = s.CPUs
			var bp *blueprint.Blueprint
			if mf.File != "" {
				if bp, err = modelcli.LoadBlueprint(fs, mf.File); err != nil {
					return err
				}
			}
			specs := []shopsweep.Spec{s}
			if err := modelcli.FitWindow(fs, specs, bp, e.tell, func() error { return predict.CheckAdvice(mf.PredictOptions(fs), specs[0], bp) }); err != nil {
				return err
			}
			modelcli.TellUnused(e.tell, bp)
			s = specs[0]
			pr, err := predict.Resolve(cmd.Context(), mf.PredictOptions(cmd.Flags()), e.tell)
			if err != nil {
				return err
			}
			a, err := pr.Advise(cmd.Context(), s, bp)
			if cmd.Context().Err() != nil {
				return exitcode.Interruption{Err: fmt.Errorf("interrupted while simulating; no advice yet")}
			}
			if err != nil {
				return failure{Err: err}
			}
			if format == "json" {
				return text.WriteAdviceJSON(e.stdout, a)
			}
			return text.WriteAdvice(e.stdout, a, pr.Cal)
		},
	}
	// The study's flags that make sense for one system, and the model's.
	sf.RegisterOne(cmd.Flags(), time.Second, "the CPU count to advise at,\none number", "dur")
	cmd.Flags().StringVar(&mode, "mode", "", "the mode to advise on (see brewput list)")
	mf.Register(cmd.Flags())
	mf.RegisterOthers(cmd.Flags())
	formatVar(cmd.Flags(), &format, "")
	return cmd
}
