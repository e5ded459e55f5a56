//go:build !js

package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/brewput/brewput/coffee"
)

func newListCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:     "list",
		Short:   "List every mode of the coffee shop with a one-line description",
		Example: "  brewput list",
		Args:    unknownArgs,
		RunE: func(*cobra.Command, []string) error {
			tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
			for _, f := range coffee.Families() {
				desc := f.Summary
				if f.Param() != "" {
					desc += " (N: " + f.Param() + ")"
				}
				fmt.Fprintf(tw, "%s\t%s\n", f.Pattern(), desc)
			}
			return tw.Flush()
		},
	}
}
