package meter_test

import (
	"fmt"
	"sync"

	"github.com/brewput/brewput/measure/meter"
)

// A map behind a metered mutex, used by four goroutines: the mutex counts
// every use, and how long it was held and waited for (which vary from run
// to run, and are not printed here).
func ExampleMutex() {
	mu := meter.NewMutex("cache")
	m := map[string]int{}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 1000 {
				mu.Lock()
				m["hits"]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	r := mu.Read()
	fmt.Println(mu.Name(), mu.Kind(), r.Uses, m["hits"], r.Held > 0)
	// Output: cache mutex 4000 4000 true
}

// A channel's two sides are two meters: sends that waited for room point
// at a slow receiver, receives that waited for a value at a slow sender.
func ExampleChan() {
	jobs := meter.NewChan[int]("jobs", 2)
	go func() {
		for i := range 3 {
			jobs.Send(i)
		}
		jobs.Close()
	}()
	sum := 0
	for {
		v, ok := jobs.Recv()
		if !ok {
			break
		}
		sum += v
	}
	fmt.Println(sum, jobs.Sends().Name(), jobs.Sends().Read().Uses, jobs.Receives().Read().Uses)
	// Output: 3 jobs send 3 3
}
