package actors

import (
	"bytes"
	"cmp"
	"fmt"
	"strconv"
	"sync"

	"github.com/brewput/brewput/lab"
)

// Service hands out identities from 1, each Next one greater than every
// one before, with its reply; safe for concurrent use until Close.
type Service interface {
	Next(client int) Reply
	Close()
}

// NewService returns a new service of variant, whose replies are
// replyBytes long; mailbox is the actor's (the others have none).
func NewService(variant string, mailbox, replyBytes int) (Service, error) {
	if err := cmp.Or(checkReplyBytes(replyBytes), checkMailbox(mailbox)); err != nil {
		return nil, err
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

// sequenceService locks the count only, and builds the reply outside the
// lock: replies are built in parallel.
type sequenceService struct {
	mu   sync.Mutex
	seq  uint64
	size int
}

func (s *sequenceService) Next(client int) Reply {
	s.mu.Lock()
	s.seq++
	id := s.seq
	s.mu.Unlock()
	return buildReply(id, client, s.size)
}

func (s *sequenceService) Close() {}

// event is a request as the actor and the locker handle it: the client,
// and the channel of its own the reply goes back on, as in the seed.
type event struct {
	client int
	reply  chan Reply
}

// ipseity is the state actor and locker serialize, and its one handler,
// which counts and builds the reply as simple does under its lock: the
// two differ only in how events get to it one at a time.
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

// ask has d handle client's request, and waits for the reply: Next of the
// actor and the locker.
func ask(d interface{ Dispatch(event) }, client int) Reply {
	e := event{client: client, reply: make(chan Reply, 1)}
	d.Dispatch(e)
	return <-e.reply
}

// actorService is the actor: one goroutine owns the state and handles the
// events of its mailbox, a buffered channel, in order. Unlike the seed's,
// the mailbox exists before the goroutine starts (no send on a nil
// channel blocks for ever), and the handler cannot fail.
type actorService struct {
	mailbox chan event
	done    chan struct{}
}

func newActorService(mailbox, size int) *actorService {
	a := &actorService{mailbox: make(chan event, mailbox), done: make(chan struct{})}
	go a.listen(&ipseity{size: size})
	return a
}

// listen handles events until the mailbox is closed; nothing else can
// touch the state.
func (a *actorService) listen(state *ipseity) {
	defer close(a.done)
	for e := range a.mailbox {
		state.handle(e)
	}
}

// Dispatch puts e in the mailbox; it waits only while the mailbox is full.
func (a *actorService) Dispatch(e event) { a.mailbox <- e }

func (a *actorService) Next(client int) Reply { return ask(a, client) }

// Close closes the mailbox and waits for the actor to handle what is left
// in it and exit.
func (a *actorService) Close() {
	close(a.mailbox)
	<-a.done
}

// lockerService has the actor's Dispatch and handler, but serializes
// events with a mutex: the caller handles its own under the lock.
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

func (l *lockerService) Next(client int) Reply { return ask(l, client) }

func (l *lockerService) Close() {}

// Reply is the service's answer: the identity handed out and its record
// of Config.ReplyBytes (see buildReply).
type Reply struct {
	ID     uint64
	Record []byte
}

// Bounds on Config.ReplyBytes: the record's fixed fields take up to 91
// bytes; past a MiB, a run would measure copies, not synchronization.
const (
	minReplyBytes = 96
	maxReplyBytes = 1 << 20
)

// checkReplyBytes and checkMailbox refuse a size out of bounds.
func checkReplyBytes(n int) error {
	return lab.Within("reply-bytes", n, minReplyBytes, maxReplyBytes, "bytes")
}
func checkMailbox(n int) error {
	return lab.Refuse(n < 0 || n > maxMailbox, "mailbox %d: want 0 (unbuffered) to %d requests", n, maxMailbox)
}

// sumField is the record's last field, " sum=" and 16 hex digits.
const sumField = len(" sum=") + 16

// buildReply builds the reply for identity id, asked for by client (the
// work simple does under its lock and sequence outside it): the record
//
//	ipseity id=<id> client=<client> hex=<id in hex> pad=<filler> sum=<checksum>
//
// is formatted into a new buffer of exactly size bytes, the filler being
// hex digits drawn from a generator seeded by id, and the checksum the
// 64-bit FNV-1a hash of everything before it, so that neither can be left
// out or precomputed.
func buildReply(id uint64, client, size int) Reply {
	rec := make([]byte, 0, size)
	rec = append(rec, "ipseity id="...)
	rec = strconv.AppendUint(rec, id, 10)
	rec = append(rec, " client="...)
	rec = strconv.AppendInt(rec, int64(client), 10)
	rec = append(rec, " hex="...)
	rec = strconv.AppendUint(rec, id, 16)
	rec = append(rec, " pad="...)
	fill := rec[len(rec) : size-sumField]
	state, u := id, uint64(0)
	for i := range fill {
		if i%16 == 0 {
			u = splitmix(&state)
		}
		fill[i] = hexDigits[u&15]
		u >>= 4
	}
	rec = rec[:size-sumField]
	sum := fnv1a(rec)
	rec = append(rec, " sum="...)
	for shift := 60; shift >= 0; shift -= 4 {
		rec = append(rec, hexDigits[sum>>uint(shift)&15])
	}
	return Reply{ID: id, Record: rec}
}

const hexDigits = "0123456789abcdef"

// splitmix advances a SplitMix64 generator and returns its next value.
func splitmix(state *uint64) uint64 {
	*state += 0x9e3779b97f4a7c15
	z := *state
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// fnv1a is the 64-bit FNV-1a hash of b: a byte at a time, each step
// depending on the last, so its cost grows with the record.
func fnv1a(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

// checkReply compares r, byte for byte, with the reply client should have
// got with r's identity.
func checkReply(r Reply, client, size int) error {
	want := buildReply(r.ID, client, size)
	if !bytes.Equal(r.Record, want.Record) {
		return fmt.Errorf("client %d: reply record for id %d is %q, want %q", client, r.ID, r.Record, want.Record)
	}
	return nil
}
