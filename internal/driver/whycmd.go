//go:build !js

package driver

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/brewput/brewput/experiment/why"
	"github.com/brewput/brewput/explain/compare"
	"github.com/brewput/brewput/internal/base/exitcode"
	"github.com/brewput/brewput/internal/driver/predict"
	"github.com/brewput/brewput/report/text"
)

func newWhyCmd(e *env) *cobra.Command {
	sf := &studyFlags{}
	mf := &modelFlags{measure: e.calibrateCosts}
	var mode, format string
	bw := &benchWhyFlags{}
	cmd := goTestCommand("why [--mode NAME | PACKAGE -bench REGEXP] [flags] [-- go test flags]",
		"Measure what limits a point or a Go benchmark, on real CPUs",
		func(cmd *cobra.Command, pkgs, goFlags []string) error {
			begun := time.Now()
			fs := cmd.Flags()
			if len(pkgs) > 0 || fs.Changed("bench") {
				switch {
				case mode != "" && len(pkgs) == 0:
					return fmt.Errorf("--mode and -bench: give a mode, or a package and -bench REGEXP, not both")
				case mode != "":
					return fmt.Errorf("--mode %s takes no arguments (got %s): give a mode, or a package and -bench REGEXP instead", mode, strings.Join(pkgs, " "))
				}
				return bw.run(cmd.Context(), e, fs, pkgs, goFlags, sf.count, format)
			} else if len(goFlags) > 0 {
				return fmt.Errorf("go test flags after --: give them with a package and -bench")
			}
			switch {
			case mode == "":
				return fmt.Errorf("give --mode NAME (see brewput list), or a package and -bench REGEXP, to explain")
			case mf.file != "":
				return fmt.Errorf("--model: why measures the shop's modes on real CPUs; for a YAML system, brewput advise --model %s gives its profile in the model", mf.file)
			case sf.count < 2:
				return fmt.Errorf("--count %d: want 2 or more runs of each experiment (6 for a verdict)", sf.count)
			case bw.w.Within < 0:
				return fmt.Errorf("--within %v: want a positive duration such as 3m, or 0 for no limit", bw.w.Within)
			}
			s, err := sf.planOne(cmd.Flags(), runtime.NumCPU(), mode, "why", 2)
			if err != nil {
				return err
			}
			cfg, err := predict.WhyConfig(s, mf.seed)
			if err != nil {
				return err
			}
			pr, err := predict.Resolve(cmd.Context(), mf.options(cmd.Flags()), e.tell)
			if err != nil {
				return err
			}
			causal, err := pr.CausalProfile(cmd.Context(), cfg)
			if cmd.Context().Err() != nil {
				return exitcode.Interruption{Err: fmt.Errorf("interrupted while simulating the causal profile; nothing measured")}
			}
			if err != nil {
				return failure{Err: err}
			}
			study, err := why.Plan(causal, s, runtime.NumCPU())
			if err != nil {
				return failure{Err: err}
			}
			study.Calibration = costsLine(pr)
			runner, err := e.runner()
			if err != nil {
				return err
			}
			// --within counts the model's causal profile in.
			study.Within, study.Since = bw.w.Within, begun
			text.WriteRounds(e.stderr, study.Rounds(sf.count))
			runErr := study.Run(cmd.Context(), sf.count, runner.Run, e.stderr)
			study.Judge(compare.Options{})
			write := func(w io.Writer) error { return text.WriteReliefs(w, study.Reliefs()) }
			if format == "json" {
				write = study.WriteJSON
			}
			if err := write(e.stdout); err != nil {
				return failure{Err: err}
			}
			if stoppedLate(e, format, runErr) {
				return nil
			}
			return exitcode.Measured(runErr, len(study.BasePoints), sf.count)
		})
	sf.registerOne(cmd.Flags(), 500*time.Millisecond, "the CPU count to explain,\none number", "dur", "burn", "count")
	setDefault(cmd.Flags(), "count", "6", "runs of the point and of each relief,\nin rounds; 6 or more for a verdict")
	cmd.Flags().StringVar(&mode, "mode", "", "the mode to explain (see brewput list)")
	mf.register(cmd.Flags())
	cmd.Flags().Lookup("model").Hidden = true // why measures the shop's modes, not YAML systems
	formatVar(cmd.Flags(), &format, "")
	bw.register(cmd.Flags())
	return cmd
}

// costsLine names the costs pr's model rests on; "" under fifo.
func costsLine(pr predict.Prediction) string {
	if pr.Cal == nil {
		return ""
	}
	return text.CostsLine(*pr.Cal)
}
