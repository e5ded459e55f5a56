package driver

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/brewput/brewput/cmd/brewput/internal/driver/mainjob"
	"github.com/brewput/brewput/cmd/brewput/internal/driver/playground"
	"github.com/brewput/brewput/cmd/brewput/internal/driver/predict"
	"github.com/brewput/brewput/internal/base/atomicfile"
	"github.com/brewput/brewput/internal/base/exitcode"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/report/text"
)

func newPlaygroundCmd(e *env) *cobra.Command {
	var out, addr, calibration string
	var serve bool
	cmd := &cobra.Command{
		Use:   "playground",
		Short: "Write the playground (brewput model in a browser) and serve it",
		Args:  unknownArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			flags := cmd.Flags()
			if flags.Changed("addr") && !serve {
				return fmt.Errorf("--addr: applies with --serve")
			}
			if err := atomicfile.CheckDir(out, "the playground"); err != nil {
				return fmt.Errorf("--out: %w", err)
			}
			if err := e.hold(out); err != nil {
				return err
			}
			src, err := playground.SourceDir(cmd.Context())
			if err != nil {
				return err
			}
			cal, path, err := predict.Load(cmd.Context(), calibration, e.calibrateCosts, e.tell)
			if err != nil {
				return err
			}
			// The page gets the calibration used, which is not the file's
			// where measured for this run or set aside.
			calJSON, err := json.Marshal(cal)
			if path != "" && cal.SetAside == nil {
				calJSON, err = os.ReadFile(path)
			}
			if err != nil {
				return fmt.Errorf("--calibration: %w", err)
			}
			e.tell(text.BuildingEngine(playground.Engine))
			site, err := playground.Build(cmd.Context(), out, playground.Options{Source: src, Calibration: calJSON, CalibrationName: text.CalibrationFor(cal.Ref())})
			if err != nil {
				return failure{Err: err}
			}
			abs, _ := filepath.Abs(filepath.Join(site.Dir, "index.html"))
			format.Lines(e.stdout, "")(text.PlaygroundWritten(abs, site.Download, site.Engine, site.Compressed))
			if !serve {
				return nil
			}
			err = playground.Serve(cmd.Context(), site.Dir, addr, func(url string) {
				fmt.Fprintln(e.stdout, text.Serving(url))
			})
			if err == nil && cmd.Context().Err() != nil {
				return exitcode.Interruption{Err: fmt.Errorf("interrupted; stopped serving, the site stays in %s", site.Dir)}
			}
			return err
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&out, "out", mainjob.PlaygroundDir, "folder for the site\n(beside the report's folder, the report's page links to it)")
	fs.BoolVar(&serve, "serve", false, "also serve the site on --addr until interrupted")
	fs.StringVar(&addr, "addr", "localhost:8080", "the address to serve on\n(with --serve; port 0 picks a free one)")
	fs.StringVar(&calibration, "calibration", "", "file of the go policy's costs the page uses\n(from brewput calibrate; default: the user's config folder; measured if missing, and saved there if the machine was quiet)")
	return cmd
}

// registerPlayground adds --playground, where the report's page links to.
func registerPlayground(fs *pflag.FlagSet, to *string) {
	fs.StringVar(to, "playground", "", "the playground the page's \"try it\" links open\n(its index.html, relative to the report's page or absolute; default: ../"+mainjob.PlaygroundDir+"/index.html where brewput playground wrote one beside the report's folder, none otherwise)")
}
