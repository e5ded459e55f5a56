package sim

// ring is a FIFO queue in a reused power-of-two ring buffer: it allocates
// nothing once grown to its working size.
type ring[T any] struct {
	buf  []T
	head int
	n    int
}

func (r *ring[T]) len() int { return r.n }

func (r *ring[T]) push(v T) {
	if r.n == len(r.buf) {
		r.grow()
	}
	r.buf[(r.head+r.n)&(len(r.buf)-1)] = v
	r.n++
}

// pop removes and returns the oldest element; the ring must not be empty.
func (r *ring[T]) pop() T {
	v := r.buf[r.head]
	r.drop()
	return v
}

// drop removes the oldest element; the ring must not be empty.
func (r *ring[T]) drop() {
	var zero T
	r.buf[r.head] = zero // let the garbage collector have what it held
	r.head = (r.head + 1) & (len(r.buf) - 1)
	r.n--
}

func (r *ring[T]) grow() {
	buf := make([]T, max(8, 2*len(r.buf)))
	for i := range r.n {
		buf[i] = r.buf[(r.head+i)&(len(r.buf)-1)]
	}
	r.buf, r.head = buf, 0
}

// pushFront puts v ahead of every element, for a waiter that goes back to
// the head of its queue.
func (r *ring[T]) pushFront(v T) {
	if r.n == len(r.buf) {
		r.grow()
	}
	r.head = (r.head - 1) & (len(r.buf) - 1)
	r.buf[r.head] = v
	r.n++
}

// front is the oldest element, in place; the ring must not be empty.
func (r *ring[T]) front() *T { return &r.buf[r.head] }

// back is the newest element, in place; the ring must not be empty.
func (r *ring[T]) back() *T { return &r.buf[(r.head+r.n-1)&(len(r.buf)-1)] }
