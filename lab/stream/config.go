package stream

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/brewput/brewput/lab"
)

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
