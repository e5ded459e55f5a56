package stream

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/connectivity"
	"google.golang.org/grpc/credentials/insecure"
)

type clientConfig struct {
	async       bool          // replies read by a listener per stream, not by the messenger
	buffer      int           // the channel's from the senders to the messenger
	reconnect   time.Duration // how long the messenger tries to open a new stream
	sentMark    int64         // above 0: messages written at which sentReached closes, the cue for a fault
	sentReached chan struct{}
}

// client sends messages over one gRPC stream at a time: any goroutine
// calls send, one messenger writes the messages off a buffered channel,
// and in async mode a listener per stream hands each reply to its sender.
// When a stream breaks, the messages written and not answered fail, and
// the next message opens a new one; each gets exactly one outcome.
type client struct {
	cfg  clientConfig
	conn *grpc.ClientConn

	msgs chan *call
	// quit closes with the client, for senders waiting on msgs; stop once
	// none can put one there: the messenger fails what is left and exits.
	quit, stop, done chan struct{}
	enq              sync.RWMutex // held for reading while a sender puts a message in msgs
	closed           bool
	closeOnce        sync.Once

	ctx    context.Context // the streams' parent, cancelled by close
	cancel context.CancelFunc

	online     atomic.Bool   // a stream is open and not known to be broken
	nextID     atomic.Uint64 // the last id given to a message
	replies    atomic.Uint64 // replies received: the last reply's arrival number
	sent       atomic.Int64  // messages written to a stream
	opened     atomic.Int64  // streams opened, the first included
	duplicates atomic.Int64  // second outcomes offered to a call: must stay 0

	// Owned by the messenger goroutine alone.
	sess    *session
	retryAt time.Time // after a failed reconnect, messages fail at once until then
}

// call is one message in flight; done gets its outcome exactly once.
type call struct {
	id       uint64
	sum      uint32
	payload  []byte
	done     chan outcome // capacity 1: delivering never blocks
	finished atomic.Bool
}

// outcome is what became of a message: err nil for a reply, else a
// failure or the sender's context's error.
type outcome struct {
	seq uint64    // arrival number of the reply, from 1; 0 if none came
	at  time.Time // when the reply came, or the failure was found
	err error
}

type failure uint8

const (
	failTooLarge    failure = iota + 1 // payload over the limit: refused by the client, never sent
	failRejected                       // the peer answered with a rejection (malformed message)
	failBroken                         // the stream broke after the message was written, before its reply
	failUnavailable                    // no stream could be opened to send it
	failClosed                         // the client closed before sending it
)

func (f failure) Error() string {
	return [...]string{failTooLarge: "oversized message refused", failRejected: "rejected by the peer",
		failBroken: "stream broken before the reply", failUnavailable: "peer unavailable", failClosed: "client closed"}[f]
}

// session is one stream and, in async mode, the messages waiting on it.
type session struct {
	stream grpc.ClientStream
	cancel context.CancelFunc // ends the stream
	done   chan struct{}      // closed when the listener exited; nil in sync mode

	mu      sync.Mutex
	pending map[uint64]*call
	broken  bool // set once: no more calls are registered
}

// dial connects to the peer at addr, opens the first stream and starts
// the messenger.
func dial(ctx context.Context, addr string, cfg clientConfig) (*client, error) {
	conn, err := grpc.NewClient("passthrough:///"+addr,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.ForceCodecV2(codec{})),
		// gRPC's default waits a second before reconnecting, longer than
		// the lab's whole fault; the lab retries on its own bound.
		grpc.WithConnectParams(grpc.ConnectParams{
			Backoff:           backoff.Config{BaseDelay: 5 * time.Millisecond, Multiplier: 1.6, Jitter: 0.2, MaxDelay: 100 * time.Millisecond},
			MinConnectTimeout: time.Second,
		}),
	)
	if err != nil {
		return nil, fmt.Errorf("stream client: %w", err)
	}
	c := &client{
		cfg:  cfg,
		conn: conn,
		msgs: make(chan *call, cfg.buffer),
		quit: make(chan struct{}),
		stop: make(chan struct{}),
		done: make(chan struct{}),
	}
	c.ctx, c.cancel = context.WithCancel(ctx)
	if err := c.connect(); err != nil {
		c.cancel()
		conn.Close()
		return nil, fmt.Errorf("stream client: connect to %s: %w", addr, err)
	}
	go c.messenger()
	return c, nil
}

// close stops the messenger and the listener and closes the connection:
// messages written and not answered fail as broken, those still in the
// channel as closed. Safe to call more than once.
func (c *client) close() {
	c.closeOnce.Do(func() {
		close(c.quit)
		c.enq.Lock() // wait for the senders inside send to leave it
		c.closed = true
		c.enq.Unlock()
		close(c.stop)
		c.cancel()
		<-c.done
		c.conn.Close()
	})
}

// waitDown waits until the client has seen its peer go, or ctx ends: its
// connection has left Ready, then it is offline or grace has passed (with
// nothing in flight in sync mode, nothing finds the stream broken).
func (c *client) waitDown(ctx context.Context, grace time.Duration) {
	for s := c.conn.GetState(); s == connectivity.Ready; s = c.conn.GetState() {
		if !c.conn.WaitForStateChange(ctx, s) {
			return
		}
	}
	for end := time.Now().Add(grace); c.online.Load() && time.Now().Before(end) && ctx.Err() == nil; {
		time.Sleep(100 * time.Microsecond)
	}
}

func (c *client) reconnects() int64 { return max(0, c.opened.Load()-1) }

// send hands a message to the messenger, waiting for a place in the
// channel, and returns its call: failed at once for a payload over the
// limit (gRPC would end the stream on it), or with ctx's error.
func (c *client) send(ctx context.Context, payload []byte, sum uint32) *call {
	k := &call{id: c.nextID.Add(1), sum: sum, payload: payload, done: make(chan outcome, 1)}
	if len(payload) > MaxPayloadBytes {
		c.fail(k, failTooLarge)
		return k
	}
	c.enq.RLock()
	defer c.enq.RUnlock()
	if c.closed {
		c.fail(k, failClosed)
		return k
	}
	select {
	case c.msgs <- k:
	case <-c.quit:
		c.fail(k, failClosed)
	case <-ctx.Done():
		c.fail(k, ctx.Err())
	}
	return k
}

func (k *call) wait(ctx context.Context) (o outcome, ok bool) {
	select {
	case o = <-k.done:
		return o, true
	case <-ctx.Done():
		return outcome{at: time.Now(), err: ctx.Err()}, false
	}
}

// finish gives k its outcome, unless it had one: a bug, counted.
func (c *client) finish(k *call, o outcome) {
	if !k.finished.CompareAndSwap(false, true) {
		c.duplicates.Add(1)
		return
	}
	k.done <- o
}

func (c *client) fail(k *call, err error) {
	c.finish(k, outcome{at: time.Now(), err: err})
}

// answer gives k the outcome of its reply, numbered in arrival order.
func (c *client) answer(k *call, rep *reply) {
	o := outcome{seq: c.replies.Add(1), at: time.Now()}
	if rep.reject != "" {
		o.err = fmt.Errorf("%w: %s", failRejected, rep.reject)
	}
	c.finish(k, o)
}

// messenger sends the channel's messages in order until the client
// closes, then fails what is left.
func (c *client) messenger() {
	defer close(c.done)
	for {
		select {
		case k := <-c.msgs:
			c.deliver(k)
		case <-c.stop:
			c.dropSession()
			for {
				select {
				case k := <-c.msgs:
					c.fail(k, failClosed)
				default:
					return
				}
			}
		}
	}
}

// deliver sends one message on the stream, a new one if it is broken,
// and in sync mode waits for the reply. It tries a second stream only if
// the first broke before the message was written: none arrives twice.
func (c *client) deliver(k *call) {
	for range 2 {
		if c.sess == nil || !c.online.Load() {
			c.dropSession()
			if err := c.connect(); err != nil {
				c.fail(k, err)
				return
			}
		}
		s := c.sess
		if !c.cfg.async {
			c.roundTrip(s, k)
			return
		}
		if !s.register(k) {
			c.online.Store(false) // its listener found it broken: try a new stream
			continue
		}
		if err := s.write(k); err != nil {
			c.breakSession(s, err) // fails k too, unless the listener did
			return
		}
		c.wrote()
		return
	}
	c.fail(k, fmt.Errorf("%w: two streams in a row broke before the message was written", failUnavailable))
}

func (s *session) write(k *call) error {
	return s.stream.SendMsg(&request{id: k.id, sum: k.sum, payload: k.payload})
}

// roundTrip writes k to s and reads its reply, in sync mode. On a failed
// write, RecvMsg says why the stream ended (SendMsg says only io.EOF); a
// reply to another message puts the stream out of step, not to be trusted.
func (c *client) roundTrip(s *session, k *call) {
	var rep reply
	err := s.write(k)
	if err != nil {
		if rerr := s.stream.RecvMsg(&rep); rerr != nil {
			err = rerr
		}
	} else {
		c.wrote()
		if err = s.stream.RecvMsg(&rep); err == nil && rep.id != k.id {
			err = fmt.Errorf("reply for message %d, want %d", rep.id, k.id)
		}
	}
	if err != nil {
		c.online.Store(false)
		c.fail(k, fmt.Errorf("%w: %v", failBroken, err))
		return
	}
	c.answer(k, &rep)
}

func (c *client) wrote() {
	if n := c.sent.Add(1); n == c.cfg.sentMark && c.cfg.sentReached != nil {
		close(c.cfg.sentReached)
	}
}

// connect opens a new stream, retrying with a growing pause for up to
// cfg.reconnect; once it gives up, messages fail at once for a while.
func (c *client) connect() error {
	now := time.Now()
	if now.Before(c.retryAt) {
		return fmt.Errorf("%w: the last reconnect gave up; trying again after a pause", failUnavailable)
	}
	deadline := now.Add(c.cfg.reconnect)
	pause := 2 * time.Millisecond
	for {
		s, err := c.open()
		if err == nil {
			c.sess = s
			c.opened.Add(1)
			c.online.Store(true)
			return nil
		}
		if c.ctx.Err() != nil {
			return fmt.Errorf("%w: %v", failClosed, err)
		}
		if time.Now().Add(pause).After(deadline) {
			c.retryAt = time.Now().Add(100 * time.Millisecond)
			return fmt.Errorf("%w: %v", failUnavailable, err)
		}
		select {
		case <-time.After(pause):
		case <-c.ctx.Done():
		}
		pause = min(2*pause, 100*time.Millisecond)
	}
}

func (c *client) open() (*session, error) {
	ctx, cancel := context.WithCancel(c.ctx)
	st, err := c.conn.NewStream(ctx, chatStream(), chatMethod)
	if err != nil {
		cancel()
		return nil, err
	}
	s := &session{stream: st, cancel: cancel, pending: map[uint64]*call{}}
	if c.cfg.async {
		s.done = make(chan struct{})
		go c.listen(s)
	}
	return s, nil
}

// dropSession ends the current stream, if any, and waits for its listener.
func (c *client) dropSession() {
	s := c.sess
	if s == nil {
		return
	}
	c.sess = nil
	c.breakSession(s, fmt.Errorf("stream closed by the client"))
	if s.done != nil {
		<-s.done
	}
}

// listen hands each reply of s to its sender until the stream ends, then
// fails every message still waiting on s.
func (c *client) listen(s *session) {
	defer close(s.done)
	for {
		var rep reply
		if err := s.stream.RecvMsg(&rep); err != nil {
			c.breakSession(s, err)
			return
		}
		k := s.take(rep.id)
		if k == nil {
			c.breakSession(s, fmt.Errorf("reply for message %d, which is not waiting", rep.id))
			return
		}
		c.answer(k, &rep)
	}
}

// register records k on s before it is written; false if s is broken.
func (s *session) register(k *call) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.broken {
		return false
	}
	s.pending[k.id] = k
	return true
}

func (s *session) take(id uint64) *call {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := s.pending[id]
	delete(s.pending, id)
	return k
}

// breakSession marks the client offline and s broken, ends its stream
// and fails every message waiting on it.
func (c *client) breakSession(s *session, cause error) {
	c.online.Store(false)
	s.mu.Lock()
	pending := s.pending
	s.pending = nil
	s.broken = true
	s.mu.Unlock()
	s.cancel()
	for _, k := range pending {
		c.fail(k, fmt.Errorf("%w: %v", failBroken, cause))
	}
}
