package study

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/brewput/brewput/internal/base/exitcode"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/results"
)

// Main serves brewput for s and exits; call it from main. brewput study
// PKG runs the program with describe (Description as JSON on stdout) or
// point (measure the Request on stdin, write the point on stdout). Run by
// itself, it says how to run it with brewput and exits 2.
func Main(s Study) {
	os.Exit(serve(context.Background(), s, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Description is what the describe command tells brewput of a study.
type Description struct {
	Name     string        `json:"name"`
	Summary  string        `json:"summary,omitempty"`
	Unit     string        `json:"unit"` // the throughput's, "ops/s"
	Variants []VariantInfo `json:"variants"`
}

// VariantInfo describes a variant; its meters exist only once Setup ran,
// in the child, whose machines name them.
type VariantInfo struct {
	Name    string `json:"name"`
	Summary string `json:"summary,omitempty"`
}

// Request is the point brewput asks the point command to measure: Variant
// under Load, its meters stretched as Stretch says (why's experiments).
type Request struct {
	Variant string     `json:"variant"`
	Load    sweep.Load `json:"load"`
	Stretch *Stretch   `json:"stretch,omitempty"`
}

// Describe is s's Description.
func (s Study) Describe() Description {
	d := Description{Name: s.Name, Summary: s.Summary, Unit: s.unit()}
	for _, v := range s.Variants {
		d.Variants = append(d.Variants, VariantInfo{Name: v.Name, Summary: v.Summary})
	}
	return d
}

// serve is Main with its arguments and streams, returning the exit
// status: 1 where measuring failed, 2 for an invalid study or arguments.
func serve(ctx context.Context, s Study, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if err := s.Validate(); err != nil {
		fmt.Fprintln(stderr, err)
		return exitcode.Usage
	}
	var err error
	switch strings.Join(args, " ") {
	case "describe":
		err = json.NewEncoder(stdout).Encode(s.Describe())
	case "point": // the child's side of a sweep, as the shop's
		err = sweep.ServeChild(ctx, stdin, stdout, func(ctx context.Context, r Request) (results.Point, error) {
			return s.measure(ctx, r.Variant, r.Load, r.Stretch)
		})
	default:
		pkg := "PKG"
		if bi, ok := debug.ReadBuildInfo(); ok && bi.Path != "" {
			pkg = bi.Path
		}
		fmt.Fprintf(stderr, "%s: %v\n", s.Name, fmt.Errorf("a study for brewput to measure: brewput study %s [command] [flags] (see brewput study --help)", pkg))
		return exitcode.Usage
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", s.Name, err)
		return exitcode.Fail
	}
	return exitcode.OK
}
