// Package stream is the stream lab (brewput lab stream): a client sends
// messages to a peer over one gRPC bidirectional stream on 127.0.0.1,
// after a journal post on the "remote" of a replicated system. Any
// goroutine hands its message to one messenger goroutine through a
// buffered channel; the reply comes back to the messenger before it sends
// the next (sync), or to a listener goroutine that hands each reply to its
// sender (async; iorder, where one goroutine sends every message and the
// replies must come back in order). Run sweeps the modes and the buffer,
// optionally with the peer restarted mid-run.
package stream

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/report/chartspec"
	"github.com/brewput/brewput/results"
)

// Name is the lab's name, as in brewput lab stream.
const Name = "stream"

const help = `A client sends messages to a peer over one gRPC
bidirectional stream on 127.0.0.1, as the "remote" of a replica did with
each of its peers in the journal post this lab follows. Any goroutine
hands its message to the client; one messenger goroutine takes the
messages off a buffered channel, in order, and sends them on the stream.
The peer, a gRPC server the lab starts on a port the system picks, answers
each message with a reply carrying its id. How the client gets the replies
is the mode:

  sync    the messenger reads each message's reply before it sends the
          next: one message in flight, no other goroutine.
  async   a listener goroutine reads the replies and hands each to the
          goroutine that sent its message; the messenger only sends.
  iorder  async, with every message sent by one goroutine, one after the
          other without waiting: the replies must come back in the order
          the messages were sent (in_order), and do.

A run sends --messages messages (5000, as in the post), each from its own
goroutine, all started at once (iorder: all from one goroutine), and waits
for every outcome; the lab sweeps the channel's buffer (--buffers). A
point is the run of median throughput of --reps runs: replies per second,
and the latency of each reply from the moment its sender handed the
message to the channel. The peer runs in the same process: CPU figures
include its work (cpu_us_per_msg is CPU time per reply).

What to look for. On a 2-CPU virtual machine (Go 1.26) sync gets about 20k
replies/s at 2 CPUs (17k to 23k) whatever the buffer, and 16k to 33k at 1
CPU, where it swings from run to run: every message costs a full round
trip through both ends' goroutines, 30 to 60 us of CPU, one message after
another, so that a second CPU does not help and stays half idle. async
gets 2.5 to 4 times as much at 2 CPUs (55k to 72k/s, 25 to 28 us of CPU a
message) and keeps both CPUs busy: it is the post's lesson, that the
replies need their own goroutine. At 1 CPU, where nothing runs in
parallel, async gets 1.3 to 3.5 times sync (32k to 64k/s). iorder is
faster again, 1.5 to 3 times async (70k to 170k/s, 9 to 17 us a message):
one goroutine handing over every message costs far less CPU than 5000
goroutines each started, parked on the channel and woken for its reply.
The buffer size does not change the throughput of any mode by more than
runs of the same point differ from each other (by up to a third from one
sweep to the next on that machine; the post found "only a small impact"):
the messenger and the stream set the pace, and a buffer only moves where
the senders wait, from the channel's queue of blocked senders into its
buffer. With 5000 messages handed over at once, reply latency is mostly
that wait: the median is about half the run. In iorder a large buffer lets
the one sender run ahead of the messenger, so its messages wait longer:
the median latency is highest at a buffer of 1000.

The post's messenger and listener shared an "online" flag and the stream
in plain fields, a data race. Here the flag is atomic, and each stream
belongs to a session that only the messenger replaces, after the old
stream's listener has exited; the tests check it under the race detector.

Faults. Every message gets exactly one outcome, a reply or an error; the
run fails if one gets none (lost) or two. --malformed messages carry a
checksum that does not match their payload: the peer rejects each with an
error reply and the stream goes on. --oversized messages have a payload
over 64 KiB: the client refuses each before sending, because gRPC ends the
whole stream on a message over its send limit; the peer's own limit ends
only the stream of a client that sends one anyway, as a frame it cannot
decode does. With --restart each mode and buffer runs again with the peer
stopped once the first half of the messages has been written, and started
again on the same address after --downtime; the second half is handed over
once the client has seen the peer go. Messages written to the broken
stream and not yet answered fail (failed_broken; the peer may have handled
them, but none is sent twice); the messenger opens a new stream, retrying
for up to --downtime + 1 s, and the later messages are replied to
(reconnects). sync loses the one message in flight, async and iorder all
the unanswered ones: 150 to 1500 of the 5000.

Variants are named <mode>/buf=<n>, and <mode>/buf=<n>/restart.`

// The metrics of a point; lost is messages - replied - failed, always 0
// (Run fails otherwise).
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

// NewLab returns the lab at its defaults, as brewput runs it; its flags
// are Config's. Its chart is replies per second against the messenger's
// channel buffer, a line per mode, the runs with a peer restart dashed.
func NewLab() *lab.Of[Config] {
	return lab.New(lab.Info{Name: Name, Help: help,
		Summary: "messages over one gRPC bidirectional stream: replies in the sender's goroutine or a listener, channel buffers, a peer restart",
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
			mode, _, _ := strings.Cut(p.Variant, "/")
			if p.Metrics[MetricRestart] == 1 {
				return chartspec.Line{Name: mode + ", peer restarted", Group: mode, Dashed: true}, true
			}
			return chartspec.Line{Name: mode, Group: mode}, true
		},
		Empty: "No point to draw.",
	})
}

// The modes: how the client receives its replies, and who sends.
const (
	ModeSync    = "sync"   // the messenger waits for each reply before it sends the next
	ModeAsync   = "async"  // a listener goroutine hands each reply to its sender
	ModeInOrder = "iorder" // async, every message sent by one goroutine: the replies must come back in order
)

// Modes lists the modes in the order the lab runs them.
func Modes() []string { return []string{ModeSync, ModeAsync, ModeInOrder} }

// MaxPayloadBytes is the largest payload a message may have: the client
// refuses larger ones before sending, and the peer's gRPC server ends a
// stream that carries one.
const MaxPayloadBytes = 64 << 10

// Config says what Run sweeps: every mode with every buffer size, each
// also with a restart of the peer when Restart is set.
type Config struct {
	Modes        []string `flag:"modes" usage:"modes to run: sync, async, iorder"`
	Messages     int      `flag:"messages" usage:"messages per run, each from its own goroutine (iorder: all from one)"`
	Buffers      []int    `flag:"buffers" usage:"buffer sizes of the senders' channel to the messenger to sweep, in messages"`
	PayloadBytes int      `flag:"payload-bytes" usage:"bytes in each message's payload"`
	Malformed    int      `flag:"malformed" usage:"messages per run whose checksum does not match their payload: the peer rejects them"`
	Oversized    int      `flag:"oversized" usage:"messages per run with a payload over 65536 bytes: the client refuses them"`
	// Restart stops the peer once half the messages are written, and
	// starts it again on the same address after Downtime.
	Restart bool `flag:"restart" usage:"also run each mode and buffer with the peer stopped mid-run and started again"`
	// Downtime: the client retries for up to Downtime + 1 s before it
	// fails a message as unavailable.
	Downtime time.Duration `flag:"downtime" usage:"how long the peer stays down in a --restart run"`
	Reps     int           `flag:"reps" usage:"runs of each point; a point reports the run of median throughput"`

	// handed, when set, is called as each message i is handed to the
	// client, from the goroutine that hands it over: the tests cancel a
	// run in its middle with it, whatever the machine's speed.
	handed func(i int)
}

// DefaultConfig is the seed's experiment: 5000 messages, each from its
// own goroutine, buffers of 0 to 1000, all three modes, small payloads,
// no faults, 3 runs a point: 15 points in 10 to 20 s per CPU count on a
// 2-CPU machine.
func DefaultConfig() Config {
	return Config{
		Modes:        Modes(),
		Messages:     5000,
		Buffers:      []int{0, 1, 10, 100, 1000},
		PayloadBytes: 64,
		Downtime:     50 * time.Millisecond,
		Reps:         3,
	}
}

// Limits past which a value is a typo rather than an experiment: a
// goroutine per message, channels of up to a million messages, a peer
// down for up to 10 s.
const (
	maxMessages = 200_000
	maxBuffer   = 1 << 20
	maxDowntime = 10 * time.Second
	maxReps     = 100
)

// Validate implements lab.Validator.
func (c Config) Validate() error {
	modes := strings.Join(Modes(), ", ")
	return cmp.Or(
		lab.NotEmpty("modes", c.Modes, "of "+modes),
		lab.Within("messages", c.Messages, 1, maxMessages, "messages per run"),
		lab.NotEmpty("buffers", c.Buffers, "channel buffer size"),
		lab.Within("payload-bytes", c.PayloadBytes, 0, MaxPayloadBytes, "bytes"),
		lab.Refuse(c.Malformed < 0, "malformed %d: want 0 or more malformed messages per run", c.Malformed),
		lab.Refuse(c.Oversized < 0, "oversized %d: want 0 or more oversized messages per run", c.Oversized),
		lab.Refuse(c.Malformed > c.Messages, "malformed %d: more than the %d messages of a run", c.Malformed, c.Messages),
		lab.Refuse(c.Malformed+c.Oversized > c.Messages,
			"oversized %d: with %d malformed, more faulty messages than the %d messages of a run", c.Oversized, c.Malformed, c.Messages),
		lab.Refuse(c.Downtime < 0 || c.Downtime > maxDowntime, "downtime %v: want 0 to %v", c.Downtime, maxDowntime),
		lab.Within("reps", c.Reps, 1, maxReps, "runs per point"),
		lab.Choices("modes", c.Modes, Modes(), "unknown mode; want some of "+modes),
		lab.Buffers("buffers", c.Buffers, maxBuffer, "a channel buffer", "messages"),
	)
}

// Variant names a point: "async/buf=100", or "async/buf=100/restart" with
// the peer stopped and started again mid-run.
func Variant(mode string, buffer int, restart bool) string {
	v := mode + "/buf=" + strconv.Itoa(buffer)
	if restart {
		v += "/restart"
	}
	return v
}

// CheckGiven refuses --downtime without --restart, the run it times.
func (c *Config) CheckGiven(given func(flag string) bool) error {
	if given("downtime") && !c.Restart {
		return fmt.Errorf("downtime: applies to the --restart runs only; add --restart, or drop it")
	}
	return nil
}

// Memory is what a run holds at most: its messages, each with its
// payload, and the outcomes and times it keeps of each.
func (c Config) Memory() (float64, string) {
	return float64(c.Messages) * float64(c.PayloadBytes+128), fmt.Sprintf("--messages %d of --payload-bytes %d", c.Messages, c.PayloadBytes)
}
