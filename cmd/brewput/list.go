//go:build !js

package main

import (
	"github.com/spf13/cobra"

	"github.com/brewput/brewput/coffee"
	"github.com/brewput/brewput/internal/format"
)

func newListCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:     "list",
		Short:   "List every mode of the coffee shop with a one-line description",
		Example: "  brewput list",
		Args:    unknownArgs,
		RunE: func(*cobra.Command, []string) error {
			t := format.Table{Ragged: true}
			for _, f := range coffee.Families() {
				desc := f.Summary
				if f.Param() != "" {
					desc += " (N: " + f.Param() + ")"
				}
				t.Row(f.Pattern(), desc)
			}
			return t.Write(e.stdout)
		},
	}
}
