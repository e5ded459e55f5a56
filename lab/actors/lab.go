package actors

import (
	"strings"

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

// NewLab returns the actors lab at its defaults, as brewput runs it (a
// lab.Lab); its flags are Config's.
func NewLab() *lab.Of[Config] {
	return lab.New(lab.Info{Name: Name, Summary: Summary, Help: Help, Example: `  brewput lab actors
  brewput lab actors --variants simple,sequence --clients 1,2,8 --reply-bytes 2048
  brewput lab actors --remote --clients 1,16 --format json --out actors.json`},
		DefaultConfig(), Run, figure())
}

// figure is the lab's chart: identities per second against clients, a
// line per variant, the remote ones dashed, on a log scale: over gRPC a
// variant is tens of times slower than in process.
func figure() lab.Figure {
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
