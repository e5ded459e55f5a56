package render_test

import (
	"fmt"

	"github.com/brewput/brewput/lab/render"
)

// A program that spends 5 % of its sequential time in code that cannot
// run in parallel gains less and less from more CPUs: never more than 20×.
func ExampleAmdahl() {
	for _, n := range []int{1, 2, 4, 16, 64, 4096} {
		fmt.Printf("%4d CPUs: at best x%.2f\n", n, render.Amdahl(0.05, n))
	}
	// Output:
	//    1 CPUs: at best x1.00
	//    2 CPUs: at best x1.90
	//    4 CPUs: at best x3.48
	//   16 CPUs: at best x9.14
	//   64 CPUs: at best x15.42
	// 4096 CPUs: at best x19.91
}

// Karp–Flatt reads a measured speedup back into the serial fraction that
// would explain it: 1.8× on 2 CPUs is as if 11 % of the work were serial.
func ExampleKarpFlatt() {
	fmt.Printf("%.3f\n", render.KarpFlatt(1.8, 2))
	// Output: 0.111
}
