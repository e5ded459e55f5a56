package logs

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"time"
)

// writer is one writer goroutine of a run: it makes its appends, in
// order, and keeps for each the index the log gave it and its latency.
type writer struct {
	id      int
	appends int             // how many appends it makes
	value   []byte          // the value being appended; see fill
	indices []int           // indices[k] is the index of this writer's k-th append
	latency []time.Duration // latency[k] is how long its k-th append took
	start   time.Time       // just before its first append
	end     time.Time       // just after its last
	err     error           // the first failed append, which stopped it
	every   int             // appends between looks at the context
}

// newWriter returns writer id, which will make appends appends of
// valueBytes bytes each, to a log that fsyncs each if synced.
func newWriter(id, appends, valueBytes int, synced bool) *writer {
	every := cancelEvery
	if synced {
		every = 1
	}
	return &writer{
		id:      id,
		every:   every,
		appends: appends,
		value:   make([]byte, valueBytes),
		indices: make([]int, 0, appends),
		latency: make([]time.Duration, 0, appends),
	}
}

// cancelEvery is how many appends a writer makes between looks at its
// context, on a log that does not sync: a look is not free beside a
// memory append of half a microsecond, and 64 appends take well under a
// millisecond. A writer to a log that syncs looks before every append,
// as 64 fsyncs can take most of a second.
const cancelEvery = 64

// run waits for gate to close and makes the writer's appends to lg,
// timing each. It stops early at an error, or when ctx is done.
func (w *writer) run(ctx context.Context, lg Log, gate <-chan struct{}) {
	<-gate
	w.start = time.Now()
	for k := range w.appends {
		if k%w.every == 0 && ctx.Err() != nil {
			break
		}
		fill(w.value, w.id, k)
		t0 := time.Now()
		index, err := lg.Append(w.value)
		d := time.Since(t0)
		if err != nil {
			w.err = err
			break
		}
		w.indices = append(w.indices, index)
		w.latency = append(w.latency, d)
	}
	w.end = time.Now()
}

// fill writes into value the k-th value of writer id: its first 8 bytes
// are id and k (id in the top 24 bits, k in the low 40), the rest a
// pattern of them, so that no two appends of a run write the same value
// and a value cut short or moved is caught. After the first value of a
// writer only the first 8 bytes change: rewriting the whole value would
// cost more than a memory append.
func fill(value []byte, id, k int) {
	tag := uint64(id)<<40 | uint64(k)
	binary.BigEndian.PutUint64(value, tag)
	if k == 0 {
		for i := 8; i < len(value); i++ {
			value[i] = byte(id) ^ byte(i*7)
		}
	}
}

// check reads every append of the writers ws back from lg, which they
// filled with appends values of valueBytes bytes: the log must hold
// exactly appends values, every index must have been returned to one
// append only, and Get at each index must return the value that append
// wrote. As the writers made appends appends, all with indices below
// appends and none twice, every index holds exactly one of them.
func check(lg Log, ws []*writer, appends, valueBytes int) error {
	if n := lg.Len(); n != appends {
		return fmt.Errorf("the log holds %d values after %d appends", n, appends)
	}
	total := 0
	for _, w := range ws {
		total += len(w.indices)
	}
	if total != appends {
		return fmt.Errorf("the writers made %d appends, want %d", total, appends)
	}
	owner := make([]int32, appends) // writer+1 whose append got the index; 0: none yet
	want := make([]byte, valueBytes)
	for _, w := range ws {
		for k, index := range w.indices {
			if index < 0 || index >= appends {
				return fmt.Errorf("writer %d's append %d got index %d, outside 0 to %d", w.id, k, index, appends-1)
			}
			if o := owner[index]; o != 0 {
				return fmt.Errorf("index %d given to writer %d's append %d and to one of writer %d's", index, w.id, k, o-1)
			}
			owner[index] = int32(w.id + 1)
			got, err := lg.Get(index)
			if err != nil {
				return err
			}
			fill(want, w.id, 0) // the pattern; then the tag of append k
			fill(want, w.id, k)
			if !bytes.Equal(got, want) {
				at := 0
				for at < min(len(got), len(want)) && got[at] == want[at] {
					at++
				}
				return fmt.Errorf("index %d holds %d bytes, not the %d of writer %d's append %d: they differ from byte %d", index, len(got), len(want), w.id, k, at)
			}
		}
	}
	return nil
}
