package actors

import (
	"context"
	"strings"

	"github.com/spf13/pflag"

	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/results"
)

// The metrics of this lab's points; see Run.
const (
	MetricClients    results.Metric = "clients"
	MetricRequests   results.Metric = "requests"
	MetricReplyBytes results.Metric = "reply_bytes"
	MetricMailbox    results.Metric = "mailbox"
	MetricUtil       results.Metric = "util"
	MetricCPUPerID   results.Metric = "cpu_us_per_id"
	MetricSpread     results.Metric = "spread"
	MetricVsSimple   results.Metric = "vs_simple"
	MetricLocalRate  results.Metric = "local_ids_per_s"
	MetricRemoteCost results.Metric = "remote_cost"
)

// Lab is the actors lab as brewput runs it (a lab.Lab), with its
// configuration.
type Lab struct{ Config Config }

// NewLab returns the lab at its defaults.
func NewLab() *Lab { return &Lab{Config: DefaultConfig()} }

// Info implements lab.Lab.
func (l *Lab) Info() lab.Info {
	return lab.Info{Name: Name, Summary: Summary, Help: Help, Example: `  brewput lab actors
  brewput lab actors --variants simple,sequence --clients 1,2,8 --reply-bytes 2048
  brewput lab actors --remote --clients 1,16 --format json --out actors.json`}
}

// Bind implements lab.Lab: a flag for each field of Config.
func (l *Lab) Bind(fs *pflag.FlagSet) func() error {
	c := &l.Config
	fs.StringSliceVar(&c.Variants, "variants", c.Variants, "variants to measure: simple, sequence, actor, locker")
	fs.IntSliceVar(&c.Clients, "clients", c.Clients, "numbers of concurrent clients to sweep")
	fs.IntVar(&c.Requests, "requests", c.Requests, "identities asked for in a run, by all clients together")
	fs.IntVar(&c.RemoteRequests, "remote-requests", c.RemoteRequests, "the same for a run over gRPC (with --remote)")
	fs.IntVar(&c.Mailbox, "mailbox", c.Mailbox, "the actor's mailbox size, in requests (0: unbuffered)")
	fs.IntVar(&c.ReplyBytes, "reply-bytes", c.ReplyBytes, "size of a reply record: the work of building a reply")
	fs.BoolVar(&c.Remote, "remote", c.Remote, "also serve every variant over gRPC on 127.0.0.1 (points remote/<variant>)")
	fs.IntVar(&c.Reps, "reps", c.Reps, "runs of each point; a point reports the median throughput")
	return func() error { return lab.FlagError(c.Validate()) }
}

// Run implements lab.Lab: Run with the lab's configuration.
func (l *Lab) Run(ctx context.Context, cpus []int, progress func(string)) ([]results.Point, error) {
	return Run(ctx, l.Config, cpus, progress)
}

// Figure implements lab.Lab: identities per second against clients, a
// line per variant, the remote ones dashed, on a log scale: over gRPC a
// variant is tens of times slower than in process.
func (l *Lab) Figure() lab.Figure {
	return lab.Figure{
		Kind:   lab.Lines,
		Title:  "actors: identities per second against clients",
		Lesson: "Identities handed out per second against concurrent clients, a line per way of serializing the counter, in process (solid) and over gRPC on 127.0.0.1 (dashed), on a log scale. A mutex around the counter only (sequence) is the one that gains from more clients and CPUs: the reply is built outside the lock. An actor pays a channel handover each way per request and is slowest with few clients. Over gRPC every variant is tens of times slower, and the differences between them mostly disappear under the network path's cost (remote_cost in the table).",
		X:      lab.Axis{Label: "concurrent clients", Of: lab.ByMetric, Metric: MetricClients, Scale: lab.Even},
		Y:      lab.Axis{Label: "identities per second (log scale)", Of: lab.ByThroughput, Scale: lab.Log},
		Line: func(p results.Point) (lab.Line, bool) {
			if v, ok := strings.CutPrefix(p.Variant, RemotePrefix); ok {
				return lab.Line{Name: v + " over gRPC", Group: v, Dashed: true}, true
			}
			return lab.Line{Name: p.Variant + " in process", Group: p.Variant}, true
		},
		Empty: "No point to draw.",
	}
}
