//go:build !js

package main

import (
	"github.com/spf13/cobra"

	"github.com/brewput/brewput/measure/sweep"
)

// newPointCmd is the child side of a sweep (sweep.ServeChild), hidden:
// brewput calls it, not people.
func newPointCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:    "point",
		Short:  "Measure one point given as JSON on stdin (used by brewput itself)",
		Hidden: true,
		Args:   unknownArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return failed(sweep.ServeChild(cmd.Context(), e.stdin, e.stdout))
		},
	}
}
