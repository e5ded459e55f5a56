package stream

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/brewput/brewput/internal/base/format"
	"github.com/brewput/brewput/internal/base/race"
	"github.com/brewput/brewput/lab"
	"github.com/brewput/brewput/lab/labtest"
	"github.com/brewput/brewput/report/text"
	"github.com/brewput/brewput/results"
)

// goleak checks after all tests that every peer, client, messenger and
// listener stopped, cancelled runs included.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// small is a run's size in the tests: a few hundred messages, fewer
// under the race detector, which slows gRPC tenfold.
func small() Config {
	c := DefaultConfig()
	c.Messages = 400
	if race.Enabled {
		c.Messages = 150
	}
	c.Reps = 1
	c.Downtime = 20 * time.Millisecond
	return c
}

// TestEveryMessageAccounted checks, exactly, that every message gets the
// outcome it should, in every mode, unbuffered and buffered: without a
// fault each well-formed message is replied to, each malformed one
// rejected by the peer and each oversized one refused by the client,
// while the stream goes on (no reconnection); with the peer restarted
// mid-run, every message is replied to or failed, none lost, and the
// client reconnects.
func TestEveryMessageAccounted(t *testing.T) {
	c := small()
	c.Malformed, c.Oversized = 7, 3
	for _, mode := range Modes() {
		for _, buf := range []int{0, 10} {
			for _, restart := range []bool{false, true} {
				v := Variant(mode, buf, restart)
				tl, err := runOnce(context.Background(), c, mode, buf, restart)
				if err != nil {
					t.Errorf("%s: %v", v, err)
					continue
				}
				failed := tl.failed()
				if tl.lost != 0 || tl.replied+failed != int64(c.Messages) {
					t.Errorf("%s: %d replied + %d failed + %d lost, want %d messages and none lost", v, tl.replied, failed, tl.lost, c.Messages)
				}
				if tl.byCause[failTooLarge] != int64(c.Oversized) {
					t.Errorf("%s: %d refused as too large, want %d", v, tl.byCause[failTooLarge], c.Oversized)
				}
				if !restart {
					if tl.replied != int64(c.Messages-c.Malformed-c.Oversized) || tl.byCause[failRejected] != int64(c.Malformed) || tl.reconnects != 0 {
						t.Errorf("%s: %d replied, %d rejected, %d reconnects; want %d, %d, 0", v, tl.replied, tl.byCause[failRejected], tl.reconnects,
							c.Messages-c.Malformed-c.Oversized, c.Malformed)
					}
					continue
				}
				if tl.reconnects < 1 || tl.replied == 0 {
					t.Errorf("%s: %d reconnects, %d replied; want at least one of each", v, tl.reconnects, tl.replied)
				}
				t.Logf("%s: %d replied, %v failed by cause, %d reconnects", v, tl.replied, tl.byCause, tl.reconnects)
			}
		}
	}
}

// TestAccountCatches: the checks of a run find a lost message, a second
// outcome, replies out of order, a malformed message replied to, a
// well-formed one failed without a fault, and a restart without a
// reconnection; so a passing run means something.
func TestAccountCatches(t *testing.T) {
	now := time.Now()
	base := func() record {
		msgs := []message{{}, {}, {kind: malformed}, {kind: oversized}}
		return record{
			msgs: msgs,
			outs: []outcome{
				{seq: 1, at: now},
				{seq: 2, at: now},
				{seq: 3, at: now, err: fmt.Errorf("%w: bad sum", failRejected)},
				{at: now, err: failTooLarge},
			},
			got:        []bool{true, true, true, true},
			t0:         []time.Time{now, now, now, now},
			sequential: true,
		}
	}
	if tl, err := base().account(); err != nil || tl.replied != 2 || tl.failed() != 2 || !tl.inOrder {
		t.Fatalf("a good run: %+v, %v", tl, err)
	}
	for _, tc := range []struct {
		name string
		edit func(*record)
		want string
	}{
		{"lost", func(r *record) { r.got[1] = false }, "lost"},
		{"no place in time", func(r *record) { r.outs[1].err = context.DeadlineExceeded }, "lost"},
		{"answered twice", func(r *record) { r.duplicates = 1 }, "second outcome"},
		{"out of order", func(r *record) { r.outs[0].seq, r.outs[1].seq = 2, 1 }, "out of the order"},
		{"malformed replied", func(r *record) { r.outs[2].err = nil }, "malformed, was replied"},
		{"oversized sent", func(r *record) { r.outs[3].err = fmt.Errorf("%w: x", failBroken) }, "want it refused"},
		{"well-formed failed", func(r *record) { r.outs[0].err = fmt.Errorf("%w: x", failBroken) }, "no fault"},
		{"unknown cause", func(r *record) { r.outs[0].err = errors.New("?") }, "no known cause"},
		{"no reconnection", func(r *record) { r.restart, r.fired = true, true }, "never reconnected"},
	} {
		r := base()
		tc.edit(&r)
		if _, err := r.account(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.want)
		}
	}
	// With a restart, a well-formed message may fail, as broken.
	r := base()
	r.restart, r.fired, r.reconnects = true, true, 1
	r.outs[0].err = fmt.Errorf("%w: x", failBroken)
	if _, err := r.account(); err != nil {
		t.Errorf("restart run with a broken message: %v", err)
	}
}

// TestInOrder: one goroutine sends messages without waiting, through a
// channel of each size; the replies are numbered in the order the messages
// were sent, also across a restart of the peer.
func TestInOrder(t *testing.T) {
	c := small()
	for _, buf := range []int{0, 1, 100} {
		for _, restart := range []bool{false, true} {
			tl, err := runOnce(context.Background(), c, ModeInOrder, buf, restart)
			if err != nil || !tl.inOrder {
				t.Errorf("%s: in order %v, %v", Variant(ModeInOrder, buf, restart), tl.inOrder, err)
			}
		}
	}
}

// TestOnlineRaceClean is the seed's race, fixed: while the peer is stopped
// and started again under an async client, goroutines read the client's
// online flag over and over, as the seed's listener did, and the
// messenger and the listeners write it. Under -race, a data race fails
// the test. The flag must also have been seen both ways.
func TestOnlineRaceClean(t *testing.T) {
	p, err := startPeer()
	if err != nil {
		t.Fatal(err)
	}
	defer p.stop()
	cl, err := dial(context.Background(), p.address(), clientConfig{async: true, buffer: 10, reconnect: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.close()

	stop := make(chan struct{})
	var seen [2]bool
	var watchers sync.WaitGroup
	var mu sync.Mutex
	for range 4 {
		watchers.Go(func() {
			var local [2]bool
			for {
				select {
				case <-stop:
					mu.Lock()
					seen[0], seen[1] = seen[0] || local[0], seen[1] || local[1]
					mu.Unlock()
					return
				default:
				}
				if cl.online.Load() {
					local[1] = true
				} else {
					local[0] = true
				}
				runtime.Gosched()
			}
		})
	}
	send := func(n int) (replied, failed int) {
		var wg sync.WaitGroup
		var smu sync.Mutex
		for i := range n {
			wg.Go(func() {
				payload := []byte(fmt.Sprint(i))
				o, ok := cl.send(context.Background(), payload, checksum(payload)).wait(context.Background())
				smu.Lock()
				defer smu.Unlock()
				if ok && o.err == nil {
					replied++
				} else {
					failed++
				}
			})
		}
		wg.Wait()
		return replied, failed
	}
	r1, f1 := send(100)
	p.stop()
	cl.waitDown(context.Background(), 5*time.Second) // until the listener has found the stream broken
	time.Sleep(20 * time.Millisecond)                // offline a while, for the watchers to see
	if err := p.start(); err != nil {
		t.Fatal(err)
	}
	r2, f2 := send(100)
	close(stop)
	watchers.Wait()
	if r1 != 100 || f1 != 0 || r2 != 100 || f2 != 0 {
		t.Errorf("before the restart %d replied, %d failed; after, %d and %d; want all 100 replied each time", r1, f1, r2, f2)
	}
	if cl.reconnects() != 1 {
		t.Errorf("%d reconnects, want 1", cl.reconnects())
	}
	if !seen[0] || !seen[1] {
		t.Errorf("online seen false: %v, true: %v; want both", seen[0], seen[1])
	}
}

func TestVariantNames(t *testing.T) {
	for _, tc := range []struct {
		mode    string
		buf     int
		restart bool
		want    string
	}{
		{ModeAsync, 100, false, "async/buf=100"},
		{ModeSync, 0, true, "sync/buf=0/restart"},
		{ModeInOrder, 1000, false, "iorder/buf=1000"},
	} {
		v := Variant(tc.mode, tc.buf, tc.restart)
		if v != tc.want {
			t.Errorf("Variant(%q, %d, %v) = %q, want %q", tc.mode, tc.buf, tc.restart, v, tc.want)
		}
	}
}

func TestValidate(t *testing.T) {
	labtest.Invalid(t, DefaultConfig, Run, []labtest.Case[Config]{
		{Flag: "modes", Edit: func(c *Config) { c.Modes = nil }},
		{Flag: "modes", Edit: func(c *Config) { c.Modes = []string{"async", "fast"} }},
		{Flag: "modes", Edit: func(c *Config) { c.Modes = []string{"sync", "sync"} }},
		{Flag: "messages", Edit: func(c *Config) { c.Messages = 0 }},
		{Flag: "messages", Edit: func(c *Config) { c.Messages = 1 << 30 }},
		{Flag: "buffers", Edit: func(c *Config) { c.Buffers = nil }},
		{Flag: "buffers", Edit: func(c *Config) { c.Buffers = []int{10, -1} }},
		{Flag: "buffers", Edit: func(c *Config) { c.Buffers = []int{1 << 30} }},
		{Flag: "payload-bytes", Edit: func(c *Config) { c.PayloadBytes = -1 }},
		{Flag: "payload-bytes", Edit: func(c *Config) { c.PayloadBytes = MaxPayloadBytes + 1 }},
		{Flag: "malformed", Edit: func(c *Config) { c.Malformed = -1 }},
		{Flag: "malformed", Edit: func(c *Config) { c.Malformed = c.Messages + 1 }},
		{Flag: "oversized", Edit: func(c *Config) { c.Malformed, c.Oversized = c.Messages, 1 }},
		{Flag: "oversized", Edit: func(c *Config) { c.Oversized = -2 }},
		{Flag: "downtime", Edit: func(c *Config) { c.Downtime = -time.Second }},
		{Flag: "downtime", Edit: func(c *Config) { c.Downtime = time.Hour }},
		{Flag: "reps", Edit: func(c *Config) { c.Reps = 0 }},
		{Flag: "reps", Edit: func(c *Config) { c.Reps = 1000 }},
	})
}

// TestRunInterval: with 6 runs a point carries the interval of its runs'
// median throughput, around its median run's, and its line gives it.
func TestRunInterval(t *testing.T) {
	c := small()
	c.Modes, c.Buffers, c.Messages, c.Reps = []string{ModeAsync}, []int{10}, 100, lab.IntervalRuns()
	points, told := labtest.RunLab(t, labtest.With(NewLab(), c), []int{1}, 1, Unit, []results.Metric{MetricBuffer, MetricMessages,
		MetricPayloadBytes, MetricReplied, MetricFailed, MetricLost, MetricFailedTooLarge, MetricFailedRejected, MetricFailedBroken,
		MetricFailedUnavailable, MetricReconnects, MetricRestart, MetricCPUPerMsg, lab.Lo(lab.MetricThroughput), lab.Hi(lab.MetricThroughput)})
	lines := labtest.Lines(told, text.LabEvent)
	p := points[0]
	lo, hi := p.Metrics[lab.Lo(lab.MetricThroughput)], p.Metrics[lab.Hi(lab.MetricThroughput)]
	line := strings.ReplaceAll(lines[0], "\n  ", " ")
	if !(0 < lo && lo <= p.Throughput && p.Throughput <= hi) || !strings.Contains(line, fmt.Sprintf("[%s, %s]", format.Rate(lo, Unit), format.Rate(hi, Unit))) {
		t.Errorf("throughput %g in [%g, %g]; line %q", p.Throughput, lo, hi, line)
	}
}

// TestRun checks the points' contract on a small sweep with a restart and
// faulty messages.
func TestRun(t *testing.T) {
	c := small()
	c.Modes, c.Buffers, c.Restart, c.Malformed, c.Oversized = []string{ModeSync, ModeInOrder}, []int{0, 10}, true, 2, 1
	c.Messages = 120
	cpus := []int{1, 2}
	points, _ := labtest.RunLab(t, labtest.With(NewLab(), c), cpus, len(cpus)*2*2*2, Unit, []results.Metric{MetricBuffer, MetricMessages,
		MetricPayloadBytes, MetricReplied, MetricFailed, MetricLost, MetricFailedTooLarge, MetricFailedRejected, MetricFailedBroken,
		MetricFailedUnavailable, MetricReconnects, MetricRestart, MetricInOrder, MetricCPUPerMsg})
	for _, p := range points {
		mt := p.Metrics
		mode, _, _ := strings.Cut(p.Variant(), "/")
		buf, restart := int(mt[MetricBuffer]), mt[MetricRestart] == 1
		if p.Variant() != Variant(mode, buf, restart) || !slices.Contains(c.Modes, mode) || mt[MetricRestart] != b2f(restart) {
			t.Errorf("%s: metrics %v do not match the variant", p.Variant(), mt)
		}
		wantPar := c.Messages
		if mode == ModeInOrder {
			wantPar = 1
		}
		if p.Par != wantPar {
			t.Errorf("%s: par %d, want %d", p.Variant(), p.Par, wantPar)
		}
		if p.Dur.Seconds() <= 0 || p.Throughput <= 0 || p.Latency.P50 <= 0 || p.Latency.Max < p.Latency.P50 || p.Hist == "" {
			t.Errorf("%s cpus=%d: duration %g s, %g msgs/s, latency %+v", p.Variant(), p.CPUs, p.Dur.Seconds(), p.Throughput, p.Latency)
		}
		if p.Ops != int64(mt["replied"]) || p.Metrics[results.Errors] != mt["failed"] || mt["lost"] != 0 ||
			mt["replied"]+mt["failed"] != float64(c.Messages) || mt["messages"] != float64(c.Messages) {
			t.Errorf("%s: ops %d, errors %.0f, metrics %v", p.Variant(), p.Ops, p.Metrics[results.Errors], mt)
		}
		byCause := mt["failed_too_large"] + mt["failed_rejected"] + mt["failed_broken"] + mt["failed_unavailable"]
		if byCause != mt["failed"] || mt["failed_too_large"] != float64(c.Oversized) {
			t.Errorf("%s: failed %v, by cause %v", p.Variant(), mt["failed"], mt)
		}
		if mt["payload_bytes"] != float64(c.PayloadBytes) {
			t.Errorf("%s: metrics %v do not match the configuration", p.Variant(), mt)
		}
		if restart && mt["reconnects"] < 1 || !restart && (mt["reconnects"] != 0 || mt["failed_rejected"] != float64(c.Malformed)) {
			t.Errorf("%s: metrics %v", p.Variant(), mt)
		}
		if v, ok := mt["in_order"]; ok != (mode == ModeInOrder) || ok && v != 1 {
			t.Errorf("%s: in_order %v (present %v)", p.Variant(), v, ok)
		}
	}
}

// TestCancel: a cancelled run returns the points it finished and the
// context's error, and leaves no goroutine behind (TestMain).
func TestCancel(t *testing.T) {
	c := small()
	c.Modes, c.Buffers = []string{ModeAsync}, []int{0, 10, 100}
	labtest.CancelAfter(t, labtest.With(NewLab(), c), []int{1}, text.LabEvent, "buf=0:", 1)

	// Cancelled in the middle of a run, in each mode, with the peer up or
	// down: the context is cancelled as message 100 is handed over, so the
	// run is cut short whatever the machine's speed; with a restart, as
	// message 505 is, one of the second half, which goes only once the
	// peer is down, and the peer stays down for longer than the test (505
	// is handed over in iorder too, which sends one message after another:
	// the messenger holds one and the channel ten while the peer is down).
	c.Downtime = 5 * time.Second
	c.Messages = 1000
	for _, mode := range Modes() {
		for _, restart := range []bool{false, true} {
			at := 100
			if restart {
				at = 505
			}
			ctx, cancel := context.WithCancel(context.Background())
			c.handed = func(i int) {
				if i == at {
					cancel()
				}
			}
			start := time.Now()
			if _, err := runOnce(ctx, c, mode, 10, restart); !errors.Is(err, context.Canceled) {
				t.Errorf("%s: cancelled in its middle: %v, want context.Canceled", Variant(mode, 10, restart), err)
			}
			cancel()
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("%s: took %v to stop", Variant(mode, 10, restart), d)
			}
		}
	}
}

// The flags set the configuration's fields.
func TestBind(t *testing.T) {
	want := Config{Modes: []string{ModeSync, ModeInOrder}, Messages: 50, Buffers: []int{0, 5}, PayloadBytes: 16,
		Malformed: 2, Oversized: 1, Restart: true, Downtime: 20 * time.Millisecond, Reps: 2}
	labtest.Binds(t, NewLab(), want, "--modes", "sync,iorder", "--messages", "50", "--buffers", "0,5", "--payload-bytes", "16",
		"--malformed", "2", "--oversized", "1", "--restart", "--downtime", "20ms", "--reps", "2")
	if u := labtest.Usage(NewLab(), "oversized"); !strings.Contains(u, strconv.Itoa(MaxPayloadBytes)) {
		t.Errorf("--oversized says %q, not the limit %d", u, MaxPayloadBytes)
	}
	if err := labtest.Bind(NewLab(), "--modes", "nope"); err == nil || !strings.HasPrefix(err.Error(), `--modes "nope"`) {
		t.Errorf("--modes nope: %v", err)
	}
}
