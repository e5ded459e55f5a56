package actors

import (
	"bytes"
	"fmt"
	"strconv"
)

// Reply is what the service answers a request with: the identity handed
// out and the reply record built for it, a line of text of the configured
// size (see Config.ReplyBytes) that names the identity and the client and
// ends with a checksum of itself.
type Reply struct {
	ID     uint64
	Record []byte
}

// Bounds on Config.ReplyBytes: the record's fixed fields take at most 91
// bytes, and past a MiB a reply would measure memory copies, not
// synchronization.
const (
	minReplyBytes = 96
	maxReplyBytes = 1 << 20
)

// sumField is the record's last field, " sum=" and 16 hex digits.
const sumField = len(" sum=") + 16

// buildReply builds the reply for identity id, asked for by client: the
// work that simple does under its lock and sequence does outside it, and
// that actor and locker do in their one handler. It is real work,
// proportional to size: the record
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

// checkReply rebuilds the reply that client should have got with r's
// identity and compares it with r, byte for byte: it catches a record
// built for another identity or client, or damaged on the way.
func checkReply(r Reply, client, size int) error {
	want := buildReply(r.ID, client, size)
	if !bytes.Equal(r.Record, want.Record) {
		return fmt.Errorf("client %d: reply record for id %d is %q, want %q", client, r.ID, r.Record, want.Record)
	}
	return nil
}
