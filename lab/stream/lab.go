package stream

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/results"
)

// The metrics of this lab's points; see Run.
const (
	MetricBuffer            results.Metric = "buffer"
	MetricMessages          results.Metric = "messages"
	MetricPayloadBytes      results.Metric = "payload_bytes"
	MetricReplied           results.Metric = "replied"
	MetricFailed            results.Metric = "failed"
	MetricLost              results.Metric = "lost"
	MetricFailedTooLarge    results.Metric = "failed_too_large"
	MetricFailedRejected    results.Metric = "failed_rejected"
	MetricFailedBroken      results.Metric = "failed_broken"
	MetricFailedUnavailable results.Metric = "failed_unavailable"
	MetricReconnects        results.Metric = "reconnects"
	MetricRestart           results.Metric = "restart"
	MetricInOrder           results.Metric = "in_order"
	MetricUtil              results.Metric = "util"
	MetricCPUPerMsg         results.Metric = "cpu_us_per_msg"
)

// Lab is the stream lab as brewput runs it (a lab.Lab), with its
// configuration.
type Lab struct{ Config Config }

// NewLab returns the lab at its defaults.
func NewLab() *Lab { return &Lab{Config: DefaultConfig()} }

// Info implements lab.Lab.
func (l *Lab) Info() lab.Info {
	return lab.Info{Name: Name, Summary: Summary, Help: Help, Example: `  brewput lab stream
  brewput lab stream --modes sync,async --buffers 0,100 --cpus 2
  brewput lab stream --restart --malformed 10 --oversized 10 --reps 1`}
}

// Bind implements lab.Lab: a flag for each field of Config.
func (l *Lab) Bind(fs *pflag.FlagSet) func() error {
	c := &l.Config
	fs.StringSliceVar(&c.Modes, "modes", c.Modes, "modes to run: sync, async, iorder")
	fs.IntVar(&c.Messages, "messages", c.Messages, "messages per run, each from its own goroutine (iorder: all from one)")
	fs.IntSliceVar(&c.Buffers, "buffers", c.Buffers, "buffer sizes of the senders' channel to the messenger to sweep, in messages")
	fs.IntVar(&c.PayloadBytes, "payload-bytes", c.PayloadBytes, "bytes in each message's payload")
	fs.IntVar(&c.Malformed, "malformed", c.Malformed, "messages per run whose checksum does not match their payload: the peer rejects them")
	fs.IntVar(&c.Oversized, "oversized", c.Oversized, fmt.Sprintf("messages per run with a payload over %d bytes: the client refuses them", MaxPayloadBytes))
	fs.BoolVar(&c.Restart, "restart", c.Restart, "also run each mode and buffer with the peer stopped mid-run and started again")
	fs.DurationVar(&c.Downtime, "downtime", c.Downtime, "how long the peer stays down in a --restart run")
	fs.IntVar(&c.Reps, "reps", c.Reps, "runs of each point; a point reports the run of median throughput")
	return func() error { return lab.FlagError(c.Validate()) }
}

// Run implements lab.Lab: Run with the lab's configuration.
func (l *Lab) Run(ctx context.Context, cpus []int, progress func(string)) ([]results.Point, error) {
	return Run(ctx, l.Config, cpus, progress)
}

// Figure implements lab.Lab: messages replied per second against the
// messenger's channel buffer, a line per mode, the runs with a peer
// restart dashed.
func (l *Lab) Figure() lab.Figure {
	return lab.Figure{
		Kind:   lab.Lines,
		Title:  "stream: replies per second against the channel's buffer",
		Lesson: "Messages replied to per second over one gRPC stream on 127.0.0.1, against the buffer of the channel the messenger goroutine drains, a line per mode. Waiting for each reply before the next send (sync) leaves the stream idle for a round trip per message; a listener goroutine that receives replies while the messenger sends (async) keeps it busy, and one sender with nothing to hand over (iorder) is faster still. The buffer changes little: the stream, not the handover, is what limits. With the peer stopped and started mid-run (dashed), the client reconnects, and the table's replied, failed and lost columns account for every message.",
		X:      lab.Axis{Label: "messenger's channel buffer (messages)", Of: lab.ByMetric, Metric: MetricBuffer, Scale: lab.Even},
		Y:      lab.Axis{Label: "replies per second", Of: lab.ByThroughput},
		Line: func(p results.Point) (lab.Line, bool) {
			mode, _, _ := strings.Cut(p.Variant, "/")
			if p.Metrics[MetricRestart] == 1 {
				return lab.Line{Name: mode + ", peer restarted", Group: mode, Dashed: true}, true
			}
			return lab.Line{Name: mode, Group: mode}, true
		},
		Empty: "No point to draw.",
	}
}
