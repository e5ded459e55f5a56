// Package actors is the actors lab, after the seed's appendix on actors in
// Go: a service that hands out unique, increasing identities, serialized
// four ways, measured as clients grow, in process and over gRPC.
package actors

import (
	"cmp"
	_ "embed"
	"slices"
	"strings"

	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/chartspec"
)

const Name = "actors"

//go:embed help.txt
var help string

// The metrics of a point.
const (
	MetricClients    results.Metric = "clients"         // concurrent clients, as Par
	MetricRequests   results.Metric = "requests"        // identities asked for in a run
	MetricReplyBytes results.Metric = "reply_bytes"     // the size of a reply record
	MetricMailbox    results.Metric = "mailbox"         // the actor's mailbox, on actor points only
	MetricCPUPerID   results.Metric = "cpu_us_per_id"   // CPU time per identity, client and server
	MetricSpread     results.Metric = "spread"          // the runs' throughputs, lowest to highest, over the median: how far to trust it
	MetricVsSimple   results.Metric = "vs_simple"       // the median, run by run, of its throughput ÷ simple's (same clients and CPUs, both in process or both remote); lab.Lo/Hi from 6 runs
	MetricLocalRate  results.Metric = "local_ids_per_s" // on remote points, the same variant's in-process throughput
	MetricRemoteCost results.Metric = "remote_cost"     // on remote points, local_ids_per_s ÷ Throughput
)

// NewLab returns the lab at its defaults.
func NewLab() *lab.Of[Config] {
	return lab.New(lab.Info{Name: Name, Help: strings.TrimSuffix(help, "\n"),
		Summary: "an identity service behind a mutex, a lock, a mailbox or a locked actor, or over gRPC",
		Example: `  brewput lab actors
  brewput lab actors --variants simple,sequence --clients 1,2,8 \
    --reply-bytes 2048

  brewput lab actors --remote --clients 1,16 --format json --out actors.json`,
	}, DefaultConfig(), Run, chartspec.Figure{
		Kind:   chartspec.Lines,
		Title:  "actors: identities per second against clients",
		Lesson: "Identities handed out per second against concurrent clients, a line per way of serializing the counter, in process (solid) and over gRPC on 127.0.0.1 (dashed), on a log scale. A mutex around the counter only (sequence) is the one that gains from more clients and CPUs: the reply is built outside the lock. An actor pays a channel handover each way per request and is slowest with few clients. Over gRPC every variant is tens of times slower, and the differences between them mostly disappear under the network path's cost (remote_cost in the table).",
		X:      chartspec.Axis{Label: "concurrent clients", Of: chartspec.ByMetric, Metric: MetricClients, Scale: chartspec.Even},
		Y:      chartspec.Axis{Label: "identities per second (log scale)", Of: chartspec.ByThroughput, Scale: chartspec.Log},
		Line: func(p results.Point) (chartspec.Line, bool) {
			if v, ok := strings.CutPrefix(p.Variant(), RemotePrefix); ok {
				return chartspec.Line{Name: v + " over gRPC", Group: v, Dashed: true}, true
			}
			return chartspec.Line{Name: p.Variant() + " in process", Group: p.Variant()}, true
		},
		Empty: "No point to draw.",
	})
}

// The four ways of serializing the service, as variant names.
const (
	Simple   = "simple"   // one mutex around the count and the building of the reply
	Sequence = "sequence" // a mutex around the count only
	Actor    = "actor"    // one goroutine owns the count, fed by a mailbox channel
	Locker   = "locker"   // the actor's interface and handler, serialized by a mutex
)

// RemotePrefix starts the variant name of a point served over gRPC.
const RemotePrefix = "remote/"

func Variants() []string { return []string{Simple, Sequence, Actor, Locker} }

func variantList() string { return strings.Join(Variants(), ", ") }

// Config says what Run sweeps: every variant with every client count.
type Config struct {
	Variants []string `flag:"variants" usage:"variants:\nsimple, sequence, actor, locker"`
	Clients  []int    `flag:"clients" usage:"client counts to sweep"`
	// Requests is the same at every client count: each run does the same
	// work, shared out.
	Requests       int  `flag:"requests" usage:"identities asked for in a run\n(by all clients together)"`
	RemoteRequests int  `flag:"remote-requests" needs:"remote" usage:"the same for a run over gRPC\n(with --remote)"`
	Mailbox        int  `flag:"mailbox" usage:"the actor's mailbox size, in requests\n(0: unbuffered)"`
	ReplyBytes     int  `flag:"reply-bytes" usage:"size of a reply record:\nthe work of building a reply"`
	Remote         bool `flag:"remote" usage:"also serve every variant over gRPC\non 127.0.0.1 (points remote/<variant>)"`
	Reps           int  `flag:"reps" usage:"runs of each point;\na point reports the median throughput"`
}

// DefaultConfig takes 14 s for CPU counts 1 and 2 on 2 CPUs (at load 3).
func DefaultConfig() Config {
	return Config{
		Variants:       Variants(),
		Clients:        []int{1, 4, 16, 64},
		Requests:       100_000,
		RemoteRequests: 5000,
		Mailbox:        1024,
		ReplyBytes:     256,
		Reps:           lab.IntervalRuns(),
	}
}

// Limits past which a typo would take the machine's memory rather than
// measure anything: a run keeps 16 bytes per request.
const (
	maxClients  = 4096
	maxRequests = 50_000_000
)

func (c Config) Validate() error {
	if err := cmp.Or(
		lab.NotEmpty("variants", c.Variants, "of "+variantList()),
		lab.NotEmpty("clients", c.Clients, "client count"),
		lab.Choices("variants", c.Variants, Variants(), "want some of "+variantList()),
		lab.EachWithin("clients", c.Clients, 1, maxClients, "clients"),
	); err != nil {
		return err
	}
	most := slices.Max(c.Clients)
	return cmp.Or(
		lab.Refuse(c.Requests < most || c.Requests > maxRequests,
			"requests %d: want %d (one for each of the most clients) to %d requests", c.Requests, most, maxRequests),
		lab.Refuse(c.Remote && (c.RemoteRequests < most || c.RemoteRequests > maxRequests),
			"remote-requests %d: want %d (one for each of the most clients) to %d requests", c.RemoteRequests, most, maxRequests),
		lab.Refuse(c.Mailbox < 0 || c.Mailbox > 1<<20, "mailbox %d: want 0 (unbuffered) to %d requests", c.Mailbox, 1<<20),
		// The record's fixed fields take up to 91 bytes; past a MiB, a run
		// would measure copies, not synchronization.
		lab.Within("reply-bytes", c.ReplyBytes, minReplyBytes, 1<<20, "bytes"),
		lab.Within("reps", c.Reps, 1, 1000, "runs a point"),
	)
}
