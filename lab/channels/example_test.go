package channels_test

import (
	"fmt"

	"github.com/brewput/brewput/lab/channels"
)

// The article's machine: a producer alone made 667k lines/s and a
// consumer hashed 286k lines/s. With one producer and 3 consumers, the
// bound grows with the CPUs until the producer caps it.
func ExampleBound() {
	for _, cpus := range []int{1, 2, 4, 8} {
		fmt.Printf("%d CPUs: %.0fk lines/s\n", cpus, channels.Bound(667e3, 286e3, 3, cpus)/1e3)
	}
	// Output:
	// 1 CPUs: 200k lines/s
	// 2 CPUs: 400k lines/s
	// 4 CPUs: 667k lines/s
	// 8 CPUs: 667k lines/s
}
