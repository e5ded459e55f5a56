package limits_test

import (
	"context"
	"fmt"

	"github.com/brewput/brewput/experiment/limits"
	"github.com/brewput/brewput/model"
	"github.com/brewput/brewput/report/text"
)

func ExampleAdvise() {
	cfg := model.DefaultConfig(6) // the talk's shop, every step 1 ms
	cfg.Mode, cfg.Policy.Sched = "finelocking", "fifo"
	a, err := limits.Advise(context.Background(), cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	best := a.Options[0]
	fmt.Printf("%s makes %.0f %s, limited by %s; best change: %s (%s), %.0f %s\n", a.System, a.Now.Throughput, a.Unit, text.BottleneckName(a.Now.Bottleneck), text.OptionChange(best), text.Becomes(best.Becomes), best.Throughput, a.Unit)
	// Output:
	// finelocking on 6 CPUs makes 1000 lattes/s, limited by the grinder, the espresso machine and the steamer together; best change: another copy of each machine (multi-2), 1500 lattes/s
}
