package workloads_test

import (
	"context"
	"fmt"
	"time"

	"github.com/brewput/brewput/lab/workloads"
)

// Run measures each workload sequentially and concurrently at each CPU
// count. Times and speedups vary from run to run; what each point is, and
// the work it did, do not.
func ExampleRun() {
	c := workloads.Config{
		AddSize: 100_000, SortSize: 300, Docs: 20, Wait: 100 * time.Microsecond,
		Topic: "gopher", Workers: 10, Goroutines: 2, Reps: 1, Workloads: workloads.Workloads(),
	}
	points, err := workloads.Run(context.Background(), c, []int{1}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range points {
		fmt.Printf("%s on %d CPU: %d goroutines, %d %s\n", p.Variant(), p.CPUs, p.Par, p.Ops, p.Unit[:len(p.Unit)-2])
	}
	// Output:
	// add/sequential on 1 CPU: 1 goroutines, 100000 ints summed
	// add/concurrent on 1 CPU: 2 goroutines, 100000 ints summed
	// sort/sequential on 1 CPU: 1 goroutines, 300 ints sorted
	// sort/concurrent on 1 CPU: 2 goroutines, 300 ints sorted
	// find/sequential on 1 CPU: 1 goroutines, 20 docs
	// find/concurrent on 1 CPU: 10 goroutines, 20 docs
}
