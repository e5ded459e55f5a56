package sim

import "time"

// Machine is the shape of the hardware the go policy's Ps run on, which
// decides what moving a cache line between them costs ([Transfer]). The
// zero Machine is one socket of as many single-threaded cores as Ps.
type Machine struct {
	Sockets        int `json:"sockets,omitempty"`
	CoresPerSocket int `json:"cores_per_socket,omitempty"`
	ThreadsPerCore int `json:"threads_per_core,omitempty"`
	// Packed places the Ps on one socket's cores before the next's, where
	// by default they are spread over the sockets in turn (see place).
	Packed bool `json:"packed,omitempty"`
}

// siblingSpeed is how fast a hardware thread runs while the other thread
// of its core runs too: two together do about 1.25 times one's work, as
// published SMT gains on server work (15–35 %).
const siblingSpeed = 0.62

// Threads is how many hardware threads the machine has; 0 for the zero
// Machine, whose size is the Ps'.
func (m Machine) Threads() int {
	if m.Sockets == 0 {
		return 0
	}
	return m.Sockets * m.CoresPerSocket * max(1, m.ThreadsPerCore)
}

// Transfer is what moving a cache line to a core costs, by how far the
// core that last wrote it is. It is both how long the core that asks
// waits and how long the line is taken, so that uses queue at this rate.
type Transfer struct {
	Sibling time.Duration `json:"sibling_ns,omitempty"`
	Socket  time.Duration `json:"socket_ns,omitempty"`
	Remote  time.Duration `json:"remote_ns,omitempty"`
	// Keep, for experiments, keeps a line at a core about as long as it
	// took to come, where by default it leaves once another core asks.
	Keep bool `json:"keep,omitempty"`
	// Stay is how long a word line (NewWordLine) stays at a core, as a
	// fraction of the move that brought it.
	Stay float64 `json:"stay,omitempty"`
}

// IsZero reports whether moving a line costs nothing at any distance.
func (t Transfer) IsZero() bool { return t.Sibling == 0 && t.Socket == 0 && t.Remote == 0 }

// place is where P i runs: the operating system spreads busy threads over
// the sockets in turn and over whole cores before a core's second thread;
// Packed, it fills a socket first, as Linux may for threads that wake
// each other.
type place struct{ socket, core int }

func (m Machine) place(i int) place {
	if m.Sockets == 0 {
		return place{core: i}
	}
	cores := m.Sockets * m.CoresPerSocket
	i %= cores // the core's other threads come after every core's first
	if m.Packed {
		return place{socket: i / m.CoresPerSocket, core: i % m.CoresPerSocket}
	}
	return place{socket: i % m.Sockets, core: i / m.Sockets}
}

// siblings is each P's sibling, the P on the other hardware thread of its
// core (-1 for none), on machine m.
func siblings(m Machine, n int) []int {
	sib := make([]int, n)
	for i := range sib {
		sib[i] = -1
		for j := range n {
			if a, b := m.place(i), m.place(j); i != j && a.socket == b.socket && a.core == b.core {
				sib[i] = j
			}
		}
	}
	return sib
}

// distances is each pair of Ps' transfer cost on machine m.
func distances(m Machine, t Transfer, n int) [][]time.Duration {
	places := make([]place, n)
	for i := range places {
		places[i] = m.place(i)
	}
	d := make([][]time.Duration, n)
	for i := range d {
		d[i] = make([]time.Duration, n)
		for j := range d[i] {
			a, b := places[i], places[j]
			switch {
			case i == j:
			case a.socket != b.socket:
				d[i][j] = t.Remote
			case a.core != b.core:
				d[i][j] = t.Socket
			default:
				d[i][j] = t.Sibling
			}
		}
	}
	return d
}
