// Package book is an order book of the kind an exchange keeps, in two
// designs: Locked books every order under one sync.Mutex of its type;
// Sharded under one of 64, chosen by the order's instrument. It imports
// nothing of brewput: brewput why and predict see its locks with no edit
// (brewput bench --locks).
package book

import "sync"

// Order is one order to buy or sell Qty of Instrument at Price.
type Order struct {
	ID         uint64
	Instrument string
	Buy        bool
	Price, Qty int64
}

// Book is where orders are placed.
type Book interface {
	// Place books o and returns the quantity now resting at its price.
	Place(o Order) int64
}

// level is one price's resting orders.
type level struct {
	qty    int64
	orders []uint64
}

// side is one instrument's bids or asks, by price.
type side map[int64]*level

// place books o on the side and returns its level's quantity; a level
// keeps its last 16 orders.
func (s side) place(o Order) int64 {
	l := s[o.Price]
	if l == nil {
		l = &level{}
		s[o.Price] = l
	}
	l.qty += o.Qty
	if len(l.orders) == 16 {
		copy(l.orders, l.orders[1:])
		l.orders = l.orders[:15]
	}
	l.orders = append(l.orders, o.ID)
	return l.qty
}

// instruments is the bids and asks of each instrument.
type instruments map[string]*[2]side

// place books o and returns its level's quantity, once the
// instrument's spread is known again: matching needs the best bid and ask.
func (in instruments) place(o Order) int64 {
	sides := in[o.Instrument]
	if sides == nil {
		sides = &[2]side{{}, {}}
		in[o.Instrument] = sides
	}
	i := 0
	if o.Buy {
		i = 1
	}
	qty := sides[i].place(o)
	sides[0].best(false)
	sides[1].best(true)
	return qty
}

// best is the side's best price with quantity resting: the highest bid,
// or the lowest ask; 0 where none.
func (s side) best(bid bool) int64 {
	var p int64
	for price, l := range s {
		if l.qty > 0 && (p == 0 || bid && price > p || !bid && price < p) {
			p = price
		}
	}
	return p
}

// check is the validation an order gets before it is booked: its
// fingerprint, the work every order does outside the book's locks.
func check(o Order) uint64 {
	h := uint64(14695981039346656037) // FNV-1a
	for i := range 2 {
		v := o.ID + uint64(o.Price)*uint64(i+1) + uint64(o.Qty)
		for j := range 8 {
			h = (h ^ uint64(byte(v>>(8*j)))) * 1099511628211
		}
		for j := range len(o.Instrument) {
			h = (h ^ uint64(o.Instrument[j])) * 1099511628211
		}
	}
	return h
}

// shardOf is the shard of an instrument.
func shardOf(instrument string) int {
	h := uint32(2166136261) // FNV-1a
	for i := range len(instrument) {
		h = (h ^ uint32(instrument[i])) * 16777619
	}
	return int(h % Shards)
}

// Locked is a book under one lock.
type Locked struct {
	mu    sync.Mutex
	books instruments
	seen  uint64
}

// NewLocked returns an empty Locked book.
func NewLocked() *Locked { return &Locked{books: instruments{}} }

// Place books o under the book's lock.
func (b *Locked) Place(o Order) int64 {
	sum := check(o)
	b.mu.Lock()
	defer b.mu.Unlock()
	b.seen ^= sum
	return b.books.place(o)
}

// Shards is how many locks Sharded has.
const Shards = 64

// Sharded is a book under 64 locks, an instrument's orders under one.
type Sharded struct {
	shards [Shards]struct {
		mu    sync.Mutex
		books instruments
		seen  uint64
		_     [40]byte // a cache line each
	}
}

// NewSharded returns an empty Sharded book.
func NewSharded() *Sharded {
	b := &Sharded{}
	for i := range b.shards {
		b.shards[i].books = instruments{}
	}
	return b
}

// Place books o under its instrument's shard's lock.
func (b *Sharded) Place(o Order) int64 {
	sum := check(o)
	s := &b.shards[shardOf(o.Instrument)]
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seen ^= sum
	return s.books.place(o)
}
