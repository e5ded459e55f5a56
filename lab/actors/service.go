package actors

import (
	"fmt"
	"sync"
)

// Service hands out identities: each Next returns an identity greater than
// every one handed out before it, starting at 1, with its reply record. A
// Service is safe for concurrent use until Close, which must come after
// the last Next has returned.
type Service interface {
	// Next hands client an identity and the reply built for it.
	Next(client int) Reply
	// Close stops the service and whatever goroutine it runs.
	Close()
}

// NewService returns a new service of the given variant, one of
// [Variants], whose replies are replyBytes long; mailbox is the actor's
// mailbox size in requests (the other variants have none). replyBytes
// must be at least 96 and mailbox at least 0.
func NewService(variant string, mailbox, replyBytes int) (Service, error) {
	if replyBytes < minReplyBytes || replyBytes > maxReplyBytes {
		return nil, fmt.Errorf("reply-bytes %d: want %d to %d bytes", replyBytes, minReplyBytes, maxReplyBytes)
	}
	if mailbox < 0 || mailbox > maxMailbox {
		return nil, fmt.Errorf("mailbox %d: want 0 (unbuffered) to %d requests", mailbox, maxMailbox)
	}
	switch variant {
	case Simple:
		return &simpleService{size: replyBytes}, nil
	case Sequence:
		return &sequenceService{size: replyBytes}, nil
	case Actor:
		return newActorService(mailbox, replyBytes), nil
	case Locker:
		return &lockerService{state: ipseity{size: replyBytes}}, nil
	}
	return nil, fmt.Errorf("variants %q: want one of %s", variant, variantList())
}

// simpleService locks the whole request: the count and the building of the
// reply. Every reply is built by one goroutine at a time.
type simpleService struct {
	mu   sync.Mutex
	seq  uint64
	size int
}

func (s *simpleService) Next(client int) Reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	return buildReply(s.seq, client, s.size)
}

func (s *simpleService) Close() {}

// sequence is a counter behind its own lock, which it holds for the
// increment only.
type sequence struct {
	mu sync.Mutex
	n  uint64
}

func (q *sequence) next() uint64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.n++
	return q.n
}

// sequenceService takes the identity from a locked sequence and builds the
// reply outside the lock, so that replies are built in parallel.
type sequenceService struct {
	seq  sequence
	size int
}

func (s *sequenceService) Next(client int) Reply {
	return buildReply(s.seq.next(), client, s.size)
}

func (s *sequenceService) Close() {}

// event is a request as the actor and the locker handle it: the client
// that asks, and the channel its reply goes back on, one per request, as
// the seed's events carry their source.
type event struct {
	client int
	reply  chan Reply
}

// ipseity is the state that actor and locker serialize access to, and its
// one handler. handle counts and builds the reply, as simple does under
// its lock: what differs between the two variants is only how events get
// to it one at a time.
type ipseity struct {
	seq  uint64
	size int
}

// handle answers e. Its reply channel has room for one reply, so the
// handler never waits for the client.
func (s *ipseity) handle(e event) {
	s.seq++
	e.reply <- buildReply(s.seq, e.client, s.size)
}

// newEvent makes client's request with its reply channel.
func newEvent(client int) event { return event{client: client, reply: make(chan Reply, 1)} }

// actorService is the actor: one goroutine owns the state and handles the
// events of its mailbox, a buffered channel, in the order they arrive.
// Unlike the seed's, the mailbox is made before the goroutine starts, so
// that no request can be sent on a nil channel (where it would block for
// ever), and the handler cannot fail and leave senders waiting.
type actorService struct {
	mailbox chan event
	done    chan struct{}
}

func newActorService(mailbox, size int) *actorService {
	a := &actorService{mailbox: make(chan event, mailbox), done: make(chan struct{})}
	go a.listen(&ipseity{size: size})
	return a
}

// listen handles events until the mailbox is closed. The state is local
// to this goroutine: nothing else can touch it.
func (a *actorService) listen(state *ipseity) {
	defer close(a.done)
	for e := range a.mailbox {
		state.handle(e)
	}
}

// Dispatch puts e in the mailbox; it waits only while the mailbox is full.
func (a *actorService) Dispatch(e event) { a.mailbox <- e }

func (a *actorService) Next(client int) Reply {
	e := newEvent(client)
	a.Dispatch(e)
	return <-e.reply
}

// Close closes the mailbox and waits for the actor to handle what is left
// in it and exit.
func (a *actorService) Close() {
	close(a.mailbox)
	<-a.done
}

// lockerService has the actor's interface, Dispatch and a handler per
// event with a reply channel, but serializes events with a mutex: the
// caller's goroutine handles its own event while holding the lock.
type lockerService struct {
	mu    sync.Mutex
	state ipseity
}

// Dispatch handles e under the lock.
func (l *lockerService) Dispatch(e event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.state.handle(e)
}

func (l *lockerService) Next(client int) Reply {
	e := newEvent(client)
	l.Dispatch(e)
	return <-e.reply
}

func (l *lockerService) Close() {}
