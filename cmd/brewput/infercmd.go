//go:build !js

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/brewput/brewput/internal/base/exitcode"
	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/internal/measure/host"
	"github.com/brewput/brewput/model/calibrate"
	"github.com/brewput/brewput/model/infer"
)

// inferRequest is what brewput calibrate --from asks: the files, the CPU
// counts to infer from (all where empty), the base calibration ("" for this machine's), and where to save.
type inferRequest struct {
	From      []string
	CPUs      []int
	Base, Out string
}

// inferredOut is where an inference from the files from is saved unless
// told otherwise: beside this machine's calibration, named after the first
// file (inferred-varycpu.json), so that it never replaces this machine's.
func inferredOut(from []string) (string, error) {
	path, err := calibrate.DefaultPath()
	if err != nil {
		return "", err
	}
	name := strings.TrimSuffix(filepath.Base(from[0]), filepath.Ext(from[0]))
	return filepath.Join(filepath.Dir(path), "inferred-"+name+".json"), nil
}

// check reads the request's files and selects their points, and checks
// that the base calibration can be read.
func (r inferRequest) check() (infer.Points, error) {
	ps, err := infer.Read(r.From...)
	if err != nil {
		return ps, fmt.Errorf("--from: %w", err)
	}
	all := ps.CPUs()
	if len(ps.Points) == 0 {
		why := ""
		if len(ps.Refused) > 0 {
			why = fmt.Sprintf(": %d refused, the first: %s", len(ps.Refused), ps.Refused[0])
		}
		return ps, fmt.Errorf("--from %s: no measured point of the shop's modes to infer from%s", strings.Join(r.From, ","), why)
	}
	if ps.Select(r.CPUs); len(ps.Points) == 0 {
		return ps, fmt.Errorf("--cpus %s: the points are on %s CPUs", format.Ints(r.CPUs, ","), format.Ints(all, ","))
	}
	for _, c := range r.CPUs {
		if !slices.Contains(all, c) {
			return ps, fmt.Errorf("--cpus: no point on %d CPUs; the points are on %s CPUs", c, format.Ints(all, ","))
		}
	}
	if r.Base == "" {
		return ps, nil
	}
	c, err := calibrate.Load(r.Base)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return ps, fmt.Errorf("--base %s: no such file; want a calibration from brewput calibrate", r.Base)
	case err != nil:
		return ps, fmt.Errorf("--base: %w", err)
	case c.Inferred != nil:
		return ps, fmt.Errorf("--base %s: inferred itself; want a calibration measured by brewput calibrate", r.Base)
	}
	return ps, nil
}

// save infers the costs of ps with r's base calibration (this machine's
// measured first if there is none; tell hears how it goes), writes the
// table to w, saves the calibration at r.Out and says how to use it. An
// interrupted search saves nothing.
func (r inferRequest) save(ctx context.Context, ps infer.Points, w io.Writer, tell func(line string)) error {
	var base calibrate.Calibration
	var err error
	if r.Base != "" {
		base, err = calibrate.Load(r.Base)
	} else {
		base, _, err = calibrate.Default(ctx, nil, tell)
	}
	if err != nil {
		return calibrate.Failed(ctx, err)
	}
	if base.Inferred != nil {
		return fmt.Errorf("--base %s: inferred itself; want a calibration measured by brewput calibrate", r.Base)
	}
	// A busy machine's base is set aside, as for a prediction: the costs
	// the points do not constrain keep the base's.
	base = base.Hedged()
	cal, err := infer.Infer(ctx, ps, infer.Options{Base: base, Tell: tell})
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, context.Canceled) {
			return exitcode.Interruption{Err: fmt.Errorf("interrupted while inferring the costs; nothing saved")}
		}
		return exitcode.Failure{Err: err}
	}
	cal.WriteTable(w)
	if err := calibrate.Save(r.Out, cal); err != nil {
		return exitcode.Failure{Err: err}
	}
	fmt.Fprintf(w, "saved: %s (predict with it: brewput model --calibration %s)\n", r.Out, r.Out)
	return nil
}

// inferCosts is brewput calibrate --from: checks first, then inference.
func inferCosts(cmd *cobra.Command, e *env, req inferRequest, out, cpus string) error {
	for _, name := range []string{"samples", "repeats", "wait", "force", "show"} {
		if cmd.Flags().Changed(name) {
			return fmt.Errorf("--%s: applies to measuring; --from infers the costs from measured points instead", name)
		}
	}
	if cmd.Flags().Changed("out") && out == "" {
		return fmt.Errorf("--out \"\": want a file for the inferred calibration, such as talk-calibration.json")
	}
	if cpus != "" {
		counts, err := host.ParseCPUList(cpus, host.ModelMaxCPUs)
		if err != nil {
			return fmt.Errorf("--cpus: %w", err)
		}
		req.CPUs = counts
	}
	ps, err := req.check()
	if err != nil {
		return err
	}
	req.Out = out
	if req.Out == "" {
		if req.Out, err = inferredOut(req.From); err != nil {
			return failure{Err: err}
		}
	}
	if err := checkCalibrationOut(req.Out); err != nil {
		return fmt.Errorf("--out %s: %w", req.Out, err)
	}
	for _, r := range ps.Refused {
		e.tell("refused " + r)
	}
	return req.save(cmd.Context(), ps, e.stdout, e.tell)
}
