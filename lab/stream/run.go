package stream

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/measure/sweep"
	"github.com/brewput/brewput/results"
)

const Unit = "msgs/s" // replies per second

// runWait bounds one run: a message with no outcome by then is lost.
const runWait = time.Minute

// Run measures every mode with every buffer size (with c.Restart, each
// again with the peer restarted mid-run) at each CPU count, each run with
// a peer and client of its own. A point is the run of median throughput,
// its latencies from a sender's handover to its reply. Every run is
// checked.
func Run(ctx context.Context, c Config, cpus []int, progress func(results.LabEvent)) ([]results.Point, error) {
	faults := []bool{false}
	if c.Restart {
		faults = append(faults, true)
	}
	return lab.Sweep(ctx, c, cpus, progress, func(n int, add lab.Add) error {
		for _, mode := range c.Modes {
			for _, buf := range c.Buffers {
				for _, restart := range faults {
					p, rate, err := measurePoint(ctx, c, n, mode, buf, restart)
					if err != nil {
						return err
					}
					add(p, results.LabPoint{Rate: results.Interval(rate)})
				}
			}
		}
		return nil
	})
}

// measurePoint makes c.Reps runs of one variant; its point is the median
// run's, with the interval of the runs' throughput.
func measurePoint(ctx context.Context, c Config, n int, mode string, buffer int, restart bool) (results.Point, lab.Interval, error) {
	v := Variant(mode, buffer, restart)
	runs, err := lab.Repeat(ctx, c.Reps, func() (tally, error) { return runOnce(ctx, c, mode, buffer, restart) })
	if err != nil {
		if ctx.Err() != nil {
			return results.Point{}, lab.Interval{}, ctx.Err()
		}
		return results.Point{}, lab.Interval{}, fmt.Errorf("stream %s cpus=%d: %w", v, n, err)
	}
	t, w, rates := lab.Median(runs, func(t tally) sweep.Window { return t.window }, tally.rate)
	rate := lab.IntervalOf(rates)
	timing := lab.Timing{Window: w, Par: c.Messages, Ops: t.replied, Hist: t.latency}
	if mode == ModeInOrder {
		timing.Par = 1
	}
	p, err := timing.Point(Name, v, n, Unit, map[results.Metric]float64{
		MetricBuffer:            float64(buffer),
		MetricMessages:          float64(c.Messages),
		MetricPayloadBytes:      float64(c.PayloadBytes),
		MetricReplied:           float64(t.replied),
		MetricFailed:            float64(t.failed()),
		MetricLost:              float64(t.lost),
		MetricFailedTooLarge:    float64(t.byCause[failTooLarge]),
		MetricFailedRejected:    float64(t.byCause[failRejected]),
		MetricFailedBroken:      float64(t.byCause[failBroken]),
		MetricFailedUnavailable: float64(t.byCause[failUnavailable]),
		MetricReconnects:        float64(t.reconnects),
		MetricRestart:           b2f(restart),
		MetricCPUPerMsg:         t.window.CPU.Seconds() / float64(max(1, t.replied)) * 1e6,
	})
	p.Set(results.Errors, float64(t.failed()))
	if mode == ModeInOrder {
		p.Set(MetricInOrder, b2f(t.inOrder))
	}
	rate.SetEnds(&p, lab.MetricThroughput)
	return p, rate, err
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

type tally struct {
	window     sweep.Window
	replied    int64
	lost       int64
	byCause    map[failure]int64
	reconnects int64
	inOrder    bool
	latency    *hdrhistogram.Histogram // ns, replied messages
}

func (t tally) rate() float64 { return float64(t.replied) / t.window.Wall.Seconds() }

func (t tally) failed() int64 {
	var n int64
	for _, v := range t.byCause {
		n += v
	}
	return n
}

type message struct {
	payload []byte
	sum     uint32
	kind    messageKind
}

type messageKind uint8

const (
	wellFormed messageKind = iota
	malformed              // its sum does not match its payload
	oversized              // its payload is over MaxPayloadBytes
)

// makeMessages makes a run's messages, the malformed and oversized spread
// evenly among them.
func makeMessages(c Config) []message {
	msgs := make([]message, c.Messages)
	for i := range msgs {
		p := make([]byte, c.PayloadBytes)
		for j := range p {
			p[j] = byte(i + j)
		}
		msgs[i] = message{payload: p, sum: checksum(p)}
	}
	bad := c.Malformed + c.Oversized
	for j := range bad {
		m := &msgs[(2*j+1)*c.Messages/(2*bad)]
		if j < c.Malformed {
			m.kind = malformed
			m.sum ^= 0x5a5a5a5a
		} else {
			m.kind = oversized
			m.payload = make([]byte, MaxPayloadBytes+1)
			m.sum = checksum(m.payload)
		}
	}
	return msgs
}

// runOnce starts a peer and a client, sends c.Messages messages, each from
// its own goroutine (in iorder, all from this one), and checks every
// outcome.
func runOnce(ctx context.Context, c Config, mode string, buffer int, restart bool) (_ tally, err error) {
	defer func() {
		if ctx.Err() != nil {
			err = ctx.Err() // whatever failed, it failed for the cancellation
		}
	}()
	msgs := makeMessages(c)
	p, err := startPeer()
	if err != nil {
		return tally{}, err
	}
	defer p.stop()
	cfg := clientConfig{
		async:       mode != ModeSync,
		buffer:      buffer,
		reconnect:   c.Downtime + time.Second,
		sentReached: make(chan struct{}),
	}
	// With a restart, the peer stops once the client has written the first
	// half, and the second half is handed over once the client has seen it
	// go: some messages are in flight when the stream breaks and some come
	// after, however fast the client is.
	half, later := len(msgs), int64(0) // later: writable messages of the second half
	if restart {
		half, cfg.sentMark, later = halves(msgs)
	}
	wctx, cancel := context.WithTimeout(ctx, runWait)
	defer cancel()
	cl, err := dial(wctx, p.address(), cfg)
	if err != nil {
		return tally{}, err
	}
	defer cl.close()

	// The fault: stop the peer on the cue, let the second half go, and
	// start it again after the downtime; restarted gets the error of that
	// start, or closes without one if the fault did not fire.
	outs := make([]outcome, len(msgs))
	got := make([]bool, len(msgs)) // an outcome came before the run's bound
	t0 := make([]time.Time, len(msgs))
	resume := make(chan struct{})
	restarted := make(chan error, 1)
	if restart && cfg.sentMark > 0 {
		go fault(wctx, p, cl, cfg.sentReached, c.Downtime, resume, restarted)
	} else {
		close(resume)
		close(restarted)
	}
	handOver := func(i int) *call {
		if i >= half {
			select {
			case <-resume:
			case <-wctx.Done():
			}
		}
		if c.handed != nil {
			c.handed(i)
		}
		t0[i] = time.Now()
		return cl.send(wctx, msgs[i].payload, msgs[i].sum)
	}

	sw := sweep.StartStopwatch()
	if mode == ModeInOrder {
		calls := make([]*call, len(msgs))
		for i := range msgs {
			calls[i] = handOver(i)
		}
		for i, k := range calls {
			outs[i], got[i] = k.wait(wctx)
		}
	} else {
		var wg sync.WaitGroup
		for i := range msgs {
			wg.Go(func() { outs[i], got[i] = handOver(i).wait(wctx) })
		}
		wg.Wait()
	}
	window := sw.Stop()
	restartErr, fired := <-restarted
	cl.close()
	p.stop()
	if restartErr != nil {
		return tally{}, fmt.Errorf("restarting the peer: %w", restartErr)
	}

	r := record{
		msgs: msgs, outs: outs, got: got, t0: t0,
		restart: restart, sequential: mode == ModeInOrder, fired: fired && later > 0,
		reconnects: cl.reconnects(), duplicates: cl.duplicates.Load(),
	}
	t, err := r.account()
	t.window = window
	return t, err
}

// record is what a run saw, by message.
type record struct {
	msgs       []message
	outs       []outcome
	got        []bool      // an outcome came before the run's bound
	t0         []time.Time // when handed to the client
	restart    bool        // the run was to restart the peer
	sequential bool        // iorder
	fired      bool        // the peer was restarted, with messages to send after

	reconnects, duplicates int64
}

// account counts the run's outcomes and checks each against its message:
// none lost or answered twice, only well-formed ones replied to, the
// oversized refused; without a restart, the malformed rejected and the
// rest replied to; with one, a reconnection; in iorder, the replies in
// order. The tally is whole even with an error.
func (r record) account() (tally, error) {
	t := tally{
		byCause:    map[failure]int64{},
		reconnects: r.reconnects,
		inOrder:    true,
		latency:    lab.NewHist(runWait),
	}
	var lastSeq uint64
	var firstWrong error
	wrong := func(err error) { firstWrong = cmp.Or(firstWrong, err) }
	for i, o := range r.outs {
		m := r.msgs[i]
		if !r.got[i] || errors.Is(o.err, context.DeadlineExceeded) {
			t.lost++
			continue
		}
		if o.seq != 0 {
			if o.seq <= lastSeq {
				t.inOrder = false
			}
			lastSeq = o.seq
		}
		if o.err == nil {
			if m.kind != wellFormed {
				wrong(fmt.Errorf("message %d, %s, was replied to", i, m.kind))
			}
			t.replied++
			lab.Record(t.latency, int64(o.at.Sub(r.t0[i])))
			continue
		}
		var cause failure
		if !errors.As(o.err, &cause) {
			wrong(fmt.Errorf("message %d failed of no known cause: %v", i, o.err))
			continue
		}
		t.byCause[cause]++
		switch {
		case m.kind == oversized && cause != failTooLarge:
			wrong(fmt.Errorf("oversized message %d: %v, want it refused as too large", i, o.err))
		case m.kind != oversized && cause == failTooLarge:
			wrong(fmt.Errorf("message %d of %d bytes refused as too large", i, len(m.payload)))
		case !r.restart && m.kind == malformed && cause != failRejected:
			wrong(fmt.Errorf("malformed message %d: %v, want it rejected by the peer", i, o.err))
		case !r.restart && m.kind == wellFormed:
			wrong(fmt.Errorf("message %d failed with no fault in the run: %v", i, o.err))
		}
	}
	switch {
	case t.lost > 0:
		return t, fmt.Errorf("%d of %d messages lost: neither a reply nor an error within %v", t.lost, len(r.msgs), runWait)
	case r.duplicates > 0:
		return t, fmt.Errorf("%d messages were given a second outcome", r.duplicates)
	case firstWrong != nil:
		return t, firstWrong
	case r.sequential && !t.inOrder:
		return t, fmt.Errorf("replies came back out of the order their messages were sent in")
	case r.fired && t.reconnects == 0:
		return t, fmt.Errorf("the peer was restarted but the client never reconnected")
	}
	return t, nil
}

func (k messageKind) String() string {
	return [...]string{wellFormed: "well formed", malformed: "malformed", oversized: "oversized"}[k]
}

// fault stops the peer once the client has written the first half
// (reached), lets the second half go (resume), and starts the peer again
// after downtime, telling restarted that start's error; where the run
// ends first, it lets the second half go and starts nothing.
func fault(ctx context.Context, p *peer, cl *client, reached <-chan struct{}, downtime time.Duration, resume chan<- struct{}, restarted chan<- error) {
	defer close(restarted)
	select {
	case <-reached:
	case <-ctx.Done():
		close(resume)
		return
	}
	p.stop()
	cl.waitDown(ctx, 10*time.Millisecond)
	close(resume)
	select {
	case <-time.After(downtime):
	case <-ctx.Done():
	}
	restarted <- p.start()
}

// halves is where msgs' second half begins, and how many of each half the
// client writes (the oversized it refuses).
func halves(msgs []message) (half int, first, second int64) {
	half = len(msgs) / 2
	for i, m := range msgs {
		switch {
		case m.kind == oversized:
		case i < half:
			first++
		default:
			second++
		}
	}
	return half, first, second
}
