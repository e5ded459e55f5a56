package blueprint_test

import (
	"fmt"

	"github.com/brewput/brewput/model/blueprint"
)

// Describe a shop in YAML, simulate it on 4 CPUs, and read the results: 3
// customers share one barista who takes 2 ms a coffee, so the barista is
// the bottleneck at 500 coffees a second, and by Little's law each
// customer waits 3 ÷ 500/s = 6 ms a coffee.
func ExampleParse() {
	b, err := blueprint.Parse("shop.yaml", []byte(`
name: one-barista
unit: coffees
resources:
  barista: 1
load:
  customers: 3
steps:
  - name: order
    duration: 1ms
  - name: brew
    duration: 2ms
    holds: [barista]
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	opt := goAt(4)
	opt.Policy.Sched = "fifo"
	r, err := simulate(b, opt)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: %.0f %s/s, mean latency %v, limited by the %s\n", b.Name, r.Throughput, b.Unit, r.Latency.Mean, r.Bounds.Limit)
	for _, m := range r.Machines {
		fmt.Printf("%s: busy %.0f%%, mean wait %v\n", m.Name, 100*m.BusyFrac, m.MeanWait)
	}
	// Output:
	// one-barista: 500 coffees/s, mean latency 6ms, limited by the barista
	// barista: busy 100%, mean wait 3ms
}

// A mistake in a file is an error naming the line and what was expected.
func ExampleParse_error() {
	_, err := blueprint.Parse("shop.yaml", []byte(`
resources:
  espresso: 1
steps:
  - name: press
    duration: 1ms
    holds: [expresso]
`))
	fmt.Println(err)
	// Output:
	// shop.yaml:7: step "press": holds "expresso": no such resource; want one of espresso (did you mean espresso?)
}
