// Package stream is the stream lab, after a journal post on the "remote"
// of a replicated system: goroutines hand messages through a buffered
// channel to one messenger, which sends them to a peer over one gRPC
// bidirectional stream and waits for each reply (sync), or leaves them to
// a listener goroutine (async; iorder: one sender, replies in order).
package stream

import (
	"cmp"
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/results"
	"github.com/brewput/brewput/results/chartspec"
)

const Name = "stream"

//go:embed help.txt
var help string

// The metrics of a point; lost (messages - replied - failed) is 0, or Run fails.
const (
	MetricBuffer            results.Metric = "buffer"        // the variant's channel buffer
	MetricMessages          results.Metric = "messages"      // sent
	MetricPayloadBytes      results.Metric = "payload_bytes" // each message's
	MetricReplied           results.Metric = "replied"
	MetricFailed            results.Metric = "failed"
	MetricLost              results.Metric = "lost"
	MetricFailedTooLarge    results.Metric = "failed_too_large"   // refused as oversized by the client
	MetricFailedRejected    results.Metric = "failed_rejected"    // rejected by the peer as malformed
	MetricFailedBroken      results.Metric = "failed_broken"      // written to a stream that broke before the reply
	MetricFailedUnavailable results.Metric = "failed_unavailable" // no stream to be had
	MetricReconnects        results.Metric = "reconnects"         // streams opened after the first
	MetricRestart           results.Metric = "restart"            // 1 on a restart point
	MetricInOrder           results.Metric = "in_order"           // on iorder points, 1 when every reply came back in order
	MetricCPUPerMsg         results.Metric = "cpu_us_per_msg"     // the process's CPU time per reply, the peer's included
)

// NewLab returns the lab at its defaults.
func NewLab() *lab.Of[Config] {
	return lab.New(lab.Info{Name: Name, Help: strings.TrimSuffix(help, "\n"),
		Summary: "one gRPC bidirectional stream: replies in the sender or a listener, buffers, a restart",
		Example: `  brewput lab stream
  brewput lab stream --modes sync,async --buffers 0,100 --cpus 2

  brewput lab stream --restart --malformed 10 --oversized 10 --reps 1`,
	}, DefaultConfig(), Run, chartspec.Figure{
		Kind:   chartspec.Lines,
		Title:  "stream: replies per second against the channel's buffer",
		Lesson: "Messages replied to per second over one gRPC stream on 127.0.0.1, against the buffer of the channel the messenger goroutine drains, a line per mode. Waiting for each reply before the next send (sync) leaves the stream idle for a round trip per message; a listener goroutine that receives replies while the messenger sends (async) keeps it busy, and one sender with nothing to hand over (iorder) is faster still. The buffer changes little: the stream, not the handover, is what limits. With the peer stopped and started mid-run (dashed), the client reconnects, and the table's replied, failed and lost columns account for every message.",
		X:      chartspec.Axis{Label: "messenger's channel buffer (messages)", Of: chartspec.ByMetric, Metric: MetricBuffer, Scale: chartspec.Even},
		Y:      chartspec.Axis{Label: "replies per second", Of: chartspec.ByThroughput},
		Line: func(p results.Point) (chartspec.Line, bool) {
			mode, _, _ := strings.Cut(p.Variant(), "/")
			if p.Metrics[MetricRestart] == 1 {
				return chartspec.Line{Name: mode + ", peer restarted", Group: mode, Dashed: true}, true
			}
			return chartspec.Line{Name: mode, Group: mode}, true
		},
		Empty: "No point to draw.",
	})
}

const (
	ModeSync    = "sync"   // the messenger waits for each reply before it sends the next
	ModeAsync   = "async"  // a listener goroutine hands each reply to its sender
	ModeInOrder = "iorder" // async, every message sent by one goroutine: the replies must come back in order
)

func Modes() []string { return []string{ModeSync, ModeAsync, ModeInOrder} }

// MaxPayloadBytes is the largest payload: the client refuses larger, the
// peer ends a stream that carries one.
const MaxPayloadBytes = 64 << 10

// Config says what Run sweeps: every mode with every buffer size, each
// again with the peer restarted if Restart is set.
type Config struct {
	Modes        []string      `flag:"modes" usage:"modes to run:\nsync, async, iorder"`
	Messages     int           `flag:"messages" usage:"messages per run,\neach from its own goroutine (iorder: all from one)"`
	Buffers      []int         `flag:"buffers" usage:"buffer sizes to sweep\n(of the senders' channel to the messenger, in messages)"`
	PayloadBytes int           `flag:"payload-bytes" usage:"bytes in each message's payload"`
	Malformed    int           `flag:"malformed" usage:"messages per run with a bad checksum\n(one that does not match their payload): the peer rejects them"`
	Oversized    int           `flag:"oversized" usage:"messages per run with a payload over 65536 bytes:\nthe client refuses them"`
	Restart      bool          `flag:"restart" usage:"also run each mode and buffer with the peer\nstopped mid-run and started again"`
	Downtime     time.Duration `flag:"downtime" needs:"restart" usage:"how long the peer stays down\nin a --restart run"`
	Reps         int           `flag:"reps" usage:"runs of each point;\na point reports the run of median throughput"`

	handed func(i int) // called as message i is handed over: the tests cancel a run in its middle
}

// DefaultConfig is the seed's experiment, 6 runs a point: 30 points in
// 10 s for CPU counts 1 and 2 on 2 CPUs (at load 3).
func DefaultConfig() Config {
	return Config{
		Modes:        Modes(),
		Messages:     5000,
		Buffers:      []int{0, 1, 10, 100, 1000},
		PayloadBytes: 64,
		Downtime:     50 * time.Millisecond,
		Reps:         lab.IntervalRuns(),
	}
}

// Validate refuses, beside nonsense, what would be a typo rather than an
// experiment.
func (c Config) Validate() error {
	modes := strings.Join(Modes(), ", ")
	return cmp.Or(
		lab.NotEmpty("modes", c.Modes, "of "+modes),
		lab.Within("messages", c.Messages, 1, 200_000, "messages per run"),
		lab.NotEmpty("buffers", c.Buffers, "channel buffer size"),
		lab.Within("payload-bytes", c.PayloadBytes, 0, MaxPayloadBytes, "bytes"),
		lab.Refuse(c.Malformed < 0, "malformed %d: want 0 or more malformed messages per run", c.Malformed),
		lab.Refuse(c.Oversized < 0, "oversized %d: want 0 or more oversized messages per run", c.Oversized),
		lab.Refuse(c.Malformed > c.Messages, "malformed %d: more than the %d messages of a run", c.Malformed, c.Messages),
		lab.Refuse(c.Malformed+c.Oversized > c.Messages,
			"oversized %d: with %d malformed, more faulty messages than the %d messages of a run", c.Oversized, c.Malformed, c.Messages),
		lab.Refuse(c.Downtime < 0 || c.Downtime > 10*time.Second, "downtime %v: want 0 to %v", c.Downtime, 10*time.Second),
		lab.Within("reps", c.Reps, 1, 100, "runs per point"),
		lab.Choices("modes", c.Modes, Modes(), "unknown mode; want some of "+modes),
		lab.Buffers("buffers", c.Buffers, 1<<20, "a channel buffer", "messages"),
	)
}

// Variant names a point: "async/buf=100", "async/buf=100/restart" with
// the peer restarted mid-run.
func Variant(mode string, buffer int, restart bool) string {
	v := mode + "/buf=" + strconv.Itoa(buffer)
	if restart {
		v += "/restart"
	}
	return v
}

// Memory is what a run holds at most: its messages, and each's outcome.
func (c Config) Memory() (float64, []string) {
	return float64(c.Messages) * float64(c.PayloadBytes+128), []string{fmt.Sprint("--messages ", c.Messages), fmt.Sprint("--payload-bytes ", c.PayloadBytes)}
}
