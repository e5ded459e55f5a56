package driver

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/modelcli"
	"github.com/brewput/brewput/explain/schedule"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/report"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results/analysis"
)

func newScheduleCmd(e *env) *cobra.Command {
	c := &modelcli.ScheduleCommand{}
	cmd := &cobra.Command{
		Use:   "schedule [TRACE]",
		Short: "Draw which step ran on which CPU over 20 ms, modelled or traced",
		RunE: func(cmd *cobra.Command, args []string) error {
			fs := cmd.Flags()
			s, useModel, useTrace, err := c.Plan(fs, args)
			if err != nil {
				return err
			}
			if useTrace {
				if err := schedule.CheckTrace(args[0]); err != nil {
					return err
				}
			}
			pictures := c.Format == "text" || fs.Changed("out")
			if pictures {
				if err := report.CheckDir(c.Out); err != nil {
					return fmt.Errorf("--out: %w", err)
				}
			}
			var ts []analysis.Timeline
			if useModel {
				t, err := c.ModelTimeline(cmd.Context(), fs, s, e.model())
				if err != nil {
					return err
				}
				ts = append(ts, t)
			}
			if useTrace {
				t, err := schedule.ReadTrace(args[0], s.Mode.String(), s.CPUs, c.Span)
				if err != nil {
					return failure{Err: err}
				}
				ts = append(ts, t)
			}
			if c.Format == "json" {
				if err := text.WriteTimelinesJSON(e.stdout, ts); err != nil {
					return err
				}
			} else if err := text.WriteTimelineTexts(e.stdout, ts, format.Width(e.stdout)); err != nil {
				return err
			}
			if !pictures {
				return nil
			}
			paths, err := report.WriteSchedules(c.Out, ts)
			if err != nil {
				return failure{Err: err}
			}
			where := e.stdout
			if c.Format == "json" {
				where = e.stderr // stdout is one JSON document
			}
			fmt.Fprintln(where)
			format.Lines(where, "schedule: ")(text.ScheduleWritten(paths))
			return nil
		},
	}
	c.Register(cmd.Flags())
	return cmd
}
