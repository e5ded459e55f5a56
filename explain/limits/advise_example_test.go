package limits_test

import (
	"context"
	"fmt"

	"github.com/brewput/brewput/explain/limits"
	"github.com/brewput/brewput/model"
)

func ExampleAdvise() {
	cfg := model.DefaultConfig(6) // the talk's shop, every step 1 ms
	cfg.Mode, cfg.Policy.Sched = "finelocking", "fifo"
	a, err := limits.Advise(context.Background(), cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(a.Answer)
	// Output:
	// finelocking on 6 CPUs makes 1000 lattes/s, limited by the grinder, the espresso machine and the steamer together (no single relief gains more than 1 %; another grinder + another espresso machine + another steamer: +50 %). Best change: another copy of each machine (multi-2): 1500 lattes/s (+50 %), median latency 4.0 ms (33 % less); it costs 3 machines.
}
