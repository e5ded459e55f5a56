package main

import (
	"context"
	"fmt"

	"github.com/brewput/brewput/lab/actors"
	"github.com/brewput/brewput/results"
	"github.com/spf13/pflag"
)

// actorsLab is brewput lab actors: its flags map onto actors.Config.
func actorsLab() labEntry {
	return labEntry{
		name: actors.Name, summary: actors.Summary, help: actors.Help,
		example: `  brewput lab actors
  brewput lab actors --variants simple,sequence --clients 1,2,8 --reply-bytes 2048
  brewput lab actors --remote --clients 1,16 --format json --out actors.json`,
		register: func(fs *pflag.FlagSet) func() (labRun, error) {
			c := actors.DefaultConfig()
			fs.StringSliceVar(&c.Variants, "variants", c.Variants, "variants to measure: simple, sequence, actor, locker")
			fs.IntSliceVar(&c.Clients, "clients", c.Clients, "numbers of concurrent clients to sweep")
			fs.IntVar(&c.Requests, "requests", c.Requests, "identities asked for in a run, by all clients together")
			fs.IntVar(&c.RemoteRequests, "remote-requests", c.RemoteRequests, "the same for a run over gRPC (with --remote)")
			fs.IntVar(&c.Mailbox, "mailbox", c.Mailbox, "the actor's mailbox size, in requests (0: unbuffered)")
			fs.IntVar(&c.ReplyBytes, "reply-bytes", c.ReplyBytes, "size of a reply record: the work of building a reply")
			fs.BoolVar(&c.Remote, "remote", c.Remote, "also serve every variant over gRPC on 127.0.0.1 (points remote/<variant>)")
			fs.IntVar(&c.Reps, "reps", c.Reps, "runs of each point; a point reports the median throughput")
			return func() (labRun, error) {
				if err := c.Validate(); err != nil {
					return nil, fmt.Errorf("--%w", err)
				}
				return func(ctx context.Context, cpus []int, progress func(string)) ([]results.Point, error) {
					return actors.Run(ctx, c, cpus, progress)
				}, nil
			}
		},
	}
}
