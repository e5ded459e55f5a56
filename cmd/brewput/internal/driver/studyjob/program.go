// Package studyjob is brewput study's work on a user's study program
// (package measure/study): build it, measure its variants' points in
// child processes restricted to their CPUs, find what limits a variant by
// experiment (why) and model each from its meters (predict).
package studyjob

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/brewput/brewput/internal/base/atomicfile"
	"github.com/brewput/brewput/internal/base/cliflag"
	"github.com/brewput/brewput/internal/base/collect"
	"github.com/brewput/brewput/internal/base/exitcode"
	kit "github.com/brewput/brewput/measure/study"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// Program is a built study program and the study it describes.
type Program struct {
	Path string
	kit.Description
	Began time.Time // when Build began: a why's --within counts from it
}

// Build builds the main package pkg into a temporary folder, which remove
// removes, and asks the program to describe its study.
func Build(ctx context.Context, pkg string) (p *Program, remove func(), err error) {
	atomicfile.RemoveStale(os.TempDir(), "brewput-study-", "") // left by a run killed outright
	dir, err := os.MkdirTemp("", atomicfile.TempPattern("brewput-study-", ""))
	if err != nil {
		return nil, nil, exitcode.Failure{Err: err}
	}
	remove = func() { os.RemoveAll(dir) }
	name := "study"
	if runtime.GOOS == "windows" {
		name += ".exe" // how exec finds a program there
	}
	p = &Program{Path: filepath.Join(dir, name), Began: time.Now()}
	var out, errOut bytes.Buffer
	build := exec.CommandContext(ctx, "go", "build", "-o", p.Path, pkg)
	build.Stdout, build.Stderr = &errOut, &errOut
	if err := build.Run(); err != nil {
		remove()
		if ctx.Err() != nil {
			return nil, nil, exitcode.Interruption{Err: fmt.Errorf("interrupted while building %s; nothing measured", pkg)}
		}
		return nil, nil, fmt.Errorf("study %s: does not build: %s", pkg, cliflag.PackageHint("", pkg, firstLine(errOut.String(), err)))
	}
	// The description is the last line: the user's code may print first.
	dctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	errOut.Reset()
	describe := exec.CommandContext(dctx, p.Path, "describe")
	describe.Stdout, describe.Stderr = &out, &errOut
	if err = describe.Run(); err == nil {
		lines := bytes.Split(bytes.TrimSpace(out.Bytes()), []byte("\n"))
		err = json.Unmarshal(lines[len(lines)-1], &p.Description)
	}
	if err == nil && (p.Name == "" || len(p.Variants) == 0) {
		err = fmt.Errorf("described no study")
	}
	if err != nil {
		remove()
		return nil, nil, fmt.Errorf("study %s: not a study program (a main package that calls study.Main with a valid Study): %s", pkg, firstLine(errOut.String(), err))
	}
	return p, remove, nil
}

// firstLine is the first line of out that is not a "# package", or err's.
func firstLine(out string, err error) string {
	for line := range strings.Lines(out) {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			return line
		}
	}
	return err.Error()
}

// Names are the study's variants' names.
func (p *Program) Names() []string {
	return collect.Mapped(p.Variants, func(v kit.VariantInfo) string { return v.Name })
}

// ParseVariants reads the flag's list of variants, "" for all.
func (p *Program) ParseVariants(flag, list string) ([]string, error) {
	if list == "" {
		return p.Names(), nil
	}
	var out []string
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if !slices.Contains(p.Names(), name) {
			return nil, fmt.Errorf("--%s: %q: not a variant; accepted: %s", flag, name, strings.Join(p.Names(), ", "))
		}
		out = append(out, name)
	}
	return out, nil
}

// Plan is a checked list of points to measure, Count times over.
type Plan struct {
	Variants []string
	CPUs     []int
	Load     sweep.Load // CPUs set per point
	Count    int
	Profile  string
	Retry    sweep.Retry
}

// Total is how many points the plan measures.
func (p Plan) Total() int { return len(p.Variants) * len(p.CPUs) * p.Count }

// request is a point of a study to measure, as sweep measures a point:
// its JSON is kit.Request's, which the program's point command reads.
type request kit.Request

func (r request) Entry() sweep.Entry              { return sweep.Entry{Name: r.Variant, Load: r.Load} }
func (r request) Duration() time.Duration         { return r.Load.Warmup + r.Load.Dur }
func (r request) Validate() error                 { return r.Load.Validate() }
func (r request) WithProfile(base string) request { r.Load.Profile = base; return r }

// runner measures a request in a child process, the program's point.
func (p *Program) runner() sweep.Runner[request] {
	return sweep.Runner[request]{Path: p.Path, Args: []string{"point"}}
}

// Measure measures the plan's points in child processes, round by round
// as sweep measures the shop's, and returns what it measured, also early.
func (p *Program) Measure(ctx context.Context, pl Plan, log io.Writer, add func(*results.Point) error) ([]results.Point, error) {
	st := &sweep.Batch[request]{Count: pl.Count, Profile: pl.Profile, Retry: pl.Retry}
	for _, v := range pl.Variants {
		for _, n := range pl.CPUs {
			l := pl.Load
			l.CPUs = n
			st.Specs = append(st.Specs, request{Variant: v, Load: l})
		}
	}
	if add == nil {
		add = func(*results.Point) error { return nil }
	}
	return p.runner().MeasureRest(ctx, st, nil, log, text.SweepWords{}, add)
}
