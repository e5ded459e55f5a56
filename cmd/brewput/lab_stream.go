package main

import (
	"context"
	"fmt"

	"github.com/brewput/brewput/lab/stream"
	"github.com/brewput/brewput/results"
	"github.com/spf13/pflag"
)

// streamLab is brewput lab stream: its flags map onto stream.Config.
func streamLab() labEntry {
	return labEntry{
		name: stream.Name, summary: stream.Summary, help: stream.Help,
		example: `  brewput lab stream
  brewput lab stream --modes sync,async --buffers 0,100 --cpus 2
  brewput lab stream --restart --malformed 10 --oversized 10 --reps 1`,
		register: func(fs *pflag.FlagSet) func() (labRun, error) {
			c := stream.DefaultConfig()
			fs.StringSliceVar(&c.Modes, "modes", c.Modes, "modes to run: sync, async, iorder")
			fs.IntVar(&c.Messages, "messages", c.Messages, "messages per run, each from its own goroutine (iorder: all from one)")
			fs.IntSliceVar(&c.Buffers, "buffers", c.Buffers, "buffer sizes of the senders' channel to the messenger to sweep, in messages")
			fs.IntVar(&c.PayloadBytes, "payload-bytes", c.PayloadBytes, "bytes in each message's payload")
			fs.IntVar(&c.Malformed, "malformed", c.Malformed, "messages per run whose checksum does not match their payload: the peer rejects them")
			fs.IntVar(&c.Oversized, "oversized", c.Oversized, fmt.Sprintf("messages per run with a payload over %d bytes: the client refuses them", stream.MaxPayloadBytes))
			fs.BoolVar(&c.Restart, "restart", c.Restart, "also run each mode and buffer with the peer stopped mid-run and started again")
			fs.DurationVar(&c.Downtime, "downtime", c.Downtime, "how long the peer stays down in a --restart run")
			fs.IntVar(&c.Reps, "reps", c.Reps, "runs of each point; a point reports the run of median throughput")
			return func() (labRun, error) {
				if err := c.Validate(); err != nil {
					return nil, fmt.Errorf("--%w", err)
				}
				return func(ctx context.Context, cpus []int, progress func(string)) ([]results.Point, error) {
					return stream.Run(ctx, c, cpus, progress)
				}, nil
			}
		},
	}
}
