package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func newRoot(e *env) *cobra.Command {
	sf := &studyFlags{}
	root := &cobra.Command{
		Use:   "brewput",
		Short: "Measure how the structure of concurrent Go code shapes its throughput and latency",
		Long: `brewput measures real Go implementations of a coffee shop — one lock for the
whole kitchen, a lock per machine, replicas of each machine, pipelines of
goroutines with buffered or unbuffered channels — on real CPUs, and shows
how each structure shapes throughput ("brewput", lattes per second),
latency, contention and CPU utilization as CPUs are added.

With no command it runs a short default sweep of the talk's main modes over
1..all CPUs and prints the table.`,
		Example: `  brewput
  brewput run --modes ideal,locking,finelocking --cpus 1,2 --dur 2s
  brewput list`,
		Args:          cobra.NoArgs,
		SilenceErrors: true,
		SilenceUsage:  true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runStudy(cmd, e, sf)
		},
	}
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)
	sf.register(root.Flags(), quickDefaults())
	root.AddCommand(newRunCmd(e), newListCmd(e), newPointCmd(e))
	root.CompletionOptions.DisableDefaultCmd = true
	return root
}

// unknownArgs turns stray arguments into a usage error naming them.
func unknownArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("%s takes no arguments, got %q; see %s --help", cmd.CommandPath(), args[0], cmd.CommandPath())
	}
	return nil
}
