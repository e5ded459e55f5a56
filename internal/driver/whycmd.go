//go:build !js

package driver

import (
	"fmt"
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
			case format != "table" && format != "json":
				return fmt.Errorf("--format %q: want table or json", format)
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
				return interrupted{Err: fmt.Errorf("interrupted while simulating the causal profile; nothing measured")}
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
			// --within is the whole command's time, the model's causal profile
			// included.
			study.Within, study.Since = bw.w.Within, begun
			runErr := study.Run(cmd.Context(), sf.count, runner.Run, e.stderr)
			study.Judge(compare.Options{})
			if err := study.Write(e.stdout, format); err != nil {
				return failure{Err: err}
			}
			if stoppedLate(e, format, runErr) {
				// The verdict above says what the rounds measured showed.
				return nil
			}
			return exitcode.Measured(runErr, len(study.BasePoints), sf.count)
		})
	sf.registerOne(cmd.Flags(), 500*time.Millisecond, "the CPU count to explain,\none number", "dur", "burn", "count")
	setDefault(cmd.Flags(), "count", "6", "runs of the point and of each relief,\nin rounds; 6 or more for a verdict")
	cmd.Flags().StringVar(&mode, "mode", "", "the mode to explain (see brewput list)")
	mf.register(cmd.Flags())
	cmd.Flags().Lookup("model").Hidden = true // why measures the shop's modes, not YAML systems
	cmd.Flags().StringVar(&format, "format", "table", "output format: table or json")
	bw.register(cmd.Flags())
	return cmd
}

// costsLine names the runtime costs pr's model rests on, in a line; ""
// under fifo, which needs none.
func costsLine(pr predict.Prediction) string {
	if pr.Cal == nil {
		return ""
	}
	return text.CostsLine(*pr.Cal)
}
