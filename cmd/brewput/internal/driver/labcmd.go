package driver

import (
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/modelcli"
	"github.com/brewput/brewput/explain/verdict"
	"github.com/brewput/brewput/internal/base/cliflag"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/lab/all"
	"github.com/brewput/brewput/measure/host"
	"github.com/brewput/brewput/measure/record"
	"github.com/brewput/brewput/report"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/chartspec"
)

func newLabCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "lab [list | NAME [flags]]",
		Short: "Run a lab: other concurrent systems, measured like the shop",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return fmt.Errorf("unknown lab %q; accepted: %s (see brewput lab list)", args[0], lab.Names(e.labs()))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error { return lab.WriteList(e.stdout, e.labs()) },
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "list",
		Short: "List the labs",
		Args:  unknownArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return lab.WriteList(e.stdout, e.labs()) },
	})
	for _, l := range e.labs() {
		cmd.AddCommand(newLabRunCmd(e, l))
	}
	return cmd
}

// newLabRunCmd is brewput lab NAME, with the lab's flags and the common ones.
func newLabRunCmd(e *env, l lab.Lab) *cobra.Command {
	var cpus, formatName, out, profDir, noisy string
	maxMem := host.MemoryBudget()
	info := l.Info()
	var check func() error
	cmd := &cobra.Command{
		Use:     info.Name,
		Short:   shortSummary(info.Summary),
		Long:    info.Help,
		Example: info.Example,
		Args:    unknownArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			counts, err := host.ParseCPUList(cpus, runtime.NumCPU())
			if err != nil {
				return fmt.Errorf("--cpus: %w", err)
			}
			if err := check(); err != nil {
				return err
			}
			retry := modelcli.RetryOf(noisy)
			if s, ok := l.(lab.Sizer); ok {
				if m, flags := s.Memory(); m > maxMem {
					return fmt.Errorf("lab %s would hold about %s of memory (%s), more than the %s allowed; --max-mem is %s (by default half this machine's memory)",
						info.Name, format.Bytes(m), strings.Join(flags, ", "), format.Bytes(maxMem), format.Bytes(maxMem))
				}
			}
			if cmd.Flags().Changed("profile") {
				if err := record.CheckDir(profDir); err != nil {
					return err
				}
			}
			out, err := e.model().CompactOutput(cmd.Flags(), formatName, out, results.Plan{Command: "lab " + info.Name}, func(w io.Writer, points []results.Point) error {
				return report.WriteLabs(w, points, verdict.Labs(points), map[string]chartspec.Figure{info.Name: l.Figure()})
			})
			if err != nil {
				return err
			}
			out.Hold = profDir != ""
			e.notePlatform()
			ctx := lab.WithPoints(cmd.Context(), func(p results.Point) error { return out.Add(&p) })
			ctx = lab.WithRetry(ctx, retry)
			points, runErr := lab.Profiled(ctx, l, counts, profDir, text.LabLines(e.stderr, ""))
			if err := out.Finish(points, runErr == nil); err != nil {
				return failure{Err: err}
			}
			return lab.Ended(runErr, info.Name)
		},
	}
	fs := cmd.Flags()
	check = l.Bind(fs)
	modelcli.RegisterNoisy(fs, &noisy)
	fs.StringVar(&cpus, "cpus", lab.DefaultCPUs(), "CPU counts, such as 1,2 or 1-4\n(GOMAXPROCS)")
	fs.StringVar(&formatName, "format", modelcli.CompactFormat, "compact|table|"+strings.Join(results.Formats()[1:], "|")+
		"\n(the output's format: compact, the lab's answer, on each CPU count what makes the most and the least, and its chart's numbers; table, every point in full, with the lab's metrics; the others with --out, guessed from its extension)")
	fs.StringVar(&out, "out", "", "file to write the results to\n(stdout still gets the answer, or the table --format names)")
	fs.Var((*cliflag.Bytes)(&maxMem), "max-mem", "most memory the lab may hold\n(estimated from its flags before it starts): a size such as 4GB (default half this machine's memory)")
	fs.Lookup("max-mem").DefValue = "" // the machine's, said in the usage
	fs.StringVar(&profDir, "profile", "", "folder for each CPU count's trace and profiles\n(an execution trace and CPU, block and mutex profiles of the lab's run: NAME-Ncpu.trace, …); the answer summarizes where its goroutines waited")
	return cmd
}

// labs lists the labs: lab/all's, or the env's own (a test's).
func (e *env) labs() []lab.Lab {
	if e.labList != nil {
		return e.labList()
	}
	return all.Labs()
}

// shortSummary is a lab's summary on one line of the list of commands:
// whole where it fits, else its first words and "…".
func shortSummary(s string) string {
	const room = 64
	first, rest, cut := strings.Cut(format.Wrap(s, room, ""), "\n")
	if !cut || rest == "" {
		return s
	}
	return strings.TrimRight(first, ",;:") + " …"
}
