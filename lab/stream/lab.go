package stream

import (
	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/results"
)

// The metrics of a stream point, in groups; see Run.

// The variant's buffer, the messages sent and each one's payload.
const (
	MetricBuffer       results.Metric = "buffer"
	MetricMessages     results.Metric = "messages"
	MetricPayloadBytes results.Metric = "payload_bytes"
)

// Outcomes: lost is messages - replied - failed, always 0 (Run fails
// otherwise).
const (
	MetricReplied results.Metric = "replied"
	MetricFailed  results.Metric = "failed"
	MetricLost    results.Metric = "lost"
)

// The failed messages by cause: refused as oversized by the client,
// rejected by the peer as malformed, written to a stream that broke before
// the reply, no stream to be had.
const (
	MetricFailedTooLarge    results.Metric = "failed_too_large"
	MetricFailedRejected    results.Metric = "failed_rejected"
	MetricFailedBroken      results.Metric = "failed_broken"
	MetricFailedUnavailable results.Metric = "failed_unavailable"
)

// Streams opened after the first; 1 on a restart point; on iorder points,
// 1 when every reply came back in order.
const (
	MetricReconnects results.Metric = "reconnects"
	MetricRestart    results.Metric = "restart"
	MetricInOrder    results.Metric = "in_order"
)

// The process's CPU time per reply, in µs.
const (
	MetricCPUPerMsg results.Metric = "cpu_us_per_msg"
)

// NewLab returns the stream lab at its defaults, as brewput runs it (a
// lab.Lab); its flags are Config's.
func NewLab() *lab.Of[Config] {
	return lab.New(lab.Info{Name: Name, Summary: Summary, Help: Help, Example: Example}, DefaultConfig(), Run, figure())
}
