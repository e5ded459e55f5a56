package harness_test

import (
	"context"
	"fmt"
	"time"

	"github.com/brewput/brewput/measure/harness"
	"github.com/brewput/brewput/results"
)

// Two customers order a 1 ms operation again and again for 100 ms.
func ExampleRun() {
	res, err := harness.Run(context.Background(), results.Load{
		Par:    2,
		Warmup: 10 * time.Millisecond,
		Dur:    100 * time.Millisecond,
	}, func() error {
		time.Sleep(time.Millisecond)
		return nil
	}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	p50 := time.Duration(res.Latency.ValueAtPercentile(50))
	fmt.Println("every op counted:", res.Latency.TotalCount() == res.Ops)
	fmt.Println("median at least 1 ms:", p50 >= time.Millisecond)
	// Output:
	// every op counted: true
	// median at least 1 ms: true
}
