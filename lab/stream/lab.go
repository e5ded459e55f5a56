package stream

import (
	"strings"

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

// NewLab returns the stream lab at its defaults, as brewput runs it (a
// lab.Lab); its flags are Config's.
func NewLab() *lab.Of[Config] {
	return lab.New(lab.Info{Name: Name, Summary: Summary, Help: Help, Example: `  brewput lab stream
  brewput lab stream --modes sync,async --buffers 0,100 --cpus 2
  brewput lab stream --restart --malformed 10 --oversized 10 --reps 1`},
		DefaultConfig(), Run, figure())
}

// figure is the lab's chart: messages replied per second against the
// messenger's channel buffer, a line per mode, the runs with a peer
// restart dashed.
func figure() lab.Figure {
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
