//go:build !js

package main

import (
	"github.com/spf13/cobra"

	"github.com/brewput/brewput/internal/comparecmd"
	"github.com/brewput/brewput/results"
)

// newCompareCmd is the shared compare command, reading results files as
// every brewput command does: their notes go to stderr.
func newCompareCmd(e *env) *cobra.Command {
	return comparecmd.New(e.stdout, func(path string) ([]results.Point, error) { return e.openResults(path) })
}
