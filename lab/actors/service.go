package actors

import (
	"bytes"
	"fmt"
	"strconv"
	"sync"
)

// Service hands out identities from 1, each Next one greater than every
// one before, with its reply; safe for concurrent use until Close.
type Service interface {
	Next(client int) Reply
	Close()
}

// NewService returns a new service of variant, whose replies are
// replyBytes long (at least minReplyBytes); mailbox is the actor's.
func NewService(variant string, mailbox, replyBytes int) (Service, error) {
	switch variant {
	case Simple:
		return &simpleService{counter{size: replyBytes}}, nil
	case Sequence:
		return &sequenceService{counter{size: replyBytes}}, nil
	case Actor:
		a := &actorService{mailbox: make(chan event, mailbox), done: make(chan struct{})}
		go a.listen(&ipseity{size: replyBytes})
		return a, nil
	case Locker:
		return &lockerService{state: ipseity{size: replyBytes}}, nil
	}
	return nil, fmt.Errorf("variants %q: want one of %s", variant, variantList())
}

// counter is the state simple and sequence lock, each its own way.
type counter struct {
	mu   sync.Mutex
	seq  uint64
	size int
}

func (*counter) Close() {}

// simpleService locks the count and the building of the reply.
type simpleService struct{ counter }

func (s *simpleService) Next(client int) Reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	return buildReply(s.seq, client, s.size)
}

// sequenceService locks the count only: replies are built in parallel.
type sequenceService struct{ counter }

func (s *sequenceService) Next(client int) Reply {
	s.mu.Lock()
	s.seq++
	id := s.seq
	s.mu.Unlock()
	return buildReply(id, client, s.size)
}

// event is a request as the actor and the locker handle it, with the
// channel of its own the reply goes back on, as in the seed.
type event struct {
	client int
	reply  chan Reply
}

// ipseity is the state actor and locker serialize, and its one handler:
// the two differ only in how events get to it one at a time.
type ipseity struct {
	seq  uint64
	size int
}

// handle answers e on its channel, which has room for the reply.
func (s *ipseity) handle(e event) {
	s.seq++
	e.reply <- buildReply(s.seq, e.client, s.size)
}

// ask has d handle client's request, and waits for the reply.
func ask(d interface{ Dispatch(event) }, client int) Reply {
	e := event{client: client, reply: make(chan Reply, 1)}
	d.Dispatch(e)
	return <-e.reply
}

// actorService is the actor: one goroutine owns the state and handles the
// events of its mailbox, a buffered channel, in order.
type actorService struct {
	mailbox chan event
	done    chan struct{}
}

func (a *actorService) listen(state *ipseity) {
	defer close(a.done)
	for e := range a.mailbox {
		state.handle(e)
	}
}

func (a *actorService) Dispatch(e event) { a.mailbox <- e }

func (a *actorService) Next(client int) Reply { return ask(a, client) }

// Close waits for the actor to handle what is left in its mailbox.
func (a *actorService) Close() {
	close(a.mailbox)
	<-a.done
}

// lockerService has the actor's Dispatch and handler, but serializes
// events with a mutex.
type lockerService struct {
	mu    sync.Mutex
	state ipseity
}

func (l *lockerService) Dispatch(e event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.state.handle(e)
}

func (l *lockerService) Next(client int) Reply { return ask(l, client) }

func (l *lockerService) Close() {}

// Reply is the service's answer: the identity handed out and its record
// (see buildReply).
type Reply struct {
	ID     uint64
	Record []byte
}

const minReplyBytes = 96

// sumField is the record's last field, " sum=" and 16 hex digits.
const sumField = len(" sum=") + 16

// buildReply builds the reply for identity id, asked for by client: the
// record
//
//	ipseity id=<id> client=<client> hex=<id in hex> pad=<filler> sum=<checksum>
//
// of exactly size bytes, the filler hex digits from a generator seeded by
// id, the checksum the FNV-1a hash of everything before it, so that
// neither can be left out or precomputed.
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

func splitmix(state *uint64) uint64 {
	*state += 0x9e3779b97f4a7c15
	z := *state
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// fnv1a is the 64-bit FNV-1a hash of b, whose cost grows with the record.
func fnv1a(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

func checkReply(r Reply, client, size int) error {
	want := buildReply(r.ID, client, size)
	if !bytes.Equal(r.Record, want.Record) {
		return fmt.Errorf("client %d: reply record for id %d is %q, want %q", client, r.ID, r.Record, want.Record)
	}
	return nil
}
